#include "recordfields.h"

#include "qtstrings.h"

#include "core/json/writer.h"

namespace tf::ui {

namespace {

QString str(const json::Value &v, std::string_view key)
{
    const json::Value *s = v.findString(key);
    return s ? toQString(s->asString()) : QString();
}

} // namespace

QString compactJson(const json::Value &value)
{
    return toQString(json::stringify(value));
}

MessageFields messageFields(const json::Value &message, MessageContent content)
{
    MessageFields f;
    if (!message.isObject()) {
        f.content = compactJson(message);
        return f;
    }
    f.role = str(message, "role");
    f.toolCallId = str(message, "toolCallId");
    f.toolName = str(message, "toolName");
    if (const json::Value *c = message.find("content")) {
        f.contentIsText = c->isString();
        std::string scratch;
        if (content == MessageContent::Include)
            f.content = c->isString() ? toQString(c->stringView(scratch)) : toQString(json::prettyPrint(*c));
    }
    if (const json::Value *calls = message.findArray("toolCalls")) {
        for (const json::Value &c : *calls)
            f.toolCalls << str(c, "name") + QLatin1Char('(') + str(c, "id") + QLatin1Char(')');
        f.toolCallsJson = toQString(json::prettyPrint(*calls));
    }
    return f;
}

} // namespace tf::ui
