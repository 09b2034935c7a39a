// The main window end to end on the offscreen platform: open samples, step through every call and check each pane
// against the core, collapsed highlighting, keyboard navigation, errors that keep the previous run, the clipboard,
// recent files, drag and drop, and the screenshot mode.

#include "uitesthelpers.h"

#include "ui/models/calllistmodel.h"
#include "ui/models/callstatus.h"
#include "ui/models/gapmodel.h"
#include "ui/models/ledgerfiltermodel.h"
#include "ui/models/ledgermodel.h"
#include "ui/models/piecemodel.h"
#include "ui/models/receiptmodel.h"
#include "ui/models/wiremodel.h"
#include "ui/panes/findingspane.h"
#include "ui/panes/ledgerpane.h"
#include "ui/panes/mainwindow.h"
#include "ui/panes/receiptpane.h"
#include "ui/panes/sincepreviouspane.h"
#include "ui/panes/wirepane.h"
#include "ui/services/appsetup.h"
#include "ui/services/bundledsample.h"
#include "ui/services/qtstrings.h"
#include "ui/services/screenshot.h"
#include "ui/widgets/annotatedtextview.h"
#include "ui/widgets/elidedlabel.h"
#include "ui/widgets/stripchart.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/wiredelegate.h"

#include "core/text/linediff.h"
#include "core/text/utf.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDockWidget>
#include <QFontDatabase>
#include <QFontInfo>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTextBlock>
#include <QTextCursor>
#include <QToolButton>
#include <QTreeView>

using namespace tf;
using namespace tf::ui;

class TestMainWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void opensBundledSampleWithNoFile();
    void stepThroughEveryCall_data();
    void stepThroughEveryCall();
    void collapsedHighlighting();
    void showOriginalResult();
    void keyboardNavigation();
    void jumpToDamaged();
    void brokenFileKeepsPreviousRun_data();
    void brokenFileKeepsPreviousRun();
    void lateResultOfOlderLoadIsDropped();
    void cancelKeepsPreviousRun();
    void copyPutsExactBytes();
    void rawViewAndCounts();
    void noPieceSaysWhy();
    void structuredLineSelectsLedgerRows();
    void structuredViewMarksWhatTheModelSays();
    void sincePreviousDiffFoldsUnchangedRuns();
    void ledgerSortsByRowFromTheHeader();
    void findFocusesLedgerFilter();
    void stripChartClickMovesCursor();
    void recentFilesAndDrop();
    void standardShortcuts();
    void screenshotMode();
    void holdingJEndsOnTheRightCall();
    void loneSurrogatesAreShownAndMarked();
    void layoutIsKept();
    void fontsSkipNeedlessShapingOnly();

private:
    bool openAndWait(MainWindow &w, const QString &path);
    bool showAndWait(MainWindow &w, int ordinal);
    void checkPanes(MainWindow &w, int ordinal);

    QTemporaryDir m_dir;
    QString m_generated, m_damaged;
    std::unique_ptr<MainWindow> m_window;
};

void TestMainWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    setupApplication(*qApp);
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    m_generated = test::writeGenerated(m_dir, QStringLiteral("generated.json"), 12, 1);
    m_damaged =
        test::writeGenerated(m_dir, QStringLiteral("damaged.json"), 9, 4, {generate::Damage::Kind::MessageByte, 4});
    QVERIFY(!m_generated.isEmpty() && !m_damaged.isEmpty());
}

void TestMainWindow::init()
{
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestMainWindow::cleanup()
{
    m_window.reset();
}

bool TestMainWindow::openAndWait(MainWindow &w, const QString &path)
{
    QSignalSpy loaded(&w, &MainWindow::runLoaded);
    QSignalSpy failed(&w, &MainWindow::loadFailed);
    w.openFile(path);
    if (!loaded.wait(60000) || !failed.isEmpty())
        return false;
    // The first call's panes follow the summary stage.
    return w.run()->calls.empty() || showAndWait(w, 0);
}

bool TestMainWindow::showAndWait(MainWindow &w, int ordinal)
{
    w.showCall(ordinal);
    for (int i = 0; i < 200; ++i) {
        if (w.currentBundle() && int(w.currentBundle()->ordinal) == ordinal && w.currentCall() == ordinal)
            return true;
        QSignalSpy shown(&w, &MainWindow::callShown);
        if (w.currentBundle() && int(w.currentBundle()->ordinal) == ordinal && w.currentCall() == ordinal)
            return true;
        shown.wait(300);
    }
    return false;
}

void TestMainWindow::checkPanes(MainWindow &w, int ordinal)
{
    const BundleHandle bundle = w.currentBundle();
    QVERIFY(bundle);
    QCOMPARE(int(bundle->ordinal), ordinal);
    const recording::CallView &v = *bundle->view;

    auto *calls = w.findChild<QTableView *>(QStringLiteral("callsView"));
    QVERIFY(calls);
    QCOMPARE(calls->currentIndex().row(), ordinal);
    auto *strip = w.findChild<StripChart *>(QStringLiteral("stripChart"));
    QVERIFY(strip);
    QCOMPARE(strip->currentCall(), ordinal);

    auto *findings = w.findChild<FindingsPane *>(QStringLiteral("findingsPane"));
    QVERIFY(findings);
    QCOMPARE(findings->model()->rowCount(), v.piece ? int(v.piece->sections.size()) : 0);
    auto *noPiece = w.findChild<QLabel *>(QStringLiteral("noPieceLabel"));
    QVERIFY(noPiece);
    QCOMPARE(noPiece->isVisible(), !v.piece.has_value());

    auto *ledger = w.findChild<QTableView *>(QStringLiteral("ledgerView"));
    QVERIFY(ledger);
    QCOMPARE(ledger->model()->rowCount(), v.ledgerOnRecord ? int(v.ledger.size()) : 0);

    auto *wire = w.findChild<QTreeView *>(QStringLiteral("wireView"));
    QVERIFY(wire);
    const QModelIndex messages = wire->model()->index(WireModel::MessagesGroup, 0);
    QCOMPARE(wire->model()->rowCount(messages), v.conversationOnRecord ? int(v.asSent.size()) : 0);

    // The Receipt is a tab behind Since Previous, brought up to date when it is in front (as a user brings it).
    w.findChild<QDockWidget *>(QStringLiteral("receiptDock"))->raise();
    auto *receipt = w.findChild<QTableView *>(QStringLiteral("receiptView"));
    QVERIFY(receipt);
    QCOMPARE(receipt->model()->rowCount(), int(v.checks.size()));

    auto *reason = w.findChild<QLabel *>(QStringLiteral("cacheReason"));
    QVERIFY(reason);
    QCOMPARE(reason->text(), toQString(v.cache.reason));

    // The status line names the call.
    auto *status = w.findChild<QLabel *>(QStringLiteral("statusCall"));
    QVERIFY(status);
    QVERIFY(status->text().contains(QString::number(ordinal + 1)));
}

void TestMainWindow::opensBundledSampleWithNoFile()
{
    QSignalSpy loaded(m_window.get(), &MainWindow::runLoaded);
    m_window->openBundledSample();
    QVERIFY(loaded.wait(60000));
    QVERIFY(m_window->run()->bundled);
    QCOMPARE(m_window->run()->path, bundledSamplePath());
    QVERIFY(!m_window->run()->calls.empty());
    QVERIFY(m_window->windowTitle().contains(QStringLiteral("Tracefold")));
    auto *summary = m_window->findChild<ElidedLabel *>(QStringLiteral("summaryCalls"));
    QVERIFY(summary);
    QCOMPARE(summary->text(), QString::number(m_window->run()->calls.size()));
    auto *runId = m_window->findChild<ElidedLabel *>(QStringLiteral("summaryRunId"));
    QCOMPARE(runId->text(), toQString(m_window->run()->run->runId));
    // The bundled sample is not a recent file (it is always one menu item away).
    QVERIFY(!m_window->recentFiles().contains(bundledSamplePath()));
}

void TestMainWindow::stepThroughEveryCall_data()
{
    QTest::addColumn<QString>("path");
    for (const QString &s : test::realSamples())
        QTest::newRow(qPrintable(s)) << test::samplePath(s);
    QTest::newRow("generated") << m_generated;
    QTest::newRow("generated-damaged") << m_damaged;
}

void TestMainWindow::stepThroughEveryCall()
{
    QFETCH(QString, path);
    MainWindow &w = *m_window;
    QVERIFY(openAndWait(w, path));
    const int n = int(w.run()->calls.size());
    QVERIFY(n > 0);
    auto *calls = w.findChild<QTableView *>(QStringLiteral("callsView"));
    // Every pane's model is watched while the panes are reset call after call.
    const auto mode = QAbstractItemModelTester::FailureReportingMode::QtTest;
    QAbstractItemModelTester callsTester(calls->model(), mode);
    QAbstractItemModelTester pieceTester(w.findChild<FindingsPane *>(QStringLiteral("findingsPane"))->model(), mode);
    QAbstractItemModelTester ledgerTester(w.findChild<LedgerPane *>(QStringLiteral("ledgerPane"))->model(), mode);
    QAbstractItemModelTester ledgerProxyTester(w.findChild<LedgerPane *>(QStringLiteral("ledgerPane"))->proxy(), mode);
    QAbstractItemModelTester wireTester(w.findChild<WirePane *>(QStringLiteral("wirePane"))->model(), mode);
    QAbstractItemModelTester receiptTester(w.findChild<ReceiptPane *>(QStringLiteral("receiptPane"))->model(), mode);
    QAbstractItemModelTester gapTester(w.findChild<ReceiptPane *>(QStringLiteral("receiptPane"))->gapModel(), mode);
    calls->setFocus();
    checkPanes(w, 0);
    for (int i = 1; i < n; ++i) {
        QTest::keyClick(calls, Qt::Key_J);
        QTRY_VERIFY(w.currentBundle() && int(w.currentBundle()->ordinal) == i);
        checkPanes(w, i);
    }
}

void TestMainWindow::collapsedHighlighting()
{
    MainWindow &w = *m_window;
    QVERIFY(openAndWait(w, m_generated));
    auto *wire = w.findChild<QTreeView *>(QStringLiteral("wireView"));
    QVERIFY(wire);
    int highlighted = 0;
    for (int i = 0; i < int(w.run()->calls.size()); ++i) {
        QVERIFY(showAndWait(w, i));
        const recording::CallView &v = *w.currentBundle()->view;
        QSet<int> collapsed;
        for (const auto &c : v.collapsed)
            collapsed.insert(int(c.index));
        const QModelIndex messages = wire->model()->index(WireModel::MessagesGroup, 0);
        for (int m = 0; m < wire->model()->rowCount(messages); ++m) {
            const QModelIndex row = wire->model()->index(m, WireModel::StatusColumn, messages);
            const bool tinted = WireDelegate::rowBackground(row, wire->palette()).style() != Qt::NoBrush;
            const bool damaged = row.data(WireModel::DamagedRole).toBool();
            QCOMPARE(tinted && !damaged, collapsed.contains(m));
            QCOMPARE(row.data().toString().contains(QStringLiteral("collapsed")), collapsed.contains(m));
            highlighted += collapsed.contains(m) ? 1 : 0;
        }
        // The tree, the call list and the core agree on how many.
        const QModelIndex countIndex =
            w.findChild<QTableView *>(QStringLiteral("callsView"))->model()->index(i, CallListModel::CollapsedColumn);
        QCOMPARE(countIndex.data(CallListModel::CollapsedCountRole).toInt(), int(collapsed.size()));
    }
    QVERIFY(highlighted > 0);
}

void TestMainWindow::showOriginalResult()
{
    MainWindow &w = *m_window;
    QVERIFY(openAndWait(w, m_generated));
    int call = -1;
    for (int i = 0; i < int(w.run()->calls.size()) && call < 0; ++i)
        if (!w.run()->calls[std::size_t(i)].collapsedIds.empty())
            call = i;
    QVERIFY(call >= 0);
    QVERIFY(showAndWait(w, call));
    const recording::CallView &v = *w.currentBundle()->view;
    const findings::CollapsedMessage &c = v.collapsed.front();
    auto *wire = w.findChild<QTreeView *>(QStringLiteral("wireView"));
    wire->setCurrentIndex(wire->model()->index(int(c.index), 0, wire->model()->index(WireModel::MessagesGroup, 0)));
    auto *detail = w.findChild<AnnotatedTextView *>(QStringLiteral("wireDetail"));
    auto *button = w.findChild<QToolButton *>(QStringLiteral("showOriginalButton"));
    QVERIFY(detail && button);
    QTRY_VERIFY(button->isVisible());
    QCOMPARE(detail->toPlainText(), toQString(c.ticket));
    // One click to the original result, one click back.
    QTest::mouseClick(button, Qt::LeftButton);
    const json::Value *original = v.committed.at(c.index).findString("content");
    QVERIFY(original);
    QCOMPARE(detail->toPlainText(), toQString(original->asString()));
    QTest::mouseClick(button, Qt::LeftButton);
    QCOMPARE(detail->toPlainText(), toQString(c.ticket));
}

void TestMainWindow::keyboardNavigation()
{
    MainWindow &w = *m_window;
    QVERIFY(openAndWait(w, m_generated));
    const auto &summaries = w.run()->calls;
    const int last = int(summaries.size()) - 1;
    auto *calls = w.findChild<QTableView *>(QStringLiteral("callsView"));
    calls->setFocus();
    const auto expectCall = [&](int ordinal) {
        QTRY_COMPARE(w.currentCall(), ordinal);
        QTRY_VERIFY(w.currentBundle() && int(w.currentBundle()->ordinal) == ordinal);
    };
    QTest::keyClick(calls, Qt::Key_Down);
    expectCall(1);
    QTest::keyClick(calls, Qt::Key_Up);
    expectCall(0);
    QTest::keyClick(calls, Qt::Key_J);
    QTest::keyClick(calls, Qt::Key_J);
    expectCall(2);
    QTest::keyClick(calls, Qt::Key_K);
    expectCall(1);
    QTest::keyClick(calls, Qt::Key_End);
    expectCall(last);
    QTest::keyClick(calls, Qt::Key_Home);
    expectCall(0);
    QTest::keyClick(calls, Qt::Key_K); // at the first call: stays
    expectCall(0);

    // M: next cache miss; Shift+M back.
    int nextMiss = -1;
    for (int i = 1; i <= last && nextMiss < 0; ++i)
        if (isCacheMiss(summaries[std::size_t(i)]))
            nextMiss = i;
    QVERIFY(nextMiss > 0);
    QTest::keyClick(calls, Qt::Key_M);
    expectCall(nextMiss);
    int afterThat = -1;
    for (int i = nextMiss + 1; i <= last && afterThat < 0; ++i)
        if (isCacheMiss(summaries[std::size_t(i)]))
            afterThat = i;
    if (afterThat > 0) {
        QTest::keyClick(calls, Qt::Key_M);
        expectCall(afterThat);
        QTest::keyClick(calls, Qt::Key_M, Qt::ShiftModifier);
        expectCall(nextMiss);
    }

    // L: next ledger change from the first call.
    QTest::keyClick(calls, Qt::Key_Home);
    expectCall(0);
    int nextChange = -1;
    for (int i = 1; i <= last && nextChange < 0; ++i)
        if (summaries[std::size_t(i)].ledgerChanged)
            nextChange = i;
    QVERIFY(nextChange > 0);
    QTest::keyClick(calls, Qt::Key_L);
    expectCall(nextChange);

    // The step keys work from the other panes too (they are window shortcuts), but not while typing in a filter.
    auto *ledgerView = w.findChild<QTableView *>(QStringLiteral("ledgerView"));
    ledgerView->setFocus();
    QTest::keyClick(ledgerView, Qt::Key_J);
    expectCall(nextChange + 1);
    auto *filter = w.findChild<QLineEdit *>(QStringLiteral("ledgerFilter"));
    filter->setFocus();
    QTest::keyClicks(filter, QStringLiteral("jk"));
    QCOMPARE(filter->text(), QStringLiteral("jk"));
    expectCall(nextChange + 1);
}

void TestMainWindow::jumpToDamaged()
{
    MainWindow &w = *m_window;
    QVERIFY(openAndWait(w, m_damaged));
    int firstDamaged = -1;
    for (int i = 0; i < int(w.run()->calls.size()) && firstDamaged < 0; ++i)
        if (w.run()->calls[std::size_t(i)].damagedParts > 0)
            firstDamaged = i;
    QVERIFY(firstDamaged > 0);
    auto *calls = w.findChild<QTableView *>(QStringLiteral("callsView"));
    calls->setFocus();
    QTest::keyClick(calls, Qt::Key_D);
    QTRY_COMPARE(w.currentCall(), firstDamaged);
    QTRY_VERIFY(w.currentBundle() && int(w.currentBundle()->ordinal) == firstDamaged);
    // The call list shows the damaged badge, the receipt pane (its tab brought to the front) the damaged part with
    // its reason.
    QCOMPARE(recording::Badge(calls->model()->index(firstDamaged, 0).data(CallListModel::BadgeRole).toInt()),
             recording::Badge::Damaged);
    w.findChild<QDockWidget *>(QStringLiteral("receiptDock"))->raise();
    auto *receipt = w.findChild<QTableView *>(QStringLiteral("receiptView"));
    bool found = false;
    for (int r = 0; r < receipt->model()->rowCount(); ++r)
        if (recording::Badge(receipt->model()->index(r, 0).data(ReceiptModel::BadgeRole).toInt()) ==
            recording::Badge::Damaged) {
            found = true;
            QVERIFY(!receipt->model()->index(r, ReceiptModel::ReasonColumn).data().toString().isEmpty());
        }
    QVERIFY(found);
}

void TestMainWindow::brokenFileKeepsPreviousRun_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("expectedInMessage");
    QTest::newRow("truncated-json") << test::writeTruncated(m_dir) << QStringLiteral("truncated.json");
    QTest::newRow("not-an-object") << test::writeFile(m_dir, QStringLiteral("array.json"), "[1, 2, 3]\n")
                                   << QStringLiteral("array.json");
    QTest::newRow("unknown-envelope-format")
        << test::writeFile(m_dir, QStringLiteral("envelope.json"),
                           R"({"format": "agentfootprint.recording.v9", "recording": {"events": []}})")
        << QStringLiteral("envelope.json");
    QTest::newRow("empty-file") << test::writeFile(m_dir, QStringLiteral("empty.json"), QByteArray())
                                << QStringLiteral("empty.json");
    QTest::newRow("missing-file") << m_dir.filePath(QStringLiteral("does-not-exist.json"))
                                  << QStringLiteral("does-not-exist.json");
}

void TestMainWindow::brokenFileKeepsPreviousRun()
{
    QFETCH(QString, path);
    QFETCH(QString, expectedInMessage);
    MainWindow &w = *m_window;
    QVERIFY(openAndWait(w, m_generated));
    QVERIFY(showAndWait(w, 3));
    const RunHandle before = w.run();

    QSignalSpy failed(&w, &MainWindow::loadFailed);
    w.openFile(path);
    QVERIFY(failed.wait(60000));
    const QString error = failed.at(0).at(1).toString();
    QVERIFY2(error.contains(expectedInMessage), qPrintable(error));

    // A dialog with the specific reason, as plain text.
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = w.findChild<QMessageBox *>(QStringLiteral("loadErrorDialog"))) && box->isVisible());
    QCOMPARE(box->textFormat(), Qt::PlainText);
    QVERIFY(box->text().contains(error));

    // The previous run is still open and usable.
    QCOMPARE(w.run(), before);
    QCOMPARE(w.currentCall(), 3);
    box->accept();
    auto *calls = w.findChild<QTableView *>(QStringLiteral("callsView"));
    QCOMPARE(calls->model()->rowCount(), int(before->calls.size()));
    calls->setFocus();
    QTest::keyClick(calls, Qt::Key_J);
    QTRY_VERIFY(w.currentBundle() && w.currentBundle()->ordinal == 4);
    QCOMPARE(w.currentBundle()->run, before->run);
}

void TestMainWindow::lateResultOfOlderLoadIsDropped()
{
    RunLoader loader;
    QSignalSpy loaded(&loader, &RunLoader::loaded);
    const QString first = test::samplePath(QStringLiteral("agentfootprint-demo-turn.json"));
    loader.load(first);
    loader.load(m_generated);
    QVERIFY(loaded.wait(60000));
    QTRY_VERIFY(!loader.hasPendingWork());
    QCOMPARE(loaded.count(), 1);
    QCOMPARE(loaded.at(0).at(0).value<RunHandle>()->path, m_generated);
}

void TestMainWindow::cancelKeepsPreviousRun()
{
    MainWindow &w = *m_window;
    QVERIFY(openAndWait(w, m_generated));
    const RunHandle before = w.run();
    const QString big = test::writeGenerated(m_dir, QStringLiteral("big.json"), 60, 9);
    RunLoader *loader = w.findChild<RunLoader *>();
    QVERIFY(loader);
    QSignalSpy cancelled(loader, &RunLoader::cancelled);
    QSignalSpy loaded(&w, &MainWindow::runLoaded);
    w.openFile(big);
    loader->cancel(); // the Cancel button of the progress dialog
    QTRY_VERIFY(cancelled.count() == 1 || loaded.count() == 1);
    if (loaded.count() == 1)
        QSKIP("the load finished before the cancel was seen");
    QCOMPARE(w.run(), before);
    QTRY_VERIFY(!w.isLoading());
}

void TestMainWindow::copyPutsExactBytes()
{
    MainWindow &w = *m_window;
    QVERIFY(openAndWait(w, m_generated));
    int call = -1;
    for (int i = int(w.run()->calls.size()) - 1; i >= 0 && call < 0; --i)
        if (w.run()->calls[std::size_t(i)].pieceSizeUtf8)
            call = i;
    QVERIFY(call >= 0);
    QVERIFY(showAndWait(w, call));
    auto *copy = w.findChild<QToolButton *>(QStringLiteral("copyPieceButton"));
    QVERIFY(copy && copy->isEnabled());
    QApplication::clipboard()->clear();
    QTest::mouseClick(copy, Qt::LeftButton);
    const std::u16string &text = w.currentBundle()->view->piece->text;
    const std::string expected = text::toUtf8Lossy(std::u16string_view(text));
    const QMimeData *mime = QApplication::clipboard()->mimeData();
    QVERIFY(mime);
    const QByteArray bytes = mime->data(QStringLiteral("text/plain;charset=utf-8"));
    QCOMPARE(bytes, QByteArray(expected.data(), qsizetype(expected.size())));
    QCOMPARE(std::size_t(bytes.size()), w.currentBundle()->view->piece->sizeUtf8());
    QCOMPARE(QApplication::clipboard()->text(), QString::fromUtf8(bytes));
}

void TestMainWindow::rawViewAndCounts()
{
    MainWindow &w = *m_window;
    QVERIFY(openAndWait(w, test::samplePath(QStringLiteral("agentfootprint-reference-agent-findings.json"))));
    int call = -1;
    for (int i = 0; i < int(w.run()->calls.size()) && call < 0; ++i)
        if (w.run()->calls[std::size_t(i)].pieceSizeUtf8)
            call = i;
    QVERIFY(call >= 0);
    QVERIFY(showAndWait(w, call));
    const findings::FindingsPiece &piece = *w.currentBundle()->view->piece;
    auto *raw = w.findChild<QToolButton *>(QStringLiteral("rawButton"));
    QTest::mouseClick(raw, Qt::LeftButton);
    auto *rawView = w.findChild<AnnotatedTextView *>(QStringLiteral("pieceRawView"));
    QTRY_VERIFY(rawView->isVisible());
    QCOMPARE(rawView->toPlainText(), toQString(std::u16string_view(piece.text)));
    auto *stats = w.findChild<ElidedLabel *>(QStringLiteral("pieceStats"));
    QVERIFY(stats->text().contains(formatCount(piece.sizeUtf8()) + QStringLiteral(" B UTF-8")));
    QVERIFY(stats->text().contains(formatCount(piece.lengthU16()) + QStringLiteral(" UTF-16")));

    // The structured view holds the same text once its header is unfolded, with the model's words formatted apart
    // from the library's.
    QTest::mouseClick(w.findChild<QToolButton *>(QStringLiteral("structuredButton")), Qt::LeftButton);
    auto *pane = w.findChild<FindingsPane *>(QStringLiteral("findingsPane"));
    pane->setHeaderExpanded(true);
    auto *structured = w.findChild<AnnotatedTextView *>(QStringLiteral("pieceStructuredView"));
    QTRY_VERIFY(structured->isVisible());
    QCOMPARE(structured->toPlainText(), toQString(std::u16string_view(piece.text)));
    bool sawModel = false;
    for (const auto &section : piece.sections)
        for (const auto &line : section.lines)
            for (const auto &span : line.spans)
                if (span.origin == findings::SpanOrigin::Model)
                    sawModel = true;
    QVERIFY(sawModel);
    pane->setHeaderExpanded(false);
    QVERIFY(structured->toPlainText().size() < toQString(std::u16string_view(piece.text)).size());
}

void TestMainWindow::noPieceSaysWhy()
{
    MainWindow &w = *m_window;
    QVERIFY(openAndWait(w, m_generated));
    QVERIFY(!w.run()->calls.front().pieceSizeUtf8);
    auto *label = w.findChild<QLabel *>(QStringLiteral("noPieceLabel"));
    QTRY_VERIFY(label->isVisible());
    QVERIFY(label->text().contains(toQString(w.currentBundle()->view->noPieceReason)));
    QVERIFY(!w.findChild<QToolButton *>(QStringLiteral("copyPieceButton"))->isEnabled());
}

void TestMainWindow::structuredLineSelectsLedgerRows()
{
    MainWindow &w = *m_window;
    QVERIFY(openAndWait(w, m_generated));
    QVERIFY(showAndWait(w, int(w.run()->calls.size()) - 1));
    auto *pane = w.findChild<FindingsPane *>(QStringLiteral("findingsPane"));
    PieceModel *model = pane->model();
    // The first line that quotes rows.
    int section = -1, line = -1;
    QList<int> rows;
    for (int s = 0; s < model->rowCount() && section < 0; ++s)
        for (int l = 0; l < model->rowCount(model->index(s, 0)) && section < 0; ++l) {
            rows = model->index(l, 0, model->index(s, 0)).data(PieceModel::RowIndicesRole).value<QList<int>>();
            if (!rows.isEmpty()) {
                section = s;
                line = l;
            }
        }
    QVERIFY(section >= 0);
    auto *structured = w.findChild<AnnotatedTextView *>(QStringLiteral("pieceStructuredView"));
    const int block = pane->blockOf(section, line);
    QVERIFY(block >= 0);
    QTextCursor cursor(structured->document()->findBlockByNumber(block));
    structured->setTextCursor(cursor);
    auto *ledger = w.findChild<QTableView *>(QStringLiteral("ledgerView"));
    QTRY_COMPARE(ledger->selectionModel()->selectedRows().size(), rows.size());
    for (const QModelIndex &i : ledger->selectionModel()->selectedRows())
        QVERIFY(rows.contains(i.data(LedgerModel::RowIndexRole).toInt()));
}

// The structured view reads the piece itself (not the model's roles, at every switch): every overflow note it marks
// explains what PieceModel::OverflowToolTipRole explains, at the line's "+K more", its More line or its clipped span.
void TestMainWindow::structuredViewMarksWhatTheModelSays()
{
    MainWindow &w = *m_window;
    // Long enough for buckets over their 64 lines and lines clipped at 240 units (from about call 110).
    const generate::GeneratorOptions options{.calls = 130,
                                             .seed = 3,
                                             .resultBytes = 200,
                                             .historyInIterationEnd = false,
                                             .historyWindow = 8,
                                             .turnCalls = 0,
                                             .damage = {}};
    const QString overflowing = test::writeGenerated(m_dir, QStringLiteral("generated-130.json"), options);
    QVERIFY(openAndWait(w, overflowing));
    QVERIFY(showAndWait(w, int(w.run()->calls.size()) - 1));
    auto *pane = w.findChild<FindingsPane *>(QStringLiteral("findingsPane"));
    pane->setHeaderExpanded(true);
    auto *structured = w.findChild<AnnotatedTextView *>(QStringLiteral("pieceStructuredView"));
    PieceModel *model = pane->model();
    QCOMPARE(structured->toPlainText(), toQString(std::u16string_view(model->piece()->text)));
    int overflowLines = 0, modelSpans = 0, clippedSpans = 0;
    for (int s = 0; s < model->rowCount(); ++s) {
        const QModelIndex section = model->index(s, 0);
        for (int l = 0; l < model->rowCount(section); ++l) {
            const QModelIndex line = model->index(l, 0, section);
            const int offset = line.data(PieceModel::OffsetRole).toInt();
            const QString tip = line.data(PieceModel::OverflowToolTipRole).toString();
            const auto kind = findings::LineKind(line.data(PieceModel::LineKindRole).toInt());
            for (const SpanRange &span : line.data(PieceModel::SpansRole).value<QList<SpanRange>>()) {
                const auto origin = findings::SpanOrigin(span.origin);
                const QString at = structured->toolTipAt(offset + span.begin);
                if (kind == findings::LineKind::More || origin == findings::SpanOrigin::Overflow) {
                    QCOMPARE(at, tip);
                    clippedSpans += origin == findings::SpanOrigin::Overflow ? 1 : 0;
                } else if (origin == findings::SpanOrigin::Model && kind != findings::LineKind::CountLine) {
                    ++modelSpans;
                    QVERIFY2(at.isEmpty() || at.contains(QStringLiteral("lone surrogate")), qPrintable(at));
                }
            }
            const int hidden = line.data(PieceModel::HiddenLinesRole).toInt();
            if (kind == findings::LineKind::CountLine && hidden > 0) {
                const QString text = line.data(Qt::DisplayRole).toString();
                QCOMPARE(structured->toolTipAt(offset + int(text.lastIndexOf(QStringLiteral("+%1 more").arg(hidden)))),
                         tip);
            }
            if (line.data(PieceModel::OverflowRole).toBool()) {
                QVERIFY(!tip.isEmpty());
                ++overflowLines;
            }
        }
    }
    QVERIFY2(overflowLines > 0, "the 130-call run's last piece should overflow a bucket");
    QVERIFY(clippedSpans > 0);
    QVERIFY(modelSpans > 0);
}

void TestMainWindow::sincePreviousDiffFoldsUnchangedRuns()
{
    // The piece diff shows every changed line, in the text colour on its tint, with a few unchanged lines around it in
    // the library's colour (the text's own: no format on their lines); each longer unchanged run is one italic line
    // that a click opens in place.
    MainWindow &w = *m_window;
    QVERIFY(openAndWait(w, m_generated));
    auto *diff = w.findChild<AnnotatedTextView *>(QStringLiteral("pieceDiffView"));
    QVERIFY(diff);
    const QPalette pal = diff->parentWidget()->palette();
    const QString foldPattern = QStringLiteral("^\u22EF (\\d+) unchanged lines? \\(click to show\\)$");
    int compared = 0, folds = 0;
    for (int i = 1; i < int(w.run()->calls.size()); ++i) {
        QVERIFY(showAndWait(w, i));
        const std::vector<text::DiffLine> &lines = w.currentBundle()->pieceDiff;
        const text::DiffStats stats = text::diffStats(lines);
        if (stats.same == 0 || stats.added + stats.removed == 0)
            continue;
        ++compared;
        // Walk the view: a fold stands for the unchanged lines it hides, a line for itself, in the diff's order.
        std::size_t next = 0;
        int firstFold = -1;
        for (QTextBlock block = diff->document()->begin(); block.isValid(); block = block.next()) {
            const QString shown = block.text();
            const QList<QTextLayout::FormatRange> formats = block.layout()->formats();
            QCOMPARE(block.begin().fragment().charFormat().foreground().color(), theme::libraryText(pal));
            const QRegularExpressionMatch fold = QRegularExpression(foldPattern).match(shown);
            if (fold.hasMatch()) {
                const std::size_t hidden = fold.captured(1).toULongLong();
                QVERIFY(hidden >= 2);
                for (std::size_t k = next; k < next + hidden; ++k)
                    QVERIFY(k < lines.size() && lines[k].op == text::DiffLine::Op::Same);
                QCOMPARE(formats.size(), 1);
                QVERIFY(formats.front().format.fontItalic());
                if (firstFold < 0)
                    firstFold = block.blockNumber();
                ++folds;
                next += hidden;
                continue;
            }
            QVERIFY2(next < lines.size(), qPrintable(shown));
            const text::DiffLine &l = lines[next++];
            QCOMPARE(shown.mid(2), toQString(l.text));
            if (l.op == text::DiffLine::Op::Same) {
                QVERIFY2(shown.startsWith(QLatin1String("  ")), qPrintable(shown));
                QVERIFY2(formats.isEmpty(), qPrintable(shown));
            } else {
                QCOMPARE(shown.at(0), l.op == text::DiffLine::Op::Added ? QChar(u'+') : QChar(0x2212));
                QCOMPARE(formats.size(), 1);
                QCOMPARE(formats.front().start, 0);
                QCOMPARE(formats.front().length, shown.size());
                QCOMPARE(formats.front().format.foreground().color(), pal.color(QPalette::Text));
            }
        }
        QCOMPARE(next, lines.size());
        // The first change is in sight, however few lines the view has.
        for (QTextBlock block = diff->document()->begin(); block.isValid(); block = block.next())
            if (block.text().startsWith(u'+') || block.text().startsWith(QChar(0x2212))) {
                const QRect at = diff->cursorRect(QTextCursor(block));
                QVERIFY2(at.top() >= 0 && at.bottom() <= diff->viewport()->height(), qPrintable(block.text()));
                break;
            }
        if (firstFold < 0)
            continue;
        // Clicking the first fold opens it where it is: its lines take its place, the view does not move. Clicked
        // with the mouse, on the line the text cursor may already be on (a fold at the top, where a new text puts it).
        const int blocksBefore = diff->document()->blockCount();
        const QTextBlock foldBlock = diff->document()->findBlockByNumber(firstFold);
        const int hidden = int(QRegularExpression(foldPattern).match(foldBlock.text()).captured(1).toInt());
        diff->revealBlock(firstFold);
        QApplication::processEvents();
        const int scrolled = diff->verticalScrollBar()->value();
        const QPoint at = diff->cursorRect(QTextCursor(foldBlock)).center() + QPoint(20, 0);
        QTest::mouseClick(diff->viewport(), Qt::LeftButton, {}, at);
        QTRY_COMPARE(diff->document()->blockCount(), blocksBefore + hidden - 1);
        QCOMPARE(diff->verticalScrollBar()->value(), scrolled);
        QVERIFY(diff->document()->findBlockByNumber(firstFold).text().startsWith(QLatin1String("  ")));
        QCOMPARE(diff->textCursor().blockNumber(), firstFold); // the keyboard goes on from the opened lines
        // The same call applied again (as on a palette change) keeps the opened fold open.
        auto *pane = w.findChild<SincePreviousPane *>(QStringLiteral("sincePreviousPane"));
        pane->setBundle(w.currentBundle());
        QCOMPARE(diff->document()->blockCount(), blocksBefore + hidden - 1);
    }
    QVERIFY(compared > 0);
    QVERIFY(folds > 0);
}

void TestMainWindow::ledgerSortsByRowFromTheHeader()
{
    // In row order the proxy is left unsorted; the header says row order all the same, and clicking it sorts.
    MainWindow &w = *m_window;
    QVERIFY(openAndWait(w, m_generated));
    QVERIFY(showAndWait(w, int(w.run()->calls.size()) - 1));
    auto *view = w.findChild<QTableView *>(QStringLiteral("ledgerView"));
    QVERIFY(view);
    QHeaderView *header = view->horizontalHeader();
    const auto rowsInOrder = [&](bool ascending) {
        const int n = view->model()->rowCount();
        for (int r = 0; r < n; ++r)
            if (view->model()->index(r, 0).data(LedgerModel::RowIndexRole).toInt() != (ascending ? r : n - 1 - r))
                return false;
        return n > 1;
    };
    QCOMPARE(header->sortIndicatorSection(), int(LedgerModel::RowColumn));
    QCOMPARE(header->sortIndicatorOrder(), Qt::AscendingOrder);
    QVERIFY(rowsInOrder(true));
    const QPoint rowHeader(header->sectionViewportPosition(LedgerModel::RowColumn) + 5, header->height() / 2);
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, rowHeader);
    QCOMPARE(header->sortIndicatorOrder(), Qt::DescendingOrder);
    QVERIFY(rowsInOrder(false));
    QVERIFY(showAndWait(w, int(w.run()->calls.size()) - 2)); // a new call's rows, in the order the header shows
    QVERIFY(rowsInOrder(false));
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, rowHeader);
    QCOMPARE(header->sortIndicatorOrder(), Qt::AscendingOrder);
    QVERIFY(rowsInOrder(true));
}

void TestMainWindow::findFocusesLedgerFilter()
{
    MainWindow &w = *m_window;
    QVERIFY(openAndWait(w, m_generated));
    w.activateWindow();
    QTest::keySequence(&w, QKeySequence::Find);
    auto *filter = w.findChild<QLineEdit *>(QStringLiteral("ledgerFilter"));
    QTRY_VERIFY(filter->hasFocus());
}

void TestMainWindow::stripChartClickMovesCursor()
{
    MainWindow &w = *m_window;
    QVERIFY(openAndWait(w, m_generated));
    auto *strip = w.findChild<StripChart *>(QStringLiteral("stripChart"));
    QVERIFY(strip && strip->isVisible());
    for (int target : {5, 2, int(w.run()->calls.size()) - 1}) {
        QTest::mouseClick(strip, Qt::LeftButton, {}, QPoint(int(strip->slotCentre(target)), strip->height() / 2));
        QTRY_COMPARE(w.currentCall(), target);
        QTRY_VERIFY(w.currentBundle() && int(w.currentBundle()->ordinal) == target);
        QCOMPARE(strip->currentCall(), target);
    }
    // And the other way: the calls list moves the strip chart's cursor.
    QVERIFY(showAndWait(w, 1));
    QCOMPARE(strip->currentCall(), 1);
}

void TestMainWindow::recentFilesAndDrop()
{
    MainWindow &w = *m_window;
    QVERIFY(openAndWait(w, m_generated));
    QCOMPARE(w.recentFiles().value(0), QFileInfo(m_generated).absoluteFilePath());

    // Drop a file on the window.
    const QString other = test::samplePath(QStringLiteral("lens-tool-progress-turn.json"));
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(other)});
    QSignalSpy loaded(&w, &MainWindow::runLoaded);
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &drop);
    QVERIFY(loaded.wait(60000));
    QCOMPARE(w.run()->path, QFileInfo(other).absoluteFilePath());
    QCOMPARE(w.recentFiles().value(0), QFileInfo(other).absoluteFilePath());
    QCOMPARE(w.recentFiles().value(1), QFileInfo(m_generated).absoluteFilePath());

    // A new window lists them in File > Open Recent.
    MainWindow second;
    auto *menu = second.findChild<QMenu *>(QStringLiteral("recentMenu"));
    QVERIFY(menu);
    QVERIFY(menu->actions().size() >= 2);
    QVERIFY(menu->actions().front()->text().contains(QFileInfo(other).fileName()));
}

void TestMainWindow::standardShortcuts()
{
    MainWindow &w = *m_window;
    const auto shortcut = [&](const char *name) {
        auto *a = w.findChild<QAction *>(QString::fromLatin1(name));
        return a ? a->shortcut() : QKeySequence();
    };
    QCOMPARE(shortcut("openAction"), QKeySequence(QKeySequence::Open));
    QCOMPARE(shortcut("findAction"), QKeySequence(QKeySequence::Find));
    QCOMPARE(shortcut("quitAction"), QKeySequence(QKeySequence::Quit));
    QCOMPARE(shortcut("nextCallAction"), QKeySequence(Qt::Key_J));
    QCOMPARE(shortcut("previousCallAction"), QKeySequence(Qt::Key_K));
    QCOMPARE(shortcut("nextMissAction"), QKeySequence(Qt::Key_M));
    QCOMPARE(shortcut("nextLedgerChangeAction"), QKeySequence(Qt::Key_L));
    QCOMPARE(shortcut("nextDamagedAction"), QKeySequence(Qt::Key_D));
    // Every pane is a dock whose state is saved.
    for (const char *name : {"callsDock", "stripDock", "findingsDock", "ledgerDock", "wireDock", "sincePreviousDock",
                             "receiptDock", "problemsDock"}) {
        auto *dock = w.findChild<QDockWidget *>(QString::fromLatin1(name));
        QVERIFY2(dock, name);
    }
}

void TestMainWindow::screenshotMode()
{
    const QString out = m_dir.filePath(QStringLiteral("shot.png"));
    QCOMPARE(renderScreenshot({out, 3, m_generated}), 0);
    const QImage image(out);
    QCOMPARE(image.size(), QSize(1400, 900));
    QCOMPARE(renderScreenshot({m_dir.filePath(QStringLiteral("bad.png")), 1, test::writeTruncated(m_dir)}), 2);
    QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("bad.png"))));
    QCOMPARE(renderScreenshot({m_dir.filePath(QStringLiteral("nocall.png")), 99, m_generated}), 2);
}

void TestMainWindow::holdingJEndsOnTheRightCall()
{
    // Requests faster than builds: queued ones are superseded, and the last one wins.
    MainWindow &w = *m_window;
    const QString run = test::writeGenerated(m_dir, QStringLiteral("sixty.json"), 60, 5);
    QVERIFY(openAndWait(w, run));
    auto *calls = w.findChild<QTableView *>(QStringLiteral("callsView"));
    calls->setFocus();
    for (int i = 0; i < 59; ++i)
        QTest::keyClick(calls, Qt::Key_J);
    QCOMPARE(w.currentCall(), 59);
    QTRY_VERIFY(w.currentBundle() && w.currentBundle()->ordinal == 59);
    checkPanes(w, 59);
}

void TestMainWindow::layoutIsKept()
{
    m_window->findChild<QDockWidget *>(QStringLiteral("receiptDock"))->close();
    m_window->close(); // saves geometry and dock state
    m_window = std::make_unique<MainWindow>();
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    auto *receipt = m_window->findChild<QDockWidget *>(QStringLiteral("receiptDock"));
    QVERIFY(receipt->isHidden());
    m_window->findChild<QAction *>(QStringLiteral("resetLayoutAction"))->trigger();
    QVERIFY(!receipt->isHidden());
}

void TestMainWindow::loneSurrogatesAreShownAndMarked()
{
    // A proposition and an assistant message carrying a lone high surrogate, as JSON.stringify writes one.
    generate::GeneratorOptions options;
    options.calls = 8;
    options.seed = 1;
    QByteArray text = QByteArray::fromStdString(generate::generateRecording(options));
    text.replace("fc1/5 is the flapping port", "fc1/5 is the \\ud83d flapping port");
    text.replace("Looking at 1 more source.", "Looking at \\ud83d more source.");
    const QString path = test::writeFile(m_dir, QStringLiteral("lone.json"), text);
    MainWindow &w = *m_window;
    QVERIFY(openAndWait(w, path));
    int call = -1;
    for (int i = 0; i < int(w.run()->calls.size()) && call < 0; ++i) {
        QVERIFY(showAndWait(w, i));
        if (w.currentBundle()->view->piece && w.currentBundle()->view->piece->hasLoneSurrogate())
            call = i;
    }
    QVERIFY2(call >= 0, "the proposition should reach a piece");
    auto *pane = w.findChild<FindingsPane *>(QStringLiteral("findingsPane"));
    pane->setHeaderExpanded(true);
    auto *structured = w.findChild<AnnotatedTextView *>(QStringLiteral("pieceStructuredView"));
    const std::u16string &piece = w.currentBundle()->view->piece->text;
    const QString shown = structured->toPlainText();
    QCOMPARE(shown.size(), qsizetype(piece.size())); // one unit for one unit: nothing dropped
    const QList<LoneSurrogate> lone = loneSurrogates(std::u16string_view(piece));
    QVERIFY(!lone.isEmpty());
    for (const LoneSurrogate &s : lone) {
        QCOMPARE(shown.at(s.position), QChar(QChar::ReplacementCharacter));
        QVERIFY(structured->toolTipAt(int(s.position)).contains(QStringLiteral("U+D83D")));
    }
    QVERIFY(w.findChild<ElidedLabel *>(QStringLiteral("pieceStats"))->text().contains(QStringLiteral("lone")));
    // Copy gives the bytes as sent: the lone surrogate as EF BF BD.
    QVERIFY(pane->exactBytes().contains("\xEF\xBF\xBD"));

    // The wire: the message content keeps its length and marks the position.
    auto *wire = w.findChild<WirePane *>(QStringLiteral("wirePane"));
    const QModelIndex messages = wire->model()->index(WireModel::MessagesGroup, 0);
    bool marked = false;
    for (int m = 0; m < wire->model()->rowCount(messages); ++m) {
        const QModelIndex row = wire->model()->index(m, 0, messages);
        const auto points = row.data(WireModel::LoneSurrogatesRole).value<QList<QPoint>>();
        if (points.isEmpty())
            continue;
        wire->selectMessage(m);
        QCOMPARE(wire->detail()->toPlainText().at(points.front().x()), QChar(QChar::ReplacementCharacter));
        QVERIFY(wire->detail()->toolTipAt(points.front().x()).contains(QStringLiteral("U+D83D")));
        marked = true;
        break;
    }
    QVERIFY(marked);
}

void TestMainWindow::fontsSkipNeedlessShapingOnly()
{
    // Every widget of the window skips needless shaping (the piece view, labels), and nothing else about its font
    // changes: family and size stay the application's, a fixed-pitch view stays fixed-pitch.
    const QFont app = QApplication::font();
    for (const char *name : {"pieceStructuredView", "sincePreviousPane", "callsView"}) {
        auto *w = m_window->findChild<QWidget *>(QLatin1String(name));
        QVERIFY2(w, name);
        QVERIFY2(w->font().styleStrategy() & QFont::PreferNoShaping, name);
        QCOMPARE(w->font().family(), app.family());
        QCOMPARE(w->font().pointSizeF(), app.pointSizeF());
    }
    auto *raw = m_window->findChild<QWidget *>(QStringLiteral("pieceRawView"));
    QVERIFY(raw);
    QVERIFY(raw->font().styleStrategy() & QFont::PreferNoShaping);
    QCOMPARE(QFontInfo(raw->font()).fixedPitch(),
             QFontInfo(QFontDatabase::systemFont(QFontDatabase::FixedFont)).fixedPitch());
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
