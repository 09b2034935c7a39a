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

// The first call that can serve each of `ids`: the one after the call its tool ran at. A result message exists only
// once its tool has ended, so no call before can serve it. The bound holds only for an id that names exactly one tool
// run on record, attached to a call, in a recording with no gaps: an id reused across turns (mock providers number
// their tool calls per turn), or one whose run is missing, may have been served before the run on record; such ids
// are looked for from the first call. A full scan rebuilds every call, and the answer's results are mostly late.
std::map<std::string_view, std::size_t> earliestServingCalls(const Run &run, const std::set<std::string> &ids)
{
    std::map<std::string_view, std::size_t> earliest;
    if (!run.gaps.empty())
        return earliest;
    std::map<std::string_view, std::size_t> runs; // tool runs on record per id, attached to a call or not
    for (const Event &e : run.events)
        if (e.type == eventtype::ToolStart && ids.count(std::string(e.toolCallId)))
            ++runs[e.toolCallId];
    // A call's tool events are its own (the ones after it, before the next): an id run once is attached once at most.
    for (const CallRecord &call : run.calls)
        for (const std::size_t at : call.toolEvents) {
            const Event &e = run.events[at];
            if (e.type == eventtype::ToolStart && runs.count(e.toolCallId) && runs.at(e.toolCallId) == 1)
                earliest[e.toolCallId] = call.ordinal + 1;
        }
    return earliest;
}

} // namespace

std::map<std::string, ResultEntry, std::less<>> whereResultsEntered(const Run &run, const std::set<std::string> &ids,
                                                                    const std::atomic<bool> *cancel)
{
    std::map<std::string, ResultEntry, std::less<>> entered;
    if (ids.empty())
        return entered;
    const std::map<std::string_view, std::size_t> earliest = earliestServingCalls(run, ids);
    // The first call any id still unplaced could be served at: the scan skips the calls before it.
    const auto nextUseful = [&](std::size_t from) {
        std::size_t next = run.calls.size();
        for (const std::string &id : ids) {
            if (entered.count(id))
                continue;
            const auto bound = earliest.find(id);
            next = std::min(next, bound == earliest.end() ? from : std::max(from, bound->second));
        }
        return next;
    };
    CallStates states(run);
    for (std::size_t i = nextUseful(0); i < run.calls.size() && entered.size() < ids.size(); i = nextUseful(i + 1)) {
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
        const std::size_t at = e->index;
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
