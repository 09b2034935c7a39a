#include "builders.h"
#include "numberconv.h"

#include <unordered_map>

namespace tf::recording::detail {

// §5.9: calls are the llm_start/llm_end pairs; inputs come from the events around them.
void buildCallsFromEvents(Run &run)
{
    std::unordered_map<int, std::size_t> historyByIteration; // iteration_end(k).history, latest wins
    std::size_t injectedFrom = 0;
    std::vector<bool> endUsed(run.events.size(), false);
    // Found once here, not searched per call: a file with many calls must not cost calls x events.
    std::optional<std::size_t> firstTurnStart, lastTurnStart;
    for (const Event &e : run.events)
        if (e.type == eventtype::TurnStart) {
            firstTurnStart = e.index;
            break;
        }
    for (const Event &e : run.events) {
        if (e.type == eventtype::TurnStart) {
            lastTurnStart = e.index;
            continue;
        }
        if (e.type == eventtype::IterationEnd) {
            const json::Value payload = run.payload(e);
            const json::Value *iter = payload.findNumber("iterIndex");
            const std::optional<int> k = iter ? toInt(iter->asNumber()) : std::nullopt;
            if (k && payload.findArray("history"))
                historyByIteration[*k] = e.index;
            continue;
        }
        if (e.type != eventtype::LlmStart)
            continue;
        CallRecord rec;
        rec.ordinal = run.calls.size();
        rec.callRuntimeStageId = std::string(e.runtimeStageId);
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
        // Context events of iteration k come after iteration_end(k-1) and before this llm_start (§2.2).
        for (std::size_t i = injectedFrom; i < e.index; ++i)
            if (run.events[i].type == eventtype::ContextInjected)
                rec.injectedEvents.push_back(i);
        injectedFrom = e.index + 1;
        for (std::size_t i = e.index + 1; i < run.events.size(); ++i) {
            const Event &end = run.events[i];
            if (end.type == eventtype::LlmStart)
                break;
            if (end.type == eventtype::LlmEnd && !endUsed[i] &&
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
    if (run.basis != FoldBasis::SubflowLogs)
        run.basis = FoldBasis::EventsOnly;
}

} // namespace tf::recording::detail
