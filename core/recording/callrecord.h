#pragma once

#include "core/json/value.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace tf::recording {

// Where a call's state came from (spec/recording.md §3.8, §5.9).
enum class FoldBasis
{
    InitialPlusLog, // initialState present
    LogOnly,        // commit log folded from {}: "no fold base"
    SubflowLogs,    // boundary capture: per-slot subflow logs
    EventsOnly,     // no foldable log at all
};
const char *foldBasisName(FoldBasis basis);

class StateJournal;

// What the loader keeps per LLM call: where its state is (§5.2), whether a receipt followed it, the paired events.
// A record costs a few dozen bytes however long the history is: the state at the call and the receipt after it are
// rebuilt from the file when asked (Run::stateAt, Run::receiptAfter), and the full per-call view (collapse, piece,
// verification, cache facts) is derived on demand by buildCallView.
struct CallRecord
{
    std::size_t ordinal = 0; // 0-based position among the run's calls
    int epoch = 0;           // 1-based; by position when `epochByPosition`
    bool epochByPosition = false;
    bool duplicateEpoch = false;
    std::string callRuntimeStageId;
    // A call is (run id, stage id): stage ids such as call-llm#18 repeat across the runs of a conversation.
    std::string_view runId; // interned in the Run's arena; empty when not on record
    std::size_t turn = 0;   // 0-based index into Run::turns
    std::string logName;    // "run", "sf-llm-call#n", "events", "subflows"
    std::optional<std::size_t> bundleIndex;
    FoldBasis basis = FoldBasis::EventsOnly;

    // The state at the call: the log's journal before `bundleIndex` (Run::stateAt), or a state folded from slot
    // subflows (boundary captures) kept as is. Absent members are absent (not null).
    bool hasStateAt = false;               // false for events-only calls
    const StateJournal *journal = nullptr; // owned by the Run
    std::optional<json::Value> keptState;
    // Whether the call's own bundle committed `receipt` (Run::receiptAfter): a delta log would otherwise carry the
    // previous call's receipt forward.
    bool receiptCommitted = false;
    // Whether the call's bundle committed llmLatestToolCalls (the tool calls its response asked for).
    bool toolCallsCommitted = false;

    // Events-only reconstruction inputs (§5.9), used when there is no state.
    std::optional<std::size_t> historyEvent;   // the iteration_end(k-1) whose payload carries `history`
    std::vector<std::size_t> injectedEvents;   // context.injected events of this iteration
    std::optional<std::size_t> turnStartEvent; // the turn_start before this call, else the first in the file
    std::optional<std::size_t> llmStartEvent;
    std::optional<std::size_t> llmEndEvent;
    std::optional<std::size_t> routeEvent;
    std::vector<std::size_t> toolEvents;          // tool_start/progress/end after the call, before the next
    std::optional<std::size_t> iterationEndEvent; // the iteration_end after the call, before the next

    // The cache gate's choice, from the sf-cache#n tree's flowMessages (§7.1): "apply-markers" | "no-markers".
    std::optional<std::string> cacheGateBranch;
};

} // namespace tf::recording
