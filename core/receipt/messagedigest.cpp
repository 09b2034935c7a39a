#include "messagedigest.h"

#include "core/json/writer.h"

namespace tf::receipt {

namespace {

const json::Value *member(const json::Value &object, std::string_view key)
{
    return object.isObject() ? object.find(key) : nullptr;
}

// A text field: absent → nothing, a string → itself, anything else → its sorted-key JSON (see the header).
void appendTextField(std::string &out, const json::Value &object, std::string_view key)
{
    const json::Value *v = member(object, key);
    if (!v)
        return;
    if (v->isString())
        v->appendString(out);
    else
        json::appendSortedKeyJson(out, *v);
}

void appendToolCall(std::string &out, const json::Value &call)
{
    appendTextField(out, call, "id");
    out.append(kCallFieldSeparator);
    appendTextField(out, call, "name");
    out.append(kCallFieldSeparator);
    // JSON.stringify(undefined) is undefined, which the upstream digest marks; parsed JSON reaches it only when
    // `args` is missing, since every parsed value has a JSON form.
    if (const json::Value *args = member(call, "args"))
        json::appendSortedKeyJson(out, *args);
    else
        out.append(kUnserializable);
    out.append(kCallFieldSeparator);
    if (const json::Value *meta = member(call, "providerMeta"))
        json::appendSortedKeyJson(out, *meta);
}

} // namespace

std::string messageDigestInput(const json::Value &message)
{
    std::string out;
    appendTextField(out, message, "role");
    out.append(kFieldSeparator);
    appendTextField(out, message, "content");
    out.append(kFieldSeparator);
    appendTextField(out, message, "toolCallId");
    out.append(kFieldSeparator);
    appendTextField(out, message, "toolName");
    out.append(kFieldSeparator);
    if (const json::Value *calls = member(message, "toolCalls")) {
        if (calls->isArray()) {
            bool first = true;
            for (const json::Value &call : *calls) {
                if (!first)
                    out.append(kCallSeparator);
                first = false;
                appendToolCall(out, call);
            }
        } else {
            json::appendSortedKeyJson(out, *calls);
        }
    }
    out.append(kFieldSeparator);
    if (const json::Value *blocks = member(message, "thinkingBlocks")) {
        const bool empty = blocks->isNull() || (blocks->isArray() && blocks->size() == 0);
        if (!empty)
            json::appendSortedKeyJson(out, *blocks);
    }
    return out;
}

std::string requestOnlyDigestInput(std::string_view roleWtf8, std::string_view textWtf8)
{
    std::string out;
    out.reserve(roleWtf8.size() + textWtf8.size() + 5);
    out.append(roleWtf8);
    out.append(kFieldSeparator);
    out.append(textWtf8);
    for (int i = 0; i < 4; ++i)
        out.append(kFieldSeparator);
    return out;
}

std::string schemaDigestInput(const json::Value &schema)
{
    return json::sortedKeyJson(schema);
}

} // namespace tf::receipt
