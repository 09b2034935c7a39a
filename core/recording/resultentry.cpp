#include "resultentry.h"

#include "callinternals.h"

#include <algorithm>

namespace tf::recording {

namespace {

std::optional<std::size_t> messageCarrying(const json::Value &messages, std::string_view id)
{
    if (!messages.isArray())
        return std::nullopt;
    for (std::size_t m = 0; m < messages.size(); ++m) {
        const json::Value &message = messages.at(m);
        const json::Value *role = message.findString("role");
        const json::Value *carried = message.findString("toolCallId");
        if (role && carried && role->asString() == "tool" && carried->decodedString() == id)
            return m;
    }
    return std::nullopt;
}

} // namespace

std::map<std::string, ResultEntry, std::less<>> whereResultsEntered(const Run &run, const std::set<std::string> &ids,
                                                                    const std::atomic<bool> *cancel)
{
    std::map<std::string, ResultEntry, std::less<>> entered;
    if (ids.empty())
        return entered;
    CallStates states(run);
    for (std::size_t i = 0; i < run.calls.size() && entered.size() < ids.size(); ++i) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            break;
        CallView view;
        detail::rebuildServed(run, i, view, &states);
        for (const std::string &id : view.servedIds) {
            if (!ids.count(id) || entered.count(id))
                continue;
            ResultEntry e;
            e.ordinal = i;
            e.messageIndex = messageCarrying(view.asSent, id);
            e.asTicket = std::any_of(view.collapsed.begin(), view.collapsed.end(),
                                     [&](const findings::CollapsedMessage &c) { return c.toolCallId == id; });
            entered.emplace(id, e);
        }
    }
    return entered;
}

ToolResultPlace locateToolResult(const Run &run, std::string_view toolCallId, const std::atomic<bool> *cancel)
{
    ToolResultPlace place;
    place.toolCallId = std::string(toolCallId);
    const Event *end = run.toolEnd(toolCallId);
    const Event *start = run.toolStart(toolCallId);
    place.resultOnRecord = end != nullptr;
    if (const Event *e = end ? end : start) {
        const std::size_t at = std::size_t(e - run.events.data());
        for (const CallRecord &call : run.calls)
            if (std::find(call.toolEvents.begin(), call.toolEvents.end(), at) != call.toolEvents.end()) {
                place.ranAt = call.ordinal;
                break;
            }
    }
    const auto entered = whereResultsEntered(run, {place.toolCallId}, cancel);
    if (auto it = entered.find(toolCallId); it != entered.end())
        place.entered = it->second;
    return place;
}

} // namespace tf::recording
