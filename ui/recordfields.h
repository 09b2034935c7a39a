#pragma once

#include "core/json/value.h"

#include <QString>
#include <QStringList>

#include <optional>

// Display fields read out of a wire message. This is the one place ui/ looks inside recorded JSON, and only to label
// what the core already selected (messages as sent): it belongs in the core as a `MessageView`, as the ledger rows
// moved to findings::LedgerRowView, and is kept apart so it can move there whole.
namespace tf::ui {

struct MessageFields
{
    QString role;
    QString toolCallId; // a tool result's id
    QString toolName;   // a tool result's tool
    QString content;    // the content as text when it is a string; otherwise its JSON
    bool contentIsText = false;
    QStringList toolCalls; // an assistant's calls, "name(id)"
    QString toolCallsJson; // the calls pretty-printed, for the detail view
};
enum class MessageContent
{
    Include,
    Skip
};
// Skip leaves `content` empty (and contentIsText set): for callers that read a long text themselves.
MessageFields messageFields(const json::Value &message, MessageContent content = MessageContent::Include);

// A value as one line for tables: strings quoted as JSON does, everything else as JSON.
QString compactJson(const json::Value &value);

} // namespace tf::ui
