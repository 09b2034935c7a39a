#pragma once

#include "core/json/value.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tf::recording {

// llm_end.usage (§7.4): absent is not zero.
struct Usage
{
    std::optional<double> input, output, cacheRead, cacheWrite;
    bool measured() const { return cacheRead.has_value() || cacheWrite.has_value(); }
    bool operator==(const Usage &) const = default;
};

// One tool call a response asked for (spec/runs.md §2).
struct ToolCallRequest
{
    std::string id, name;
    json::Value args = json::Value::object();
    std::optional<json::Value> findings; // args._findings: the model's own declaration, on an armed run

    // Pretty-printed JSON, for display.
    std::string argsText() const;
    std::optional<std::string> findingsText() const;
};

// What the model answered at a call: llm_end with the call's run id and stage id (spec/runs.md §2).
struct Response
{
    std::string text; // WTF-8; "" when the model only called tools
    std::optional<std::string> stopReason;
    std::optional<double> durationMs;
    Usage usage;
    std::optional<std::size_t> toolCallCount; // llm_end.toolCallCount
    std::vector<ToolCallRequest> toolCalls;
    bool toolCallsOnRecord = false; // false: only toolCallCount is known
};

// One tool the response asked for, as it ran (spec/runs.md §3).
struct ToolRun
{
    std::string id, name;
    json::Value args = json::Value::object();
    std::optional<int> parallelCount;
    bool started = false;              // a tool_start is on record
    bool returned = false;             // a tool_end is on record
    bool error = false;                // tool_end.error: the tool threw; `result` is the error text
    std::optional<std::string> result; // WTF-8: what the model was served (a string as is, any other value as JSON)
    bool resultIsJson = false;
    // Since 9.116 tool_end carries modelResult when the library stripped fields before the model saw the result
    // (spec/upstream-since-9.113.md §5): `result` above is then modelResult, and this is the tool's own result.
    bool stripped = false;
    std::optional<std::string> rawResult;
    std::optional<double> durationMs;
    std::optional<std::size_t> startEvent, endEvent;
    // Why it never returned or never ran, when it did not ("paused for a human", "the run failed", ...).
    std::string missingReason;
    // It started and is waiting for the human the run paused for (the run's outcome is paused at this call): not
    // returning is what a pause is, not a fault.
    bool awaitingHuman = false;

    std::string argsText() const; // pretty-printed JSON
};

struct Run;

// What the record says of one tool result, for any message that carries it (the Wire, the transcript): whether the
// tool threw, and whether the model was served a stripped modelResult instead of the tool's own result.
struct ToolResultFacts
{
    bool onRecord = false; // a tool_end with this id is on record
    bool error = false;
    bool stripped = false;
    std::optional<std::string> rawResult; // the tool's own result, when stripped (a string as is, else its JSON)
};
ToolResultFacts toolResultFacts(const Run &run, std::string_view toolCallId);

} // namespace tf::recording
