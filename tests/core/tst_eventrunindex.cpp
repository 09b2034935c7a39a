// The index of a run whose calls come from its events alone (detail::EventRunIndex, spec/recording.md §5.9,
// spec/runs.md) on logs whose events are out of the usual order: the rules reach back (a call gets a turn_start or a
// response that comes after it, a turn_start has the turns read again, a limit gets a call that comes after it).
// Each log is read both ways the index is fed — loaded whole, and followed one line a poll — and both must say what
// the rules say.

#include "core/recording/logfollower.h"

#include "tests/core/recordingfile.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <functional>

using namespace tf;

namespace {

std::string eventLine(std::string_view type, std::string_view payload, std::string_view runId = "r1",
                      std::string_view stage = "")
{
    std::string line = "{\"type\":\"" + std::string(type) + "\",\"payload\":" + std::string(payload) +
                       ",\"meta\":{\"runId\":\"" + std::string(runId) + "\"";
    if (!stage.empty())
        line += ",\"runtimeStageId\":\"" + std::string(stage) + "\"";
    return line + "}}\n";
}

std::string llmStart(std::string_view runId, std::string_view stage, int iteration)
{
    return eventLine(recording::eventtype::LlmStart, "{\"iteration\":" + std::to_string(iteration) + "}", runId, stage);
}

std::string llmEnd(std::string_view runId, std::string_view stage, int iteration)
{
    return eventLine(recording::eventtype::LlmEnd,
                     "{\"iteration\":" + std::to_string(iteration) + ",\"content\":\"c" + std::to_string(iteration) +
                         "\"}",
                     runId, stage);
}

std::string turnStart(std::string_view runId, std::string_view prompt)
{
    return eventLine(recording::eventtype::TurnStart, "{\"userPrompt\":\"" + std::string(prompt) + "\"}", runId);
}

std::string turnEnd(std::string_view runId)
{
    return eventLine(recording::eventtype::TurnEnd, "{\"finalContent\":\"done\"}", runId);
}

std::string toolStart(std::string_view id)
{
    return eventLine(recording::eventtype::ToolStart,
                     "{\"toolCallId\":\"" + std::string(id) + "\",\"toolName\":\"t\"}");
}

using Check = std::function<void(const recording::Run &)>;

// Runs `check` on the log loaded whole, then on the last snapshot of it followed one line a poll.
void bothWays(const std::string &log, const Check &check)
{
    check(*testsupport::load(log, "whole.ndjson"));
    if (QTest::currentTestFailed())
        return;
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/run.ndjson").toStdString();
    std::ofstream(path, std::ios::trunc).flush();
    recording::LogFollower follower(path);
    for (std::size_t at = 0; at < log.size();) {
        const std::size_t next = log.find('\n', at) + 1;
        std::ofstream(path, std::ios::binary | std::ios::app) << log.substr(at, next - at);
        at = next;
        QVERIFY(follower.poll().error.empty());
    }
    const recording::LogFollower::Update last = follower.poll(true);
    QVERIFY(last.run);
    check(*last.run);
}

std::vector<std::size_t> callsOf(const recording::Run &run, std::size_t turn)
{
    return run.turns.at(turn).calls;
}

} // namespace

class TestEventRunIndex : public QObject
{
    Q_OBJECT

private slots:
    void callBeforeAnyTurnStartGetsTheFirst();
    void lateTurnStartReadsTheTurnsAgain();
    void responseOutsideItsWindow();
    void limitsFindTheirCallsWhenTheyCome();
    void aCallWaitsWhileAnotherRunGoesOn();
};

void TestEventRunIndex::callBeforeAnyTurnStartGetsTheFirst()
{
    const std::string log = llmStart("r1", "call-llm#1", 1) + llmEnd("r1", "call-llm#1", 1) + turnStart("r1", "hi") +
                            llmStart("r1", "call-llm#2", 2) + llmEnd("r1", "call-llm#2", 2) + turnEnd("r1");
    bothWays(log, [](const recording::Run &run) {
        QCOMPARE(run.calls.size(), std::size_t(2));
        QCOMPARE(run.calls[0].turnStartEvent, std::optional<std::size_t>(2));
        QCOMPARE(run.calls[1].turnStartEvent, std::optional<std::size_t>(2));
        QCOMPARE(run.calls[0].llmEndEvent, std::optional<std::size_t>(1));
        QCOMPARE(run.turns.size(), std::size_t(2));
        QCOMPARE(run.turns[1].userPrompt, std::optional<std::string>("hi"));
        QCOMPARE(run.outcome.status, recording::OutcomeStatus::Completed);
    });
}

void TestEventRunIndex::lateTurnStartReadsTheTurnsAgain()
{
    // Until the turn_start comes, each run id opens a turn (spec/runs.md §1); once a turn_start is on record, only
    // turn_starts do, and the two runs' calls before it are one turn.
    const std::string log = llmStart("r1", "call-llm#1", 1) + llmEnd("r1", "call-llm#1", 1) +
                            llmStart("r2", "call-llm#1", 1) + llmEnd("r2", "call-llm#1", 1) + turnStart("r2", "again") +
                            llmStart("r2", "call-llm#2", 2) + llmEnd("r2", "call-llm#2", 2) + turnEnd("r2");
    bothWays(log, [](const recording::Run &run) {
        QCOMPARE(run.calls.size(), std::size_t(3));
        QCOMPARE(run.turns.size(), std::size_t(2));
        QCOMPARE(callsOf(run, 0), (std::vector<std::size_t>{0, 1}));
        QCOMPARE(callsOf(run, 1), (std::vector<std::size_t>{2}));
        QCOMPARE(run.turns[0].runId, std::string("r1"));
        QCOMPARE(run.calls[2].turn, std::size_t(1));
        QCOMPARE(run.runIds, (std::vector<std::string>{"r1", "r2"}));
    });
    // Without the turn_start, the run ids are the turns.
    const std::string byRunId = llmStart("r1", "call-llm#1", 1) + llmEnd("r1", "call-llm#1", 1) +
                                llmStart("r2", "call-llm#1", 1) + llmEnd("r2", "call-llm#1", 1);
    bothWays(byRunId, [](const recording::Run &run) {
        QCOMPARE(run.turns.size(), std::size_t(2));
        QCOMPARE(callsOf(run, 1), (std::vector<std::size_t>{1}));
        QCOMPARE(run.turns[1].runId, std::string("r2"));
    });
}

void TestEventRunIndex::responseOutsideItsWindow()
{
    // Call 1's llm_end comes after call 2's llm_start: not in its window (§5.9), it is still call 1's by its stage;
    // call 1's brackets stop at call 2's llm_start, so the tool after call 2's response is call 2's.
    const std::string log = turnStart("r1", "q") + llmStart("r1", "call-llm#1", 1) + llmStart("r1", "call-llm#2", 2) +
                            llmEnd("r1", "call-llm#1", 1) + llmEnd("r1", "call-llm#2", 2) + toolStart("t1") +
                            llmStart("r1", "call-llm#3", 3);
    bothWays(log, [](const recording::Run &run) {
        QCOMPARE(run.calls.size() + run.callsAwaitingResponse, std::size_t(3));
        QCOMPARE(run.calls[0].llmEndEvent, std::optional<std::size_t>(3));
        QVERIFY(run.calls[0].toolEvents.empty());
        QCOMPARE(run.calls[1].llmEndEvent, std::optional<std::size_t>(4));
        QCOMPARE(run.calls[1].toolEvents, (std::vector<std::size_t>{5}));
        QCOMPARE(run.toolStartByCallId.at("t1"), std::size_t(5));
    });
}

void TestEventRunIndex::limitsFindTheirCallsWhenTheyCome()
{
    // Budget pressure is felt by the call it is composed for, whose llm_start comes after it; a limit hit belongs to
    // the call before it.
    const std::string log = turnStart("r1", "q") + llmStart("r1", "call-llm#1", 1) + llmEnd("r1", "call-llm#1", 1) +
                            eventLine(recording::eventtype::BudgetPressure, "{\"slot\":\"messages\",\"cap\":10}") +
                            llmStart("r1", "call-llm#2", 2) + llmEnd("r1", "call-llm#2", 2) +
                            eventLine(recording::eventtype::BudgetExhausted, "{\"reason\":\"max-iterations\"}") +
                            turnEnd("r1");
    bothWays(log, [](const recording::Run &run) {
        QCOMPARE(run.limits.size(), std::size_t(2));
        QCOMPARE(run.limits[0].kind, std::string("context.budget_pressure"));
        QCOMPARE(run.limits[0].call, std::optional<std::size_t>(1));
        QCOMPARE(run.limits[1].kind, std::string("budget_exhausted"));
        QCOMPARE(run.limits[1].call, std::optional<std::size_t>(1));
        QCOMPARE(run.limits[1].message, std::string("reason max-iterations"));
    });
}

void TestEventRunIndex::aCallWaitsWhileAnotherRunGoesOn()
{
    // r1's call waits for its response while r2 makes two calls: the response still comes in its window (r1 started
    // no other call), and the calls after it settle meanwhile. Brackets follow the calls' order: the tool after r2's
    // second response is that call's.
    const std::string log = turnStart("r1", "q") + llmStart("r1", "call-llm#1", 1) + llmStart("r2", "call-llm#1", 1) +
                            llmEnd("r2", "call-llm#1", 1) + toolStart("t2") + llmStart("r2", "call-llm#2", 2) +
                            llmEnd("r2", "call-llm#2", 2) + llmEnd("r1", "call-llm#1", 1) + toolStart("t1");
    bothWays(log, [](const recording::Run &run) {
        QCOMPARE(run.calls.size(), std::size_t(3));
        QCOMPARE(run.calls[0].llmEndEvent, std::optional<std::size_t>(7));
        QVERIFY(run.calls[0].toolEvents.empty());
        QCOMPARE(run.calls[1].llmEndEvent, std::optional<std::size_t>(3));
        QCOMPARE(run.calls[1].toolEvents, (std::vector<std::size_t>{4}));
        QCOMPARE(run.calls[2].llmEndEvent, std::optional<std::size_t>(6));
        QCOMPARE(run.calls[2].toolEvents, (std::vector<std::size_t>{8}));
    });
}

QTEST_APPLESS_MAIN(TestEventRunIndex)
#include "tst_eventrunindex.moc"
