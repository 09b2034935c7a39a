#pragma once

#include "core/json/value.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace tf::recording {

// Where a call's state came from (spec/recording.md §3.8, §5.9).
enum class FoldBasis {
    InitialPlusLog, // initialState present
    LogOnly,        // commit log folded from {}: "no fold base"
    SubflowLogs,    // boundary capture: per-slot subflow logs
    EventsOnly,     // no foldable log at all
};
const char *foldBasisName(FoldBasis basis);

// What the loader keeps per LLM call: the state read at the call (§5.2), the receipt after it, the paired events.
// Everything is a shared Value handle, so a record costs a few pointers however long the history is; the full
// per-call view (collapse, piece, verification, cache facts) is derived on demand by CallViewBuilder.
struct CallRecord
{
    std::size_t ordinal = 0;   // 0-based position among the run's calls
    int epoch = 0;             // 1-based; by position when `epochByPosition`
    bool epochByPosition = false;
    bool duplicateEpoch = false;
    std::string callRuntimeStageId;
    std::string logName;       // "run", "sf-llm-call#n", "events", "subflows"
    std::optional<std::size_t> bundleIndex;
    FoldBasis basis = FoldBasis::EventsOnly;

    // State at the call. Absent members are absent (not null): use `stateAt.find(key)`.
    json::Value stateAt = json::Value::object();
    bool hasStateAt = false;    // false for events-only calls
    // `receipt` folded after the call; nullopt when nothing was committed under the key.
    std::optional<json::Value> receiptAfter;

    // Events-only reconstruction inputs (§5.9), used when there is no state.
    std::optional<json::Value> eventHistory;       // iteration_end(k-1).history
    std::vector<std::size_t> injectedEvents;       // context.injected events of this iteration
    std::optional<std::size_t> turnStartEvent;     // the turn_start before this call, else the first in the file
    std::optional<std::size_t> llmStartEvent;
    std::optional<std::size_t> llmEndEvent;
    std::optional<std::size_t> routeEvent;
    std::vector<std::size_t> toolEvents;           // tool_start/progress/end after the call, before the next

    // The cache gate's choice, from the sf-cache#n tree's flowMessages (§7.1): "apply-markers" | "no-markers".
    std::optional<std::string> cacheGateBranch;
};

} // namespace tf::recording
