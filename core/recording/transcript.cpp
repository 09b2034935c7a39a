#include "transcript.h"

#include <functional>
#include <string>
#include <unordered_map>

namespace tf::recording {

namespace {

// What makes two messages of consecutive calls the same message; contents are hashed, not kept, so a long history
// costs no copy of its texts.
std::string sameMessageKey(const MessageView &m)
{
    std::string key = m.role;
    key += '\x1f';
    if (!m.toolCallId.empty() && m.toolCalls.empty()) {
        key += "result\x1f" + m.toolCallId;
        return key;
    }
    std::string scratch;
    const std::string_view text = m.contentIsText ? m.content.stringView(scratch) : std::string_view(m.contentJson);
    key += std::to_string(text.size()) + ':' + std::to_string(std::hash<std::string_view>{}(text));
    for (const MessageView::ToolCall &call : m.toolCalls)
        key += '\x1f' + call.id + '\x1e' + call.name;
    return key;
}

} // namespace

Transcript transcriptAt(const Run &run, const CallView &view, const CallView *previous)
{
    Transcript out;
    out.messages = messageViews(run, view);
    out.isNew.assign(out.messages.size(), false);
    if (!previous) {
        out.comparable = true;
        out.isNew.assign(out.messages.size(), true);
        out.newCount = out.messages.size();
        return out;
    }
    if (!previous->conversationOnRecord)
        return out;
    out.comparable = true;
    std::unordered_map<std::string, std::size_t> before;
    for (const MessageView &m : messageViews(run, *previous))
        ++before[sameMessageKey(m)];
    for (std::size_t i = 0; i < out.messages.size(); ++i) {
        auto it = before.find(sameMessageKey(out.messages[i]));
        if (it != before.end() && it->second > 0) {
            --it->second;
            continue;
        }
        out.isNew[i] = true;
        ++out.newCount;
    }
    return out;
}

} // namespace tf::recording
