// Comparing two runs in the window (issue 19): File > Compare With… compares the open run with another run of the
// task on a worker and shows the Comparison dock: the first divergence in words and both sides of the first
// differing part, the calls of both runs lined up with divergent rows marked (AlignmentModel), Go > Next/Previous
// Divergence, a row that selects this run's call everywhere, and a comparison dropped when another run opens.
// Offscreen; widgets by object name.

#include "ui/models/alignmentmodel.h"
#include "ui/panes/comparisonpane.h"
#include "ui/panes/mainwindow.h"
#include "ui/services/appsetup.h"
#include "ui/services/comparisontools.h"

#include "core/recording/recordingloader.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace tf;
using namespace tf::ui;

namespace {

const QString kOriginal = QStringLiteral(TRACEFOLD_TEST_DATA "/samples/real-9.62/dev-2-conversation.json");

} // namespace

class TestComparisonView : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void model();
    void window();

private:
    QTemporaryDir m_dir;
    QString m_edited;
};

void TestComparisonView::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    setupApplication(*static_cast<QApplication *>(QCoreApplication::instance()));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    QFile in(kOriginal);
    QVERIFY(in.open(QIODevice::ReadOnly));
    QByteArray text = in.readAll();
    QVERIFY(text.contains("Corner Bakery 64.10"));
    text.replace("Corner Bakery 64.10", "Corner Bakery 69.10");
    m_edited = m_dir.filePath(QStringLiteral("edited.json"));
    QFile out(m_edited);
    QVERIFY(out.open(QIODevice::WriteOnly));
    QCOMPARE(out.write(text), qint64(text.size()));
}

void TestComparisonView::model()
{
    const auto a = recording::loadRecording(m_edited.toStdString());
    const auto b = recording::loadRecording(kOriginal.toStdString());
    QVERIFY(a.run && b.run);
    auto comparison = std::make_shared<LoadedComparison>();
    comparison->run = a.run;
    comparison->baseline = b.run;
    comparison->diff = compare::compareRuns(*a.run, *b.run);

    AlignmentModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setComparison(comparison);
    QCOMPARE(model.rowCount(), 7);
    QCOMPARE(model.columnCount(), int(AlignmentModel::ColumnCount));
    for (int row = 0; row < 7; ++row) {
        QCOMPARE(model.index(row, 0).data(AlignmentModel::ThisCallRole).toInt(), row);
        QCOMPARE(model.index(row, 0).data(AlignmentModel::BaselineCallRole).toInt(), row);
        QCOMPARE(model.index(row, AlignmentModel::ThisRunColumn).data().toString(), QString::number(row + 1));
        // Calls 4 to 7 carry the edited tool result in their history.
        QCOMPARE(model.isDivergent(row), row >= 3);
        QCOMPARE(model.index(row, AlignmentModel::ServedColumn).data().toString(),
                 row >= 3 ? QStringLiteral("differs") : QStringLiteral("same"));
    }
    QCOMPARE(model.index(2, AlignmentModel::DiffersColumn).data().toString(),
             QStringLiteral("toolResults[top_merchants]"));
    QCOMPARE(model.index(3, AlignmentModel::DiffersColumn).data().toString(), QStringLiteral("messages[7]"));
    QCOMPARE(model.divergentRow(-1, 1), 3);
    QCOMPARE(model.divergentRow(3, 1), 4);
    QCOMPARE(model.divergentRow(3, -1), -1);
    QCOMPARE(model.rowOfThisCall(5), 5);
    model.setComparison(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void TestComparisonView::window()
{
    MainWindow::Options options;
    options.persistSettings = false;
    options.errorDialogs = false;
    options.progressDialog = false;
    MainWindow w(options);
    w.resize(1400, 900);
    w.show();
    auto *tools = w.findChild<ComparisonTools *>(QStringLiteral("comparisonTools"));
    QVERIFY(tools);
    auto *compareAction = w.findChild<QAction *>(QStringLiteral("compareWithAction"));
    auto *next = w.findChild<QAction *>(QStringLiteral("nextDivergenceAction"));
    auto *previous = w.findChild<QAction *>(QStringLiteral("previousDivergenceAction"));
    QVERIFY(compareAction && next && previous);
    QVERIFY(!compareAction->isEnabled()); // nothing open to compare
    QVERIFY(!next->isEnabled());

    QSignalSpy loaded(&w, &MainWindow::runLoaded);
    w.openFile(m_edited);
    QVERIFY(loaded.wait(60000));
    QVERIFY(compareAction->isEnabled());
    QTRY_COMPARE(w.currentCall(), 0);

    QSignalSpy ready(tools, &ComparisonTools::comparisonReady);
    tools->compareWith(kOriginal);
    QVERIFY(ready.wait(60000));
    auto *dock = w.findChild<QDockWidget *>(QStringLiteral("comparisonDock"));
    QVERIFY(dock && dock->isVisible());
    QVERIFY(next->isEnabled() && previous->isEnabled());

    auto *verdict = w.findChild<QLabel *>(QStringLiteral("comparisonVerdict"));
    QVERIFY(verdict);
    QCOMPARE(verdict->textFormat(), Qt::PlainText);
    QVERIFY2(verdict->text().contains(QStringLiteral("first went apart at call 4 (baseline call 4): messages[7] "
                                                     "from UTF-16 offset 68")),
             qPrintable(verdict->text()));
    auto *view = w.findChild<QTableView *>(QStringLiteral("alignmentView"));
    QVERIFY(view);
    QCOMPARE(view->model()->rowCount(), 7);
    QCOMPARE(view->currentIndex().row(), 0); // follows the call shown

    auto *pane = tools->pane();
    QSignalSpy pairShown(pane, &ComparisonPane::pairShown);
    auto *thisSide = w.findChild<QPlainTextEdit *>(QStringLiteral("comparisonThisSide"));
    auto *baselineSide = w.findChild<QPlainTextEdit *>(QStringLiteral("comparisonBaselineSide"));
    auto *pairTitle = w.findChild<QLabel *>(QStringLiteral("comparisonPairTitle"));
    auto *pairDetail = w.findChild<QPlainTextEdit *>(QStringLiteral("comparisonPairDetail"));
    QVERIFY(thisSide && baselineSide && pairTitle && pairDetail);
    QCOMPARE(pairTitle->textFormat(), Qt::PlainText);

    // Next divergence: call 4 in every pane, both sides of its first differing part; there is none before it.
    next->trigger();
    QTRY_COMPARE(w.currentCall(), 3);
    QTRY_VERIFY(!pairShown.isEmpty() && pairShown.last().at(0).toInt() == 3);
    QVERIFY2(pairTitle->text().contains(QStringLiteral("messages[7] differs from UTF-16 offset 68")),
             qPrintable(pairTitle->text()));
    QVERIFY(thisSide->isVisible());
    QVERIFY(thisSide->toPlainText().contains(QStringLiteral("Corner Bakery 69.10")));
    QVERIFY(baselineSide->toPlainText().contains(QStringLiteral("Corner Bakery 64.10")));
    // The highlight starts at the first differing unit: "9" on this side.
    QCOMPARE(thisSide->extraSelections().size(), 1);
    QVERIFY(thisSide->extraSelections().front().cursor.selectedText().startsWith(QStringLiteral("9.10 EUR")));
    QVERIFY(pairDetail->toPlainText().contains(QStringLiteral("response text: same")));
    QTRY_VERIFY(w.currentBundle() && w.currentBundle()->ordinal == 3);
    QCOMPARE(view->currentIndex().row(), 3);
    next->trigger();
    QTRY_COMPARE(w.currentCall(), 4);
    previous->trigger();
    QTRY_COMPARE(w.currentCall(), 3);
    QVERIFY(!tools->stepDivergence(-1));
    QCOMPARE(w.currentCall(), 3);

    // Choosing a row shows that call; showing a call selects its row.
    view->setCurrentIndex(view->model()->index(1, 0));
    QTRY_COMPARE(w.currentCall(), 1);
    QTRY_VERIFY(pairShown.last().at(0).toInt() == 1 && pairTitle->text().endsWith(QStringLiteral("served the same.")));
    QVERIFY(!thisSide->isVisible());
    // Row 3 (call 3) was served the same, and ran the tool whose result differs.
    view->setCurrentIndex(view->model()->index(2, 0));
    QTRY_VERIFY(pairShown.last().at(0).toInt() == 2 &&
                pairDetail->toPlainText().contains(QStringLiteral("tool result top_merchants")));
    w.showCall(6);
    QTRY_COMPARE(view->currentIndex().row(), 6);

    // Either run can be the baseline: swapping opens the baseline and compares it with the run that was open.
    auto *swap = w.findChild<QAction *>(QStringLiteral("swapBaselineAction"));
    QVERIFY(swap && swap->isEnabled());
    swap->trigger();
    QVERIFY(loaded.wait(60000));
    QCOMPARE(w.run()->path, QFileInfo(kOriginal).absoluteFilePath());
    QVERIFY(ready.wait(60000));
    QCOMPARE(tools->comparison()->baselinePath, QFileInfo(m_edited).absoluteFilePath());
    QVERIFY(verdict->text().contains(QStringLiteral("first went apart at call 4 (baseline call 4): messages[7]")));
    tools->stepDivergence(1);
    QTRY_VERIFY(thisSide->isVisible() && thisSide->toPlainText().contains(QStringLiteral("Corner Bakery 64.10")));
    QVERIFY(baselineSide->toPlainText().contains(QStringLiteral("Corner Bakery 69.10")));

    // Another run: the comparison was made for the one before.
    w.openFile(m_edited);
    QVERIFY(loaded.wait(60000));
    QCOMPARE(view->model()->rowCount(), 0);
    QVERIFY(!next->isEnabled());
    QVERIFY(!tools->comparison());

    // A baseline that cannot be read: said in the pane, nothing else changes.
    QSignalSpy failed(tools, &ComparisonTools::comparisonFailed);
    tools->compareWith(QStringLiteral(TRACEFOLD_TEST_DATA "/broken/not-json.json"));
    QVERIFY(failed.wait(60000));
    QVERIFY(verdict->text().startsWith(QStringLiteral("Could not compare: ")));
    QVERIFY(verdict->text().contains(QStringLiteral("not-json.json")));
    QCOMPARE(view->model()->rowCount(), 0);
}

QTEST_MAIN(TestComparisonView)
#include "tst_comparisonview.moc"
