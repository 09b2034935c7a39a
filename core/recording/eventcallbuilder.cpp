#include "eventcallbuilder.h"

#include <algorithm>

namespace tf::recording::detail {

void EventCallBuilder::extend(const Run &run, std::vector<CallRecord> &calls)
{
    // When every llm_start makes a call, `calls` is grown once for a file read whole, and by doubling at least for a
    // log that grows: a vector doubling its way to thousands of records moves each several times.
    if (!m_wanted) {
        std::size_t starts = 0;
        for (std::size_t i = m_read; i < run.events.size(); ++i)
            starts += run.events[i].type == eventtype::LlmStart ? 1 : 0;
        if (calls.size() + starts > calls.capacity())
            calls.reserve(std::max(calls.size() + starts, 2 * calls.capacity()));
    }
    for (; m_read < run.events.size(); ++m_read) {
        const Event &e = run.events[m_read];
        if (e.type == eventtype::TurnStart) {
            if (!m_firstTurnStart) {
                m_firstTurnStart = e.index;
                for (std::size_t c : m_beforeAnyTurnStart)
                    calls[c].turnStartEvent = e.index;
                m_beforeAnyTurnStart.clear();
            }
            m_lastTurnStart = e.index;
            m_historyByIteration.clear();
            continue;
        }
        if (e.type == eventtype::IterationEnd) {
            if (e.payloadIterIndex && e.payloadHasHistory)
                m_historyByIteration[*e.payloadIterIndex] = e.index;
            continue;
        }
        if (e.type == eventtype::LlmEnd) {
            // A call's response is the first llm_end of its run, of its stage or iteration, before the run's next
            // llm_start.
            if (auto it = m_awaitingResponse.find(e.runId); it != m_awaitingResponse.end()) {
                CallRecord &call = calls[it->second];
                const Event &start = run.events[*call.llmStartEvent];
                if (e.runtimeStageId == start.runtimeStageId || e.iteration() == start.iteration()) {
                    call.llmEndEvent = e.index;
                    m_awaitingResponse.erase(it);
                }
            }
            continue;
        }
        if (e.type != eventtype::LlmStart)
            continue;
        m_awaitingResponse.erase(e.runId);
        // Context events of iteration k come after iteration_end(k-1) and before this llm_start (§2.2).
        const std::size_t injectedBegin = m_injectedFrom;
        m_injectedFrom = e.index + 1;
        if (m_wanted && !m_wanted(e))
            continue;
        CallRecord rec;
        rec.ordinal = calls.size();
        rec.callRuntimeStageId = std::string(e.runtimeStageId);
        rec.runId = e.runId;
        rec.logName = "events";
        rec.basis = FoldBasis::EventsOnly;
        rec.llmStartEvent = e.index;
        rec.turnStartEvent = m_lastTurnStart ? m_lastTurnStart : m_firstTurnStart;
        if (!rec.turnStartEvent)
            m_beforeAnyTurnStart.push_back(calls.size());
        if (auto iteration = e.iteration()) {
            rec.epoch = *iteration;
        } else {
            rec.epoch = int(calls.size()) + 1;
            rec.epochByPosition = true;
        }
        for (std::size_t i = injectedBegin; i < e.index; ++i)
            if (run.events[i].type == eventtype::ContextInjected)
                rec.injectedEvents.push_back(i);
        if (auto it = m_historyByIteration.find(rec.epoch - 1); it != m_historyByIteration.end())
            rec.historyEvent = it->second;
        m_awaitingResponse[e.runId] = calls.size();
        calls.push_back(std::move(rec));
    }
}

bool EventCallBuilder::awaitsResponse(const std::vector<CallRecord> &calls, std::size_t c) const
{
    const auto it = m_awaitingResponse.find(calls[c].runId);
    return it != m_awaitingResponse.end() && it->second == c;
}

} // namespace tf::recording::detail
