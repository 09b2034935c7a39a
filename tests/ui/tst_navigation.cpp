// Finding and moving (issue 21): a run search match shown where it is, with the text marked and scrolled to, F3 and
// Shift+F3 through every match in call order, responses and the answer searched too; a click on a tool call id goes
// to the call where its result entered with that message selected, and Back returns; the Answer Backtrack dock and
// its entries. Offscreen, on real recordings and an armed generated run, by object name; the expectations come from
// the core (report::searchRun, recording::locateToolResult, report::backtrackAnswer). With TRACEFOLD_SCREENSHOT_DIR
// set, the README's pictures are saved there.

#include "uitesthelpers.h"
#include "windowfixture.h"

#include "ui/models/backtrackmodel.h"
#include "ui/models/navigationhistory.h"
#include "ui/models/toolcalllink.h"
#include "ui/models/toolrunmodel.h"
#include "ui/models/wiremodel.h"
#include "ui/panes/backtrackpane.h"
#include "ui/panes/mainwindow.h"
#include "ui/panes/responsepane.h"
#include "ui/panes/searchpanel.h"
#include "ui/panes/wirepane.h"
#include "ui/services/navigator.h"
#include "ui/widgets/annotatedtextview.h"

#include "core/findings/ledgerfold.h"
#include "core/recording/callview.h"
#include "core/recording/recordingloader.h"
#include "core/recording/resultentry.h"
#include "core/report/backtrack.h"
#include "core/report/runsearch.h"

#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTreeView>

#include <map>
#include <memory>

using namespace tf;
using namespace tf::ui;

namespace {

QString realSample(const char *name)
{
    return QStringLiteral(TRACEFOLD_TEST_DATA "/samples/real-9.62/") + QLatin1String(name);
}

void saveShot(QWidget *widget, const char *name)
{
    const QString dir = qEnvironmentVariable("TRACEFOLD_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        widget->grab().save(dir + QLatin1Char('/') + QLatin1String(name));
}

// The marks a find left in a text view: every match, and the current one (drawn underlined).
struct Marks
{
    int all = 0;
    QString current;
    QRect currentRect; // in viewport coordinates
};

Marks marksIn(QPlainTextEdit *edit)
{
    Marks m;
    for (const QTextEdit::ExtraSelection &s : edit->extraSelections()) {
        ++m.all;
        if (s.format.fontUnderline()) {
            m.current = s.cursor.selectedText();
            QTextCursor at = s.cursor;
            at.setPosition(s.cursor.selectionStart());
            m.currentRect = edit->cursorRect(at);
        }
    }
    return m;
}

bool onScreen(QPlainTextEdit *edit, const QRect &rect)
{
    return edit->viewport()->rect().intersects(rect);
}

} // namespace

class TestNavigation : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void jumpToTheNextCallIsAnEntry();
    void findShowsEveryMatchWhereItIs();
    void findMarksTheTextOfAnyItemShown();
    void toolCallIdGoesToItsResult();
    void matchInAPaneBehindATab();
    void wireIdGoesBackToWhereItEntered();
    void backtrackOfAnUnarmedRun();
    void backtrackEntriesGoThere();

private:
    bool open(const QString &path) { return test::openAndShowFirstCall(*m_window, path); }
    QAction *action(const char *name) const { return m_window->findChild<QAction *>(QLatin1String(name)); }
    template <typename T>
    T *child(const char *name) const
    {
        return m_window->findChild<T *>(QLatin1String(name));
    }
    // Waits until call `ordinal` is selected and its bundle is on screen.
    bool shownAt(int ordinal)
    {
        return QTest::qWaitFor(
            [&] {
                return m_window->currentCall() == ordinal && m_window->currentBundle() &&
                       int(m_window->currentBundle()->ordinal) == ordinal;
            },
            10000);
    }
    SearchPanel *searchFor(const QString &text);

    std::unique_ptr<MainWindow> m_window;
};

void TestNavigation::initTestCase()
{
    test::setUpGuiTestApplication();
}

void TestNavigation::init()
{
    m_window = test::shownTestWindow(false);
    QVERIFY(m_window);
}

void TestNavigation::cleanup()
{
    m_window.reset();
}

SearchPanel *TestNavigation::searchFor(const QString &text)
{
    action("findInRunAction")->trigger();
    auto *panel = child<SearchPanel>("searchPanel");
    if (!panel)
        return nullptr;
    QSignalSpy finished(panel, &SearchPanel::searchFinished);
    panel->search(text);
    if (!finished.wait(20000) || !panel->model()->result())
        return nullptr;
    return panel;
}

void TestNavigation::jumpToTheNextCallIsAnEntry()
{
    // Stepping to the adjacent call moves the current entry; a jump there (a link, a match) is an entry of its own.
    NavigationHistory history;
    history.visit(3);
    history.visit(4);
    QCOMPARE(history.entries(), QList<int>{4});
    history.markJump();
    history.visit(5);
    QCOMPARE(history.entries(), (QList<int>{4, 5}));
    history.visit(6); // a step again
    QCOMPARE(history.entries(), (QList<int>{4, 6}));
    QCOMPARE(history.back(), 4);
}

void TestNavigation::findShowsEveryMatchWhereItIs()
{
    // dev-1: "Okafor" is a tool result served from call 3 on (messages[4]), then in the last call's response text
    // and the run's answer.
    QVERIFY(open(realSample("dev-1-research.json")));
    SearchPanel *panel = searchFor(QStringLiteral("Okafor"));
    QVERIFY(panel);
    report::SearchOptions options;
    options.includeResponses = true; // the panel's default: "Responses and answers" is on
    QVERIFY(child<QCheckBox>("searchResponses")->isChecked());
    const report::SearchResult expected = report::searchRun(*m_window->run()->run, "Okafor", options);
    const std::size_t total = expected.totalMatches();
    QCOMPARE(panel->model()->result()->totalMatches(), total);
    QVERIFY(total >= 6);

    auto *wire = child<WirePane>("wirePane");
    auto *response = child<ResponsePane>("responsePane");
    auto *backtrack = child<BacktrackPane>("backtrackPane");
    QVERIFY(wire && response && backtrack);
    std::optional<report::MatchPosition> at;
    for (std::size_t i = 0; i < total; ++i) {
        at = report::stepMatch(expected, at, false);
        const report::CallHits &call = expected.calls[at->call];
        const report::SearchHit &hit = call.hits[at->hit];
        action("findNextAction")->trigger(); // F3
        QVERIFY(shownAt(int(call.ordinal)));
        QCOMPARE(panel->position(), at);
        QVERIFY2(panel->positionText().startsWith(QStringLiteral("Match %1 of %2").arg(i + 1).arg(total)),
                 qPrintable(panel->positionText()));
        QVERIFY(panel->positionText().contains(QString::fromStdString(hit.location)));
        QPlainTextEdit *where = nullptr;
        switch (hit.part) {
        case report::SearchPart::Message: {
            // The Wire selects the message (not messages[0]) and its content shows the match, marked and in view.
            QTRY_COMPARE(wire->view()->currentIndex(), wire->model()->messageIndex(int(hit.index)));
            QVERIFY(child<QDockWidget>("wireDock")->isVisible());
            where = wire->detail();
            break;
        }
        case report::SearchPart::ResponseText:
            QTRY_VERIFY(child<QDockWidget>("responseDock")->isVisible());
            where = response->textView();
            break;
        case report::SearchPart::Answer:
            QTRY_VERIFY(child<QDockWidget>("backtrackDock")->isVisible());
            where = backtrack->answerView();
            break;
        default:
            QFAIL(hit.location.c_str());
        }
        const Marks marks = marksIn(where);
        QCOMPARE(marks.current, QStringLiteral("Okafor"));
        QVERIFY(marks.all >= 1);
        QVERIFY(onScreen(where, marks.currentRect));
        if (hit.part == report::SearchPart::Message && i == 0)
            saveShot(m_window.get(), "find-in-run.png");
        if (i == 1) {
            // Two matches in adjacent calls are two jumps: Back returns to the first, Forward to this one.
            action("backAction")->trigger();
            QVERIFY(shownAt(int(expected.calls[report::stepMatch(expected, at, true)->call].ordinal)));
            action("forwardAction")->trigger();
            QVERIFY(shownAt(int(call.ordinal)));
        }
    }
    // Past the last match F3 wraps to the first; Shift+F3 from there to the last.
    action("findNextAction")->trigger();
    QVERIFY(shownAt(int(expected.calls.front().ordinal)));
    QCOMPARE(panel->position(), report::stepMatch(expected, std::nullopt, false));
    action("findPreviousAction")->trigger();
    QVERIFY(shownAt(int(expected.calls.back().ordinal)));
    QCOMPARE(panel->position(), report::stepMatch(expected, std::nullopt, true));
    QCOMPARE(action("findNextAction")->shortcut(), QKeySequence(Qt::Key_F3));
    QCOMPARE(action("findPreviousAction")->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F3));

    // The served context only: no response or answer location, and fewer matches.
    child<QCheckBox>("searchResponses")->setChecked(false);
    QTRY_VERIFY(panel->model()->result() && !panel->model()->result()->includeResponses);
    QCOMPARE(panel->model()->result()->totalMatches(),
             report::searchRun(*m_window->run()->run, "Okafor").totalMatches());
    QVERIFY(panel->model()->result()->totalMatches() < total);
}

void TestNavigation::findMarksTheTextOfAnyItemShown()
{
    // While a search is open its text is marked in whatever the Wire shows, not only where Next went; clearing the
    // search clears the marks.
    QVERIFY(open(realSample("dev-1-research.json")));
    SearchPanel *panel = searchFor(QStringLiteral("bleach"));
    QVERIFY(panel);
    QVERIFY(test::showCallAndWait(*m_window, 5));
    auto *wire = child<WirePane>("wirePane");
    const QString content = wire->model()->messageIndex(4).data(WireModel::ContentRole).toString();
    QVERIFY(content.contains(QStringLiteral("bleach")));
    wire->selectMessage(4);
    QTRY_VERIFY(wire->shownMatches() > 0);
    QCOMPARE(marksIn(wire->detail()).all, int(content.count(QStringLiteral("bleach"))));
    panel->search(QString());
    QTRY_COMPARE(marksIn(wire->detail()).all, 0);
}

void TestNavigation::toolCallIdGoesToItsResult()
{
    // dev-3: call 1 asks for tools; a click on a tool run's id goes to the call whose messages first carry its result,
    // with that message selected and shown. Back returns to call 1.
    QVERIFY(open(realSample("dev-3-tool-errors.json")));
    auto *responseDock = child<QDockWidget>("responseDock");
    responseDock->show();
    responseDock->raise();
    auto *response = child<ResponsePane>("responsePane");
    QTableView *tools = response->toolView();
    QTRY_VERIFY(tools->isVisible() && tools->model()->rowCount() > 0);
    const QModelIndex idCell = tools->model()->index(0, ToolRunModel::IdColumn);
    const QString id = idCell.data().toString();
    QCOMPARE(idCell.data(ToolCallIdsRole).toStringList(), QStringList{id});
    QVERIFY(idCell.data(Qt::FontRole).value<QFont>().underline()); // drawn as a link
    const recording::ToolResultPlace place = recording::locateToolResult(*m_window->run()->run, id.toStdString());
    QVERIFY(place.entered && place.entered->messageIndex);
    QCOMPARE(place.ranAt, std::optional<std::size_t>(0));
    QCOMPARE(place.entered->ordinal, std::size_t(1)); // the next call: adjacent, and still a jump

    auto *wire = child<WirePane>("wirePane");
    QVERIFY(wire->revealItem(WireModel::ToolsGroup, 0)); // what the Wire shows at call 1 comes back with Back
    const QPair<int, int> before = wire->shownItem();
    QCOMPARE(before, qMakePair(int(WireModel::ToolsGroup), 0));
    QSignalSpy shown(m_window->findChild<Navigator *>(QStringLiteral("navigator")), &Navigator::toolCallShown);
    QTest::mouseClick(tools->viewport(), Qt::LeftButton, {}, tools->visualRect(idCell).center());
    QVERIFY(shown.wait(10000));
    QVERIFY(shownAt(int(place.entered->ordinal)));
    const QModelIndex message = wire->model()->messageIndex(int(*place.entered->messageIndex));
    QTRY_COMPARE(wire->view()->currentIndex(), message);
    QCOMPARE(message.siblingAtColumn(WireModel::IdColumn).data(ToolCallIdsRole).toStringList(), QStringList{id});
    QVERIFY(child<QDockWidget>("wireDock")->isVisible());
    QVERIFY(m_window->statusBar()->currentMessage().contains(
        QStringLiteral("entered at call %1").arg(place.entered->ordinal + 1)));
    QVERIFY(m_window->statusBar()->currentMessage().contains(id));

    QVERIFY(wire->shownItem() != before);
    action("backAction")->trigger();
    QVERIFY(shownAt(0));
    QTRY_COMPARE(wire->shownItem(), before);
    // Again: the place is known now, and the window goes there at once.
    QTRY_VERIFY(tools->model()->rowCount() > 0);
    const QModelIndex again = tools->model()->index(0, ToolRunModel::IdColumn);
    QCOMPARE(again.data().toString(), id);
    QTest::mouseClick(tools->viewport(), Qt::LeftButton, {}, tools->visualRect(again).center());
    QVERIFY(shown.count() == 2 || shown.wait(10000));
    QVERIFY(shownAt(int(place.entered->ordinal)));
    QTRY_COMPARE(wire->view()->currentIndex(), message);
}

void TestNavigation::matchInAPaneBehindATab()
{
    // The Response is a tab behind Findings and is given a call only when it is in front: a match in a tool call's
    // arguments at another call brings the tab forward first, then selects the tool run there.
    QVERIFY(open(realSample("dev-3-tool-errors.json")));
    const int last = int(m_window->run()->calls.size()) - 1;
    child<QDockWidget>("responseDock")->raise();
    m_window->showCall(last);
    QVERIFY(shownAt(last));
    auto *response = child<ResponsePane>("responsePane");
    QVERIFY(response && response->bundle() && int(response->bundle()->ordinal) == last);
    child<QDockWidget>("findingsDock")->raise();
    m_window->showCall(0);
    QVERIFY(shownAt(0));
    QVERIFY(!response->bundle()); // out of sight: not given call 1, and the call it showed let go

    auto *navigator = m_window->findChild<Navigator *>(QStringLiteral("navigator"));
    QVERIFY(navigator);
    const std::vector<recording::ToolRun> &runs = m_window->currentBundle()->view->toolRuns;
    QVERIFY(runs.size() >= 2);
    SearchMatch match;
    match.ordinal = 0;
    match.part = report::SearchPart::ToolCallArguments;
    match.name = QString::fromStdString(runs[1].id);
    match.location = QStringLiteral("tool call arguments");
    navigator->revealMatch(match);
    QTRY_VERIFY(child<QDockWidget>("responseDock")->isVisible());
    QVERIFY(response->bundle() && response->bundle()->ordinal == 0);
    QCOMPARE(response->toolView()->currentIndex().row(), 1);

    // Closed while behind the Findings tab, the dock comes back behind it (Qt puts its tab back in a later layout
    // pass): the pane is brought to the call all the same before the match is revealed in it.
    child<QDockWidget>("findingsDock")->raise();
    child<QDockWidget>("responseDock")->close();
    m_window->showCall(last);
    QVERIFY(shownAt(last));
    m_window->showCall(0);
    QVERIFY(shownAt(0));
    QVERIFY(!response->bundle());
    navigator->revealMatch(match);
    QVERIFY(response->bundle() && response->bundle()->ordinal == 0);
    QCOMPARE(response->toolView()->currentIndex().row(), 1);
}

void TestNavigation::wireIdGoesBackToWhereItEntered()
{
    // At the last call the Wire lists every result served so far; a click on an early result's id goes back to the
    // call it entered at (an earlier call), and Back returns to the last call.
    QVERIFY(open(realSample("dev-3-tool-errors.json")));
    const recording::Run &run = *m_window->run()->run;
    const int last = int(run.calls.size()) - 1;
    QVERIFY(test::showCallAndWait(*m_window, last));
    auto *wireDock = child<QDockWidget>("wireDock");
    wireDock->show();
    wireDock->raise();
    auto *wire = child<WirePane>("wirePane");
    QModelIndex idCell;
    for (int m = 0; m < wire->model()->rowCount(wire->model()->index(WireModel::MessagesGroup, 0)) && !idCell.isValid();
         ++m)
        if (wire->model()->messageIndex(m, WireModel::RoleColumn).data().toString() == QLatin1String("tool"))
            idCell = wire->model()->messageIndex(m, WireModel::IdColumn);
    QVERIFY(idCell.isValid());
    const QString id = idCell.data(ToolCallIdsRole).toStringList().value(0);
    QVERIFY(!id.isEmpty());
    const recording::ToolResultPlace place = recording::locateToolResult(run, id.toStdString());
    QVERIFY(place.entered && int(place.entered->ordinal) < last);

    wire->view()->scrollTo(idCell);
    QSignalSpy shown(m_window->findChild<Navigator *>(QStringLiteral("navigator")), &Navigator::toolCallShown);
    QTest::mouseClick(wire->view()->viewport(), Qt::LeftButton, {}, wire->view()->visualRect(idCell).center());
    QVERIFY(shown.wait(10000));
    QVERIFY(shownAt(int(place.entered->ordinal)));
    QTRY_COMPARE(wire->view()->currentIndex(), wire->model()->messageIndex(int(*place.entered->messageIndex)));
    action("backAction")->trigger();
    QVERIFY(shownAt(last));
    QTRY_COMPARE(wire->shownItem(), qMakePair(int(WireModel::MessagesGroup), idCell.row())); // the row clicked

    // The keyboard's way: the Wire's current row, Go > Follow Tool Call Id (Ctrl+Shift+G).
    wire->view()->setFocus();
    wire->view()->setCurrentIndex(wire->model()->messageIndex(idCell.row()));
    QTRY_VERIFY(wire->view()->hasFocus());
    action("followToolCallAction")->trigger();
    QVERIFY(shown.count() == 2 || shown.wait(10000));
    QVERIFY(shownAt(int(place.entered->ordinal)));
    QCOMPARE(action("followToolCallAction")->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G));
}

void TestNavigation::backtrackOfAnUnarmedRun()
{
    // dev-1 is not armed: the pane says so in the core's words, shows the answer, and its first entry is the
    // answering call.
    QVERIFY(open(realSample("dev-1-research.json")));
    action("answerBacktrackAction")->trigger();
    QVERIFY(child<QDockWidget>("backtrackDock")->isVisible());
    auto *pane = child<BacktrackPane>("backtrackPane");
    const report::Backtrack expected = report::backtrackAnswer(*m_window->run()->run);
    QCOMPARE(pane->statementsText(), QString::fromStdString(expected.statements.front()));
    QCOMPARE(pane->answerView()->toPlainText(), QString::fromStdString(*m_window->run()->run->finalAnswer));
    const QModelIndex answer = pane->model()->index(0, 0);
    QCOMPARE(BacktrackModel::Target(answer.data(BacktrackModel::TargetRole).toInt()), BacktrackModel::Target::Call);
    QCOMPARE(answer.data(BacktrackModel::OrdinalRole).toInt(), int(*expected.finalOrdinal));
    emit pane->view()->activated(answer);
    QVERIFY(shownAt(int(*expected.finalOrdinal)));
    QVERIFY(child<QDockWidget>("responseDock")->isVisible());
}

void TestNavigation::backtrackEntriesGoThere()
{
    // An armed generated run whose answer quotes a fact value: the value is marked in the answer, and its entries go
    // to the fact's ledger row at the answering call and to the call where the judged result entered.
    QTemporaryDir dir;
    const QString generated = test::writeGenerated(dir, QStringLiteral("g.json"), 20, 3);
    QFile in(generated);
    QVERIFY(in.open(QIODevice::ReadOnly));
    QByteArray text = in.readAll();
    in.close();
    const auto plain = recording::loadRecordingFromBytes(std::string(text.constData(), std::size_t(text.size())), "g");
    QVERIFY(plain.run && plain.run->finalAnswer);
    std::string value;
    const json::Value ledger = *plain.run->finalLedger();
    const findings::LedgerFold fold = findings::foldLedger(ledger);
    // The value the fewest assertions declare, so that few chains stand behind it.
    std::map<std::string, int> declared;
    for (const findings::AssertionRef &a : fold.asserted)
        if (const json::Value *v = a.assertion->find("value"); v && v->isString() && v->asString().size() > 2)
            ++declared[std::string(v->asString())];
    int fewest = 0;
    for (const auto &[text, count] : declared)
        if (value.empty() || count < fewest) {
            value = text;
            fewest = count;
        }
    QVERIFY(!value.empty());
    const QByteArray oldAnswer = "\"finalContent\":\"" + QByteArray::fromStdString(*plain.run->finalAnswer) + '"';
    const QByteArray newAnswer =
        "\"finalContent\":\"The port reads " + QByteArray::fromStdString(value) + " now, so the optic goes.\"";
    QVERIFY(text.contains(oldAnswer));
    text.replace(oldAnswer, newAnswer);
    const QString edited = dir.filePath(QStringLiteral("answered.json"));
    QFile out(edited);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(text);
    out.close();

    QVERIFY(open(edited));
    action("answerBacktrackAction")->trigger();
    auto *pane = child<BacktrackPane>("backtrackPane");
    const report::Backtrack expected = report::backtrackAnswer(*m_window->run()->run);
    QCOMPARE(expected.values.size(), std::size_t(1));
    const report::ValueSource &source = expected.values.front().sources.front();
    QVERIFY(source.enteredOrdinal && source.enteredMessage);
    QStringList statements;
    for (const std::string &line : expected.statements)
        statements << QString::fromStdString(line);
    QCOMPARE(pane->statementsText(), statements.join(QLatin1Char('\n')));
    // The value is marked where the backtrack found it, with a tooltip naming its source.
    const QString answerText = pane->answerView()->toPlainText();
    const int at = int(answerText.indexOf(QString::fromStdString(value)));
    QVERIFY(at > 0);
    QVERIFY(pane->answerView()->toolTipAt(at).contains(QString::fromStdString(source.toolCallId)));

    // Row 1 is the value; its child the fact line (ledger row), whose child is the result (where it entered).
    const QModelIndex valueRow = pane->model()->index(1, 0);
    QCOMPARE(valueRow.data(BacktrackModel::ValueRole).toString(), QString::fromStdString(value));
    const QModelIndex fact = pane->model()->index(0, 0, valueRow);
    QCOMPARE(BacktrackModel::Target(fact.data(BacktrackModel::TargetRole).toInt()), BacktrackModel::Target::LedgerRow);
    QCOMPARE(fact.data(BacktrackModel::RowRole).toInt(), int(source.standingRowIndex));
    const QModelIndex result = pane->model()->index(0, 0, fact);
    QCOMPARE(BacktrackModel::Target(result.data(BacktrackModel::TargetRole).toInt()), BacktrackModel::Target::Message);
    QCOMPARE(result.data(BacktrackModel::OrdinalRole).toInt(), int(*source.enteredOrdinal));
    QCOMPARE(result.data(BacktrackModel::RowRole).toInt(), int(*source.enteredMessage));
    if (!qEnvironmentVariableIsEmpty("TRACEFOLD_SCREENSHOT_DIR")) { // the README's picture, floated at a readable size
        auto *dock = child<QDockWidget>("backtrackDock");
        dock->setFloating(true);
        dock->resize(760, 520);
        pane->view()->expandAll();
        QTest::qWait(50);
        saveShot(dock, "answer-backtrack.png");
        dock->setFloating(false);
    }

    const int before = m_window->currentCall();
    emit pane->view()->activated(result);
    QVERIFY(shownAt(int(*source.enteredOrdinal)));
    auto *wire = child<WirePane>("wirePane");
    QTRY_COMPARE(wire->view()->currentIndex(), wire->model()->messageIndex(int(*source.enteredMessage)));
    QCOMPARE(wire->model()
                 ->messageIndex(int(*source.enteredMessage), WireModel::IdColumn)
                 .data(ToolCallIdsRole)
                 .toStringList(),
             QStringList{QString::fromStdString(source.toolCallId)});
    action("backAction")->trigger();
    QVERIFY(shownAt(before));

    emit pane->view()->activated(fact);
    QVERIFY(shownAt(int(*expected.finalOrdinal)));
    auto *ledgerView = child<QTableView>("ledgerView");
    QVERIFY(child<QDockWidget>("ledgerDock")->isVisible());
    QTRY_VERIFY(ledgerView->selectionModel()->hasSelection());
}

QTEST_MAIN(TestNavigation)
#include "tst_navigation.moc"
