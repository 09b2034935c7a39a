#pragma once

#include "callview.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace tf::recording {

// One message of a call as every surface shows it (the Wire, the transcript, search, diff): its fields and what the
// record says of it. Text is WTF-8 from the record, untrusted, never escaped here; a long content stays a value that
// views the file (json::Value::stringView), converted only where it is shown.
struct MessageView
{
    std::size_t index = 0; // in the call's messages as sent
    std::string role;
    std::string toolCallId; // a tool result's id
    std::string toolName;   // a tool result's tool
    json::Value content;    // as sent: a string (the usual), else any JSON value
    bool contentIsText = false;
    std::string contentJson; // the content pretty-printed, when it is not a string
    struct ToolCall
    {
        std::string id, name;
    };
    std::vector<ToolCall> toolCalls; // an assistant's calls
    std::string toolCallsJson;       // the calls pretty-printed, for a detail view

    // What the record says of it.
    bool collapsed = false;               // sent as a collapse ticket instead of its content (findings)
    std::string ticket, standing;         // when collapsed: the ticket as sent and the standing that collapsed it
    json::Value original;                 // when collapsed: the committed content
    std::string originalJson;             // ...pretty-printed, when it is not a string
    bool undeclared = false;              // a result no standing names, served in full (armed runs only)
    bool toolError = false;               // the tool threw: the content is the error text (spec/runs.md §3)
    bool stripped = false;                // the model was served modelResult, not the tool's own result (9.116)
    std::optional<std::string> rawResult; // the tool's own result, when stripped
    bool redacted = false;                // a placeholder the run's redaction policy put there (9.140)
};

// The messages of `view` as sent, with their facts; empty when the conversation is not on record.
std::vector<MessageView> messageViews(const Run &run, const CallView &view);

} // namespace tf::recording
