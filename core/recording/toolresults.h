#pragma once

#include "run.h"

#include "core/json/value.h"

#include <optional>
#include <string>
#include <vector>

namespace tf::recording {

// One tool_end event after a call (CallRecord::toolEvents). Since 9.116 (spec/upstream-since-9.113.md §5) the event
// carries `modelResult` when the library stripped fields before the model saw the result: the model was served
// `modelResult`, not `result`. Both are kept: `result` is what the tool returned.
struct ToolResultEvent
{
    std::size_t event = 0; // index into Run::events
    std::optional<std::string> toolCallId;
    std::optional<std::string> toolName;
    std::optional<json::Value> result;      // payload.result, raw; nullopt: not on record
    std::optional<json::Value> modelResult; // payload.modelResult; nullopt: nothing was stripped (or older release)
    bool error = false;                     // payload.error === true

    // What the model was served: modelResult when present, else result; nullptr when neither is on record.
    const json::Value *served() const { return modelResult ? &*modelResult : result ? &*result : nullptr; }
    bool stripped() const { return modelResult.has_value(); }
};

// The tool results that followed `call`, in event order (payloads parsed again from the file).
std::vector<ToolResultEvent> toolResultsAfter(const Run &run, const CallRecord &call);

} // namespace tf::recording
