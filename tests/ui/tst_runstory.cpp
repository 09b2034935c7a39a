// How runs really went, in the window (spec/runs.md), on the real 9.62 recordings: every turn in the Calls list,
// each call's response and tool runs in the Response pane, tool errors in the Wire, the outcome in the summary bar,
// and the turn and error jumps. Offscreen; every widget found by object name.

#include "ui/models/calllistmodel.h"
#include "ui/models/toolrunmodel.h"
#include "ui/models/wiremodel.h"
#include "ui/panes/mainwindow.h"
#include "ui/panes/responsepane.h"
#include "ui/panes/summarybar.h"
#include "ui/services/appsetup.h"
#include "ui/widgets/elidedlabel.h"
#include "ui/widgets/theme.h"
#include "windowfixture.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>
#include <QTreeView>

using namespace tf;
using namespace tf::ui;

namespace {

QStringList strings(std::initializer_list<const char *> items)
{
    QStringList out;
    for (const char *s : items)
        out << QString::fromUtf8(s);
    return out;
}

QString sample(const char *name)
{
    return QStringLiteral(TRACEFOLD_TEST_DATA "/samples/real-9.62/") + QLatin1String(name);
}

} // namespace

class TestRunStory : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void conversationShowsEveryTurn();
    void crashedCallSaysNoResponse();
    void toolErrorsAreMarked();
    void pausedRunSaysSo();
    void limitsAtTheCall();

private:
    bool open(const char *name);
    bool show(int ordinal);
    ResponsePane *response() const { return m_window->findChild<ResponsePane *>(QStringLiteral("responsePane")); }
    QString summary(const char *field) const
    {
        auto *label = m_window->findChild<ElidedLabel *>(QLatin1String(field));
        return label ? label->text() : QStringLiteral("<missing>");
    }

    std::unique_ptr<MainWindow> m_window;
};

void TestRunStory::initTestCase()
{
    test::setUpGuiTestApplication();
}

void TestRunStory::init()
{
    m_window = test::shownTestWindow();
    QVERIFY(m_window);
}

void TestRunStory::cleanup()
{
    m_window.reset();
}

bool TestRunStory::open(const char *name)
{
    return test::openAndShowFirstCall(*m_window, sample(name));
}

bool TestRunStory::show(int ordinal)
{
    return test::showCallAndWait(*m_window, ordinal);
}

void TestRunStory::conversationShowsEveryTurn()
{
    QVERIFY(open("dev-2-conversation.json"));
    auto *calls = m_window->findChild<QTableView *>(QStringLiteral("callsView"));
    QVERIFY(calls);
    QCOMPARE(calls->model()->rowCount(), 7);
    QVERIFY(!calls->isColumnHidden(CallListModel::TurnColumn)); // four turns: the column says which
    QStringList turns, numbers;
    for (int r = 0; r < 7; ++r) {
        turns << calls->model()->index(r, CallListModel::TurnColumn).data().toString();
        numbers << calls->model()->index(r, CallListModel::CallColumn).data().toString();
    }
    QCOMPARE(turns, strings({"1", "1", "2", "2", "3", "4", "4"}));
    QCOMPARE(numbers, strings({"1", "2", "3", "4", "5", "6", "7"}));
    QVERIFY(calls->model()
                ->index(2, CallListModel::TurnColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("How does that compare with February")));
    QCOMPARE(summary("summaryCalls"), QStringLiteral("7 in 4 turns"));
    QCOMPARE(summary("summaryOutcome"), QStringLiteral("Completed"));
    QCOMPARE(summary("summaryTokens"), QStringLiteral("in 870 · out 89")); // every turn's usage, not the last's

    // T walks the turns; Shift+T walks back.
    auto *nextTurn = m_window->findChild<QAction *>(QStringLiteral("nextTurnAction"));
    auto *previousTurn = m_window->findChild<QAction *>(QStringLiteral("previousTurnAction"));
    QVERIFY(nextTurn && previousTurn);
    QList<int> visited;
    for (int i = 0; i < 4; ++i) {
        nextTurn->trigger();
        QTRY_VERIFY(m_window->currentBundle());
        visited << m_window->currentCall();
    }
    QCOMPARE(visited, QList<int>({2, 4, 5, 5})); // no turn after the last: the cursor stays
    previousTurn->trigger();
    QTRY_COMPARE(m_window->currentCall(), 4);

    // Each call shows its own turn's response: the stage id call-llm#40 is in turns 1, 2 and 4.
    QVERIFY(show(1));
    QCOMPARE(response()->responseText(),
             QStringLiteral("You spent 418.75 EUR on groceries in March 2025, over 23 purchases."));
    QVERIFY(show(6));
    QVERIFY(response()->responseText().startsWith(QStringLiteral("Done: you will get an alert")));
}

void TestRunStory::crashedCallSaysNoResponse()
{
    QVERIFY(open("dev-4-crash.json"));
    QCOMPARE(summary("summaryOutcome"), QStringLiteral("Failed at call 3"));
    QCOMPARE(summary("summaryAnswer"), QStringLiteral("not on record")); // never "" for a run that did not end
    QVERIFY(summary("summaryTokens").endsWith(QStringLiteral("(partial)")));
    auto *outcome = m_window->findChild<ElidedLabel *>(QStringLiteral("summaryOutcome"));
    QCOMPARE(outcome->palette().color(outcome->foregroundRole()), theme::strong(theme::Tone::Bad, outcome->palette()));

    QVERIFY(show(0));
    QCOMPARE(response()->stateText(), QStringLiteral("Stopped: tool_use · 1 tool call"));
    QVERIFY(response()->runNoteText().isEmpty());
    QVERIFY(show(2));
    QCOMPARE(response()->stateText(), QStringLiteral("No response on record"));
    QVERIFY(response()->responseText().isEmpty());
    QVERIFY(response()->runNoteText().startsWith(QStringLiteral("The run failed here: The AI call failed: 529")));
    QVERIFY(!response()->findChild<QTableView *>(QStringLiteral("toolRunsView"))->isVisibleTo(response()));
    auto *calls = m_window->findChild<QTableView *>(QStringLiteral("callsView"));
    QCOMPARE(calls->model()->index(2, CallListModel::ResponseColumn).data().toString(), QStringLiteral("failed"));
    QCOMPARE(calls->model()->index(1, CallListModel::ResponseColumn).data().toString(), QStringLiteral("tool_use"));
    QVERIFY(calls->model()->index(2, 0).data(CallListModel::NoResponseRole).toBool());
    QVERIFY(calls->isColumnHidden(CallListModel::TurnColumn)); // one turn

    // E goes to the call that went wrong.
    QVERIFY(show(0));
    m_window->findChild<QAction *>(QStringLiteral("nextProblemAction"))->trigger();
    QTRY_COMPARE(m_window->currentCall(), 2);
}

void TestRunStory::toolErrorsAreMarked()
{
    QVERIFY(open("dev-3-tool-errors.json"));
    ResponsePane *pane = response();
    QCOMPARE(pane->stateText(), QStringLiteral("Stopped: tool_use · 2 tool calls · 1 failed"));
    ToolRunModel *tools = pane->toolModel();
    QCOMPARE(tools->rowCount(), 2);
    QCOMPARE(tools->index(0, ToolRunModel::StatusColumn).data().toString(), QStringLiteral("error"));
    QVERIFY(tools->index(0, 0).data(ToolRunModel::ErrorRole).toBool());
    QCOMPARE(tools->index(1, ToolRunModel::StatusColumn).data().toString(), QStringLiteral("returned"));
    QCOMPARE(tools->index(0, ToolRunModel::ParallelColumn).data().toString(), QStringLiteral("2 in parallel"));
    pane->toolView()->selectRow(0);
    QVERIFY(pane->detailText().contains(QStringLiteral("ci-api: request timed out after 10000 ms")));
    QVERIFY(pane->detailText().contains(QStringLiteral("Error (the tool threw")));

    auto *calls = m_window->findChild<QTableView *>(QStringLiteral("callsView"));
    QCOMPARE(calls->model()->index(0, CallListModel::ResponseColumn).data().toString(), QStringLiteral("tool error"));
    QCOMPARE(calls->model()->index(1, CallListModel::ResponseColumn).data().toString(), QStringLiteral("tool_use"));

    // At call 2 the Wire serves ci-1's error text as a tool message: it carries the error mark; ci-2's does not.
    QVERIFY(show(1));
    auto *wire = m_window->findChild<QTreeView *>(QStringLiteral("wireView"));
    QVERIFY(wire);
    const QModelIndex messages = wire->model()->index(WireModel::MessagesGroup, 0);
    QStringList marked;
    for (int m = 0; m < wire->model()->rowCount(messages); ++m) {
        const QModelIndex row = wire->model()->index(m, 0, messages);
        if (row.data(WireModel::ToolErrorRole).toBool())
            marked << wire->model()->index(m, WireModel::IdColumn, messages).data().toString();
    }
    QCOMPARE(marked, strings({"ci-1"}));
}

void TestRunStory::pausedRunSaysSo()
{
    QVERIFY(open("dev-7-paused-or-limited.json"));
    QCOMPARE(summary("summaryOutcome"), QStringLiteral("Paused at call 2"));
    QVERIFY(show(1));
    QVERIFY(response()->runNoteText().startsWith(QStringLiteral("The run paused here for a human: Approve read-only")));
    QCOMPARE(response()->toolModel()->index(0, ToolRunModel::StatusColumn).data().toString(),
             QStringLiteral("never returned"));
    auto *calls = m_window->findChild<QTableView *>(QStringLiteral("callsView"));
    QCOMPARE(calls->model()->index(1, CallListModel::ResponseColumn).data().toString(), QStringLiteral("paused"));
}

void TestRunStory::limitsAtTheCall()
{
    QVERIFY(open("dev-8-max-iterations.json"));
    QCOMPARE(summary("summaryOutcome"), QStringLiteral("Completed · limit hit"));
    QVERIFY(show(2));
    const QString note = response()->runNoteText();
    QVERIFY(note.contains(QStringLiteral("Limit budget_exhausted: reason max-iterations")));
    QVERIFY(note.contains(QStringLiteral("action abort"))); // both limit events, as recorded
    QCOMPARE(response()->toolModel()->index(0, ToolRunModel::StatusColumn).data().toString(),
             QStringLiteral("not run"));
    QVERIFY(show(3));
    QVERIFY(response()->runNoteText().isEmpty());
    QVERIFY(response()->responseText().startsWith(QStringLiteral("I have not found HX-220 yet")));
}

QTEST_MAIN(TestRunStory)
#include "tst_runstory.moc"
