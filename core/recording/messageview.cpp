#include "messageview.h"

#include "redaction.h"

#include "core/findings/collapse.h"
#include "core/json/writer.h"

#include <unordered_map>
#include <unordered_set>

namespace tf::recording {

namespace {

std::string str(const json::Value &v, std::string_view key)
{
    const json::Value *s = v.findString(key);
    return s ? s->decodedString() : std::string();
}

} // namespace

std::vector<MessageView> messageViews(const Run &run, const CallView &view)
{
    std::vector<MessageView> out;
    if (!view.conversationOnRecord || !view.asSent.isArray())
        return out;
    std::unordered_map<std::size_t, const findings::CollapsedMessage *> collapsed;
    for (const findings::CollapsedMessage &c : view.collapsed)
        collapsed.emplace(c.index, &c);
    const std::unordered_set<std::string> undeclared(view.undeclaredIds.begin(), view.undeclaredIds.end());
    out.reserve(view.asSent.size());
    for (std::size_t i = 0; i < view.asSent.size(); ++i) {
        const json::Value &m = view.asSent.at(i);
        MessageView &v = out.emplace_back();
        v.index = i;
        if (!m.isObject()) {
            v.content = m;
            v.contentJson = json::prettyPrint(m);
            continue;
        }
        v.role = str(m, "role");
        v.toolCallId = str(m, "toolCallId");
        v.toolName = str(m, "toolName");
        if (const json::Value *c = m.find("content")) {
            v.content = *c;
            v.contentIsText = c->isString();
            if (!v.contentIsText)
                v.contentJson = json::prettyPrint(*c);
        }
        if (const json::Value *calls = m.findArray("toolCalls")) {
            for (const json::Value &c : *calls)
                v.toolCalls.push_back({str(c, "id"), str(c, "name")});
            v.toolCallsJson = json::prettyPrint(*calls);
        }
        if (auto it = collapsed.find(i); it != collapsed.end()) {
            v.collapsed = true;
            v.ticket = it->second->ticket;
            v.standing = it->second->standing;
            if (view.committed.isArray() && i < view.committed.size())
                if (const json::Value *c = view.committed.at(i).find("content")) {
                    v.original = *c;
                    if (!c->isString())
                        v.originalJson = json::prettyPrint(*c);
                }
        }
        const bool result = !v.toolCallId.empty() && findings::isResultMessage(m);
        // "undeclared" applies to result messages only: the id of a tool call is not a result.
        v.undeclared = result && undeclared.count(v.toolCallId) > 0;
        if (result) {
            const ToolResultFacts facts = toolResultFacts(run, v.toolCallId);
            v.toolError = facts.error;
            v.stripped = facts.stripped;
            v.rawResult = facts.rawResult;
        }
        v.redacted = run.servedUnderRedaction && isRedactionPlaceholder(v.content);
    }
    return out;
}

} // namespace tf::recording
