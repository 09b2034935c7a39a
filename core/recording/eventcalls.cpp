#include "builders.h"
#include "numberconv.h"

#include <algorithm>
#include <functional>
#include <unordered_map>
#include <unordered_set>

namespace tf::recording::detail {

namespace {

// §5.9: the calls are the llm_start events `wanted` keeps; inputs come from the events around them. Records are
// appended to run.calls in event order.
void addEventCalls(Run &run, const std::function<bool(const Event &)> &wanted)
{
    // iteration_end(k).history of the current turn, latest wins: iterations restart at 1 with every turn of a
    // conversation, and a resumed run goes on counting in the turn it was paused in.
    std::unordered_map<int, std::size_t> historyByIteration;
    std::size_t injectedFrom = 0;
    std::vector<bool> endUsed(run.events.size(), false);
    // Found once here, not searched per call: a file with many calls must not cost calls x events.
    std::optional<std::size_t> firstTurnStart, lastTurnStart;
    std::size_t llmStarts = 0;
    for (const Event &e : run.events) {
        if (e.type == eventtype::TurnStart && !firstTurnStart)
            firstTurnStart = e.index;
        llmStarts += e.type == eventtype::LlmStart ? 1 : 0;
    }
    // Grown once: a vector doubling its way to thousands of records moves each several times. Only when every
    // llm_start makes a call: the calls of other runs beside a commit log's are a few.
    if (run.calls.empty())
        run.calls.reserve(llmStarts);
    for (const Event &e : run.events) {
        if (e.type == eventtype::TurnStart) {
            lastTurnStart = e.index;
            historyByIteration.clear();
            continue;
        }
        if (e.type == eventtype::IterationEnd) {
            if (e.payloadIterIndex && e.payloadHasHistory)
                historyByIteration[*e.payloadIterIndex] = e.index;
            continue;
        }
        if (e.type != eventtype::LlmStart)
            continue;
        // Context events of iteration k come after iteration_end(k-1) and before this llm_start (§2.2).
        const std::size_t injectedBegin = injectedFrom;
        injectedFrom = e.index + 1;
        if (!wanted(e))
            continue;
        CallRecord rec;
        rec.ordinal = run.calls.size();
        rec.callRuntimeStageId = std::string(e.runtimeStageId);
        rec.runId = e.runId;
        rec.logName = "events";
        rec.basis = FoldBasis::EventsOnly;
        rec.llmStartEvent = e.index;
        rec.turnStartEvent = lastTurnStart ? lastTurnStart : firstTurnStart;
        if (auto iteration = e.iteration()) {
            rec.epoch = *iteration;
        } else {
            rec.epoch = int(run.calls.size()) + 1;
            rec.epochByPosition = true;
        }
        for (std::size_t i = injectedBegin; i < e.index; ++i)
            if (run.events[i].type == eventtype::ContextInjected)
                rec.injectedEvents.push_back(i);
        for (std::size_t i = e.index + 1; i < run.events.size(); ++i) {
            const Event &end = run.events[i];
            if (end.type == eventtype::LlmStart && end.runId == e.runId)
                break;
            if (end.type == eventtype::LlmEnd && !endUsed[i] && end.runId == e.runId &&
                (end.runtimeStageId == e.runtimeStageId || end.iteration() == e.iteration())) {
                rec.llmEndEvent = i;
                endUsed[i] = true;
                break;
            }
        }
        if (auto it = historyByIteration.find(rec.epoch - 1); it != historyByIteration.end())
            rec.historyEvent = it->second;
        run.calls.push_back(std::move(rec));
    }
}

} // namespace

std::string_view assignSnapshotRun(Run &run)
{
    const bool stateCalls = std::any_of(run.calls.begin(), run.calls.end(),
                                        [](const CallRecord &c) { return c.basis != FoldBasis::EventsOnly; });
    if (run.runIds.empty() || !stateCalls)
        return {};
    if (run.snapshotRunId.empty())
        run.snapshotRunId = run.runIds.back();
    for (CallRecord &call : run.calls)
        if (call.runId.empty())
            call.runId = run.snapshotRunId; // the Run owns the string for as long as the record lives
    return run.snapshotRunId;
}

void buildCallsFromEvents(Run &run)
{
    addEventCalls(run, [](const Event &) { return true; });
    if (run.basis != FoldBasis::SubflowLogs)
        run.basis = FoldBasis::EventsOnly;
}

// spec/runs.md §1: the snapshot covers the last run only. Its calls came from the commit log; every other run's
// calls (earlier turns of a conversation, the paused half of a resumed run), and any call of the last run that the
// log does not hold, are rebuilt from their events. All calls are then put in event order.
void addCallsOfOtherRuns(Run &run)
{
    if (run.runIds.empty())
        return;
    const std::string_view snapshotRun = assignSnapshotRun(run);
    std::unordered_set<std::string> logStages; // owned: run.calls grows below
    for (const CallRecord &call : run.calls)
        logStages.insert(call.callRuntimeStageId);
    const std::size_t fromLog = run.calls.size();
    addEventCalls(run, [&](const Event &e) {
        return e.runId != snapshotRun || logStages.count(std::string(e.runtimeStageId)) == 0;
    });
    if (run.calls.size() == fromLog)
        return;
    // Pair the log's calls with their llm_start now, so that every call has a place in the event list.
    std::unordered_map<std::string_view, std::size_t> startByStage;
    for (const Event &e : run.events)
        if (e.type == eventtype::LlmStart && e.runId == snapshotRun)
            startByStage.emplace(e.runtimeStageId, e.index);
    for (std::size_t i = 0; i < fromLog; ++i)
        if (auto it = startByStage.find(run.calls[i].callRuntimeStageId); it != startByStage.end())
            run.calls[i].llmStartEvent = it->second;
    // A call with no llm_start keeps its place after the call before it.
    std::vector<std::pair<std::size_t, std::size_t>> keys; // (event position, original position)
    std::size_t carried = 0;
    for (std::size_t i = 0; i < run.calls.size(); ++i) {
        if (i == fromLog)
            carried = 0;
        if (run.calls[i].llmStartEvent)
            carried = *run.calls[i].llmStartEvent;
        keys.emplace_back(carried, i);
    }
    std::stable_sort(keys.begin(), keys.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    std::vector<CallRecord> ordered;
    ordered.reserve(run.calls.size());
    for (const auto &[position, original] : keys) {
        ordered.push_back(std::move(run.calls[original]));
        ordered.back().ordinal = ordered.size() - 1;
    }
    run.calls = std::move(ordered);
}

} // namespace tf::recording::detail
