// Comparing two runs in the window (issue 19): File > Compare With… compares the open run with another run of the
// task on a worker and shows the Comparison dock: the first divergence in words and both sides of the first
// differing part, the calls of both runs lined up with divergent rows marked (AlignmentModel), Go > Next/Previous
// Divergence, a row that selects this run's call everywhere, and a comparison dropped when another run opens.
// Offscreen; widgets by object name.

#include "ui/models/alignedcallsmodel.h"
#include "ui/models/alignmentmodel.h"
#include "ui/panes/callspane.h"
#include "ui/panes/comparisonpane.h"
#include "ui/panes/mainwindow.h"
#include "ui/services/appsetup.h"
#include "ui/services/comparisontools.h"
#include "ui/widgets/pairsidesview.h"

#include "tests/core/recordingfile.h"
#include "tests/core/recordingtext.h"
#include "tests/ui/windowfixture.h"

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
#include <QToolButton>

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
    void alignedCallsList();
    void callAdded();
    void promptChanged();

private:
    QString writeCopy(const QString &name, const std::string &text);

    QTemporaryDir m_dir;
    QString m_edited;
};

namespace {

const QString kEvents = QStringLiteral(TRACEFOLD_TEST_DATA "/samples/real-9.62/dev-6-events.ndjson");

// Compares the window's open run with `baseline` and waits for the comparison, then for the pair at the aligned row
// the window's call sits on.
bool compareAndWait(MainWindow &w, const QString &baseline)
{
    auto *tools = w.findChild<ComparisonTools *>(QStringLiteral("comparisonTools"));
    QSignalSpy ready(tools, &ComparisonTools::comparisonReady);
    tools->compareWith(baseline);
    return ready.wait(60000) && QTest::qWaitFor([&] { return tools->shownPair() != nullptr; }, 10000);
}

// Chooses aligned row `row` in the Calls list as a click would, and waits until the panes show its pair.
bool chooseAlignedRow(MainWindow &w, int row)
{
    auto *tools = w.findChild<ComparisonTools *>(QStringLiteral("comparisonTools"));
    auto *view = w.findChild<QTableView *>(QStringLiteral("alignedCallsView"));
    view->setCurrentIndex(view->model()->index(row, AlignedCallsModel::ThisDidColumn));
    return QTest::qWaitFor([&] { return tools->shownPair() && tools->shownPair()->row == row; }, 10000);
}

QStringList marks(const QPlainTextEdit *edit)
{
    QStringList out;
    for (const QTextEdit::ExtraSelection &s : edit->extraSelections())
        out << s.cursor.selectedText();
    return out;
}

} // namespace

QString TestComparisonView::writeCopy(const QString &name, const std::string &text)
{
    const QString path = m_dir.filePath(name);
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly) || out.write(text.data(), qint64(text.size())) != qint64(text.size()))
        return {};
    return path;
}

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
    auto *thisSide = w.findChild<QPlainTextEdit *>(QStringLiteral("wireCompareA"));
    auto *baselineSide = w.findChild<QPlainTextEdit *>(QStringLiteral("wireCompareB"));
    auto *pairTitle = w.findChild<QLabel *>(QStringLiteral("comparisonPairTitle"));
    auto *pairDetail = w.findChild<QPlainTextEdit *>(QStringLiteral("comparisonPairDetail"));
    QVERIFY(thisSide && baselineSide && pairTitle && pairDetail);
    QCOMPARE(pairTitle->textFormat(), Qt::PlainText);

    // Next divergence: call 4 in every pane, the Wire pane's sides of its differing part; there is none before it.
    next->trigger();
    QTRY_COMPARE(w.currentCall(), 3);
    QTRY_VERIFY(!pairShown.isEmpty() && pairShown.last().at(0).toInt() == 3);
    QVERIFY2(pairTitle->text().contains(QStringLiteral("messages[7] differs from UTF-16 offset 68")),
             qPrintable(pairTitle->text()));
    QVERIFY(thisSide->isVisible());
    QVERIFY(thisSide->toPlainText().contains(QStringLiteral("Corner Bakery 69.10")));
    QVERIFY(baselineSide->toPlainText().contains(QStringLiteral("Corner Bakery 64.10")));
    // The highlight is the differing unit: "9" on this side, "4" on the baseline's.
    QCOMPARE(thisSide->extraSelections().size(), 1);
    QCOMPARE(thisSide->extraSelections().front().cursor.selectedText(), QStringLiteral("9"));
    QCOMPARE(baselineSide->extraSelections().front().cursor.selectedText(), QStringLiteral("4"));
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

// While a comparison is open the Calls list shows both runs aligned: A's call beside B's, divergent rows marked;
// a row shows A's call in the panes and the pair under them, A beside B with the differing part marked. Closing the
// comparison gives the plain list back.
void TestComparisonView::alignedCallsList()
{
    auto w = test::shownTestWindow(false);
    QVERIFY(w);
    QVERIFY(test::openAndShowFirstCall(*w, m_edited));
    auto *calls = w->findChild<CallsPane *>(QStringLiteral("callsPane"));
    auto *plainView = w->findChild<QTableView *>(QStringLiteral("callsView"));
    auto *aligned = w->findChild<QTableView *>(QStringLiteral("alignedCallsView"));
    QVERIFY(calls && plainView && aligned);
    QVERIFY(plainView->isVisible() && !aligned->isVisible());
    QVERIFY(compareAndWait(*w, kOriginal));
    QVERIFY(calls->isAligned());
    QVERIFY(aligned->isVisible() && !plainView->isVisible());

    const QAbstractItemModel *m = aligned->model();
    QAbstractItemModelTester tester(const_cast<QAbstractItemModel *>(m),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(m->rowCount(), 7);
    QCOMPARE(m->columnCount(), int(AlignedCallsModel::ColumnCount));
    QCOMPARE(m->index(0, AlignedCallsModel::ThisDidColumn).data().toString(), QStringLiteral("→ category_total"));
    QCOMPARE(m->index(1, AlignedCallsModel::BaselineDidColumn).data().toString(), QStringLiteral("answered"));
    for (int row = 0; row < 7; ++row) {
        QCOMPARE(m->index(row, AlignedCallsModel::ThisCallColumn).data().toString(), QString::number(row + 1));
        QCOMPARE(m->index(row, AlignedCallsModel::BaselineCallColumn).data().toString(), QString::number(row + 1));
        // Calls 4 to 7 carry the edited tool result in their history.
        QCOMPARE(m->index(row, 0).data(AlignmentModel::DivergentRole).toBool(), row >= 3);
        QCOMPARE(m->index(row, AlignedCallsModel::MarkColumn).data().toString(),
                 row >= 3 ? QStringLiteral("≠") : QStringLiteral("="));
    }
    QVERIFY(m->index(3, AlignedCallsModel::MarkColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("messages[7]")));
    QCOMPARE(calls->alignedRow(), 0); // the call shown

    // Row 4: call 4 in the panes; the Wire pane's sides open on messages[7], the one differing digit marked on each
    // side; the response was the same, its sides stay folded to their line.
    QVERIFY(chooseAlignedRow(*w, 3));
    QTRY_COMPARE(w->currentCall(), 3);
    auto *tools = w->findChild<ComparisonTools *>(QStringLiteral("comparisonTools"));
    QCOMPARE(tools->sidesViews().size(), 5);
    auto *wire = w->findChild<PairSidesView *>(QStringLiteral("wireCompare"));
    auto *response = w->findChild<PairSidesView *>(QStringLiteral("responseCompare"));
    auto *cache = w->findChild<PairSidesView *>(QStringLiteral("cacheCompare"));
    auto *ledger = w->findChild<PairSidesView *>(QStringLiteral("ledgerCompare"));
    auto *piece = w->findChild<PairSidesView *>(QStringLiteral("pieceCompare"));
    QVERIFY(wire && response && cache && ledger && piece);
    QVERIFY(wire->isVisible());
    QCOMPARE(wire->summary(), QStringLiteral("Served vs baseline call 4: messages[7] differs from UTF-16 offset 68"));
    QVERIFY(wire->differs() && wire->isExpanded());
    QCOMPARE(marks(wire->sideA()), QStringList{QStringLiteral("9")});
    QCOMPARE(marks(wire->sideB()), QStringList{QStringLiteral("4")});
    QVERIFY(wire->sideA()->toPlainText().contains(QStringLiteral("Corner Bakery 69.10")));
    QVERIFY(!response->differs() && !response->isExpanded());
    QCOMPARE(response->summary(), QStringLiteral("Response vs baseline call 4: the same response"));
    QVERIFY(cache->summary().contains(QStringLiteral("the same cache verdict")));
    QCOMPARE(ledger->summary(), QStringLiteral("Ledger vs baseline call 4: the same rows (compared without the ids a "
                                               "run issues)"));
    QCOMPARE(piece->summary(), QStringLiteral("Findings piece vs baseline call 4: no findings piece in either call"));

    // Row 3: served the same, its tool result differs: the Response pane's sides open on it, the Wire's fold.
    QVERIFY(chooseAlignedRow(*w, 2));
    QTRY_COMPARE(w->currentCall(), 2);
    QVERIFY(!wire->differs() && !wire->isExpanded() && !wire->sideA()->isVisible());
    QVERIFY(response->differs() && response->isExpanded());
    QVERIFY(response->summary().endsWith(QStringLiteral("1 tool result differs")));
    QCOMPARE(marks(response->sideA()), QStringList{QStringLiteral("9")});
    QCOMPARE(marks(response->sideB()), QStringList{QStringLiteral("4")});
    // Folded by the reader, the sides stay folded on the next pair that differs there.
    response->findChild<QToolButton *>(QStringLiteral("responseCompareToggle"))->click();
    QVERIFY(!response->isExpanded());

    // A call chosen elsewhere moves the aligned row; F8 moves both.
    QVERIFY(test::showCallAndWait(*w, 5));
    QCOMPARE(calls->alignedRow(), 5);
    w->findChild<QAction *>(QStringLiteral("nextDivergenceAction"))->trigger();
    QTRY_COMPARE(w->currentCall(), 6);
    QCOMPARE(calls->alignedRow(), 6);

    // Either run can be the baseline: after a swap the list is aligned again, this run now the original.
    QSignalSpy loaded(w.get(), &MainWindow::runLoaded);
    QSignalSpy ready(tools, &ComparisonTools::comparisonReady);
    w->findChild<QAction *>(QStringLiteral("swapBaselineAction"))->trigger();
    QVERIFY(loaded.wait(60000));
    QVERIFY(ready.wait(60000));
    QVERIFY(calls->isAligned() && aligned->isVisible());
    QVERIFY(chooseAlignedRow(*w, 3));
    QCOMPARE(marks(wire->sideA()), QStringList{QStringLiteral("4")});
    QCOMPARE(marks(wire->sideB()), QStringList{QStringLiteral("9")});

    // Closing the comparison: the plain list again, the panes' sides gone.
    auto *close = w->findChild<QAction *>(QStringLiteral("closeComparisonAction"));
    QVERIFY(close && close->isEnabled());
    close->trigger();
    QVERIFY(!calls->isAligned());
    QVERIFY(plainView->isVisible() && !aligned->isVisible());
    QVERIFY(!wire->isVisible() && !response->isVisible());
    QCOMPARE(w->currentCall(), 3);
    QCOMPARE(plainView->currentIndex().row(), 3);
    QVERIFY(!close->isEnabled());
}

// A run with one call more than its baseline (an iteration on record twice): the extra call sits beside a gap in
// the Calls list, marked; choosing it says so in every pane's sides; the calls after it pair with their own again.
void TestComparisonView::callAdded()
{
    const std::string plainText = testsupport::readFile(kEvents);
    const QString more = writeCopy(QStringLiteral("added.ndjson"), testsupport::withIterationRepeated(plainText, 2));
    QVERIFY(!more.isEmpty());
    auto w = test::shownTestWindow(false);
    QVERIFY(w);
    QVERIFY(test::openAndShowFirstCall(*w, more));
    const int callsA = int(w->run()->calls.size());
    QVERIFY(compareAndWait(*w, kEvents));
    auto *aligned = w->findChild<QTableView *>(QStringLiteral("alignedCallsView"));
    const QAbstractItemModel *m = aligned->model();
    QCOMPARE(m->rowCount(), callsA);
    // Row 3: call 3 of this run beside no call of the baseline.
    QCOMPARE(m->index(2, AlignedCallsModel::ThisCallColumn).data().toString(), QStringLiteral("3"));
    QCOMPARE(m->index(2, AlignedCallsModel::BaselineCallColumn).data().toString(), QString());
    QCOMPARE(m->index(2, AlignedCallsModel::BaselineDidColumn).data().toString(), AlignedCallsModel::gapText());
    QCOMPARE(m->index(2, AlignedCallsModel::MarkColumn).data().toString(), QStringLiteral("+"));
    QVERIFY(m->index(2, 0).data(AlignmentModel::DivergentRole).toBool());
    QVERIFY(m->index(2, AlignedCallsModel::BaselineDidColumn).data(Qt::ForegroundRole).isValid());
    for (int row = 0; row < callsA; ++row) {
        if (row == 2)
            continue;
        QCOMPARE(m->index(row, AlignedCallsModel::MarkColumn).data().toString(), QStringLiteral("="));
        QCOMPARE(m->index(row, AlignedCallsModel::BaselineCallColumn).data().toString(),
                 QString::number(row < 2 ? row + 1 : row));
    }

    // F8 from the first call: the gap row, with this run's call 3 shown; every pane's sides hold that call on A's
    // side and "(no call)" on the baseline's.
    w->findChild<QAction *>(QStringLiteral("nextDivergenceAction"))->trigger();
    QTRY_COMPARE(w->currentCall(), 2);
    auto *tools = w->findChild<ComparisonTools *>(QStringLiteral("comparisonTools"));
    QTRY_VERIFY(tools->shownPair() && tools->shownPair()->row == 2);
    QVERIFY(!tools->shownPair()->complete());
    auto *calls = w->findChild<CallsPane *>(QStringLiteral("callsPane"));
    QCOMPARE(calls->alignedRow(), 2);
    for (PairSidesView *view : tools->sidesViews()) {
        QVERIFY2(view->summary().endsWith(QStringLiteral(" vs no baseline call: only A made this call")),
                 qPrintable(view->summary()));
        QVERIFY(view->differs());
        QCOMPARE(view->sideB()->toPlainText(), QStringLiteral("(no call)"));
    }
    auto *responseSides = w->findChild<PairSidesView *>(QStringLiteral("responseCompare"));
    QVERIFY(responseSides->isExpanded());
    QVERIFY(responseSides->sideA()->toPlainText().contains(QStringLiteral("tool calls:\n  depot_opening_hours")));
    QVERIFY(w->findChild<PairSidesView *>(QStringLiteral("wireCompare"))
                ->sideA()
                ->toPlainText()
                .startsWith(QStringLiteral("\u25B8 system")));
    // The next row pairs call 4 with the baseline's call 3, served the same.
    QVERIFY(chooseAlignedRow(*w, 3));
    QTRY_COMPARE(w->currentCall(), 3);
    auto *wire = w->findChild<PairSidesView *>(QStringLiteral("wireCompare"));
    QCOMPARE(wire->summary(), QStringLiteral("Served vs baseline call 3: served the same bytes"));

    // The other way round (swapped): the gap is on this run's side; choosing it keeps this run's call on screen.
    QSignalSpy ready(tools, &ComparisonTools::comparisonReady);
    w->findChild<QAction *>(QStringLiteral("swapBaselineAction"))->trigger();
    QVERIFY(ready.wait(60000));
    QCOMPARE(w->run()->calls.size(), std::size_t(callsA - 1));
    m = aligned->model();
    QCOMPARE(m->rowCount(), callsA);
    QCOMPARE(m->index(2, AlignedCallsModel::ThisDidColumn).data().toString(), AlignedCallsModel::gapText());
    QCOMPARE(m->index(2, AlignedCallsModel::BaselineCallColumn).data().toString(), QStringLiteral("3"));
    QVERIFY(test::showCallAndWait(*w, 1));
    QVERIFY(chooseAlignedRow(*w, 2));
    QCOMPARE(calls->alignedRow(), 2);
    QCOMPARE(wire->summary(), QStringLiteral("Served vs baseline call 3: only B made this call"));
    QCOMPARE(wire->sideA()->toPlainText(), QStringLiteral("(no call)"));
    QVERIFY(responseSides->sideB()->toPlainText().contains(QStringLiteral("depot_opening_hours")));
    QTest::qWait(50);
    QCOMPARE(w->currentCall(), 1);
}

// A user prompt changed in turn 2 of a conversation: the first divergence is the first call of turn 2, and the Wire
// pane's sides mark the changed word on each side.
void TestComparisonView::promptChanged()
{
    const std::string original = testsupport::readFile(kOriginal);
    const QString changed = writeCopy(
        QStringLiteral("prompt.json"),
        testsupport::replaceAll(original, "How does that compare with February", "How does that compare with January"));
    QVERIFY(!changed.isEmpty());
    auto w = test::shownTestWindow(false);
    QVERIFY(w);
    QVERIFY(test::openAndShowFirstCall(*w, changed));
    QVERIFY(compareAndWait(*w, kOriginal));
    const QAbstractItemModel *m = w->findChild<QTableView *>(QStringLiteral("alignedCallsView"))->model();
    QCOMPARE(m->rowCount(), 7);
    QCOMPARE(m->index(0, 0).data(AlignmentModel::DivergentRole).toBool(), false);
    QCOMPARE(m->index(1, 0).data(AlignmentModel::DivergentRole).toBool(), false);
    QCOMPARE(m->index(2, 0).data(AlignmentModel::DivergentRole).toBool(), true);
    w->findChild<QAction *>(QStringLiteral("nextDivergenceAction"))->trigger();
    QTRY_COMPARE(w->currentCall(), 2);
    auto *tools = w->findChild<ComparisonTools *>(QStringLiteral("comparisonTools"));
    QTRY_VERIFY(tools->shownPair() && tools->shownPair()->row == 2);
    auto *wire = w->findChild<PairSidesView *>(QStringLiteral("wireCompare"));
    QVERIFY(wire->summary().startsWith(QStringLiteral("Served vs baseline call 3: messages[")));
    QCOMPARE(marks(wire->sideA()), QStringList{QStringLiteral("Jan")});
    QCOMPARE(marks(wire->sideB()), QStringList{QStringLiteral("Febr")});
}

QTEST_MAIN(TestComparisonView)
#include "tst_comparisonview.moc"
