#include "builders.h"
#include "eventcallbuilder.h"
#include "numberconv.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace tf::recording::detail {

namespace {

// The calls `wanted` keeps of all the run's events, appended to run.calls (EventCallBuilder).
void addEventCalls(Run &run, EventCallBuilder::Wanted wanted)
{
    EventCallBuilder builder(std::move(wanted));
    builder.extend(run, run.calls);
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
    addEventCalls(run, {});
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
