#include "callevents.h"

namespace tf::recording::detail {

void CallKeyEvents::extend(const Run &run)
{
    for (; m_read < run.events.size(); ++m_read) {
        const Event &e = run.events[m_read];
        if (e.type == eventtype::LlmStart && !e.runtimeStageId.empty())
            m_startByKey.emplace(Key{e.runId, e.runtimeStageId}, e.index);
        else if (e.type == eventtype::LlmEnd && !e.runtimeStageId.empty())
            m_endByKey.emplace(Key{e.runId, e.runtimeStageId}, e.index);
    }
}

bool CallKeyEvents::complete(CallRecord &call) const
{
    const Key key{call.runId, call.callRuntimeStageId};
    bool got = false;
    if (!call.llmStartEvent)
        if (auto it = m_startByKey.find(key); it != m_startByKey.end()) {
            call.llmStartEvent = it->second;
            got = true;
        }
    if (!call.llmEndEvent)
        if (auto it = m_endByKey.find(key); it != m_endByKey.end()) {
            call.llmEndEvent = it->second;
            got = true;
        }
    return got;
}

void bracketCall(const Run &run, std::vector<CallRecord> &calls, std::size_t c)
{
    CallRecord &call = calls[c];
    call.routeEvent.reset();
    call.iterationEndEvent.reset();
    call.toolEvents.clear();
    if (!call.llmEndEvent)
        return;
    std::size_t stop = run.events.size();
    for (std::size_t n = c + 1; n < calls.size(); ++n)
        if (calls[n].llmStartEvent) {
            stop = *calls[n].llmStartEvent;
            break;
        }
    for (std::size_t i = *call.llmEndEvent + 1; i < stop && i < run.events.size(); ++i) {
        const Event &e = run.events[i];
        if (e.type == eventtype::RouteDecided && !call.routeEvent)
            call.routeEvent = i;
        else if (e.type == eventtype::IterationEnd && !call.iterationEndEvent)
            call.iterationEndEvent = i;
        else if (e.type == eventtype::ToolStart || e.type == eventtype::ToolProgress || e.type == eventtype::ToolEnd)
            call.toolEvents.push_back(i);
    }
}

} // namespace tf::recording::detail
