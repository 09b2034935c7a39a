#include "eventrunindex.h"

#include "builders.h"

namespace tf::recording::detail {

namespace {

// A call whose llm_start has no llm_end yet is still waiting for its response — unless the run ended after it
// (a crash, a pause, the turn's end): then the response will never come, and the call is shown as it is.
bool runEndedAfter(const Run &run, std::size_t eventIndex)
{
    for (std::size_t i = eventIndex + 1; i < run.events.size(); ++i) {
        const std::string_view t = run.events[i].type;
        if (t == eventtype::TurnEnd || t == eventtype::ErrorFatal || t == eventtype::PauseRequest)
            return true;
    }
    return false;
}

void holdBackCallsAwaitingResponse(Run &run)
{
    std::size_t keep = run.calls.size();
    while (keep > 0) {
        const CallRecord &call = run.calls[keep - 1];
        if (call.llmEndEvent || !call.llmStartEvent || runEndedAfter(run, *call.llmStartEvent))
            break;
        --keep;
    }
    run.callsAwaitingResponse = run.calls.size() - keep;
    run.calls.resize(keep);
}

} // namespace

void EventRunIndex::extend(const Run &run)
{
    m_facts.extend(run);
    m_keys.extend(run);
    m_callBuilder.extend(run, m_calls);
    m_story.extend(run);
    // A call followed by another still waiting for its response (its run's next llm_start has not come: another run
    // goes on meanwhile) is bracketed again at each extend until it gets it or stops waiting, on its own, so that the
    // calls after it settle.
    std::erase_if(m_awaitingAfterNext, [&](std::size_t c) {
        bracketCall(run, m_calls, c);
        if (m_callBuilder.awaitsResponse(m_calls, c))
            return false;
        if (!m_calls[c].llmEndEvent)
            m_bracketedWithoutResponse.push_back(c);
        return true;
    });
    for (std::size_t c = m_bracketed; c < m_calls.size(); ++c)
        bracketCall(run, m_calls, c);
    for (; m_bracketed + 1 < m_calls.size(); ++m_bracketed)
        if (m_callBuilder.awaitsResponse(m_calls, m_bracketed))
            m_awaitingAfterNext.push_back(m_bracketed);
        else if (!m_calls[m_bracketed].llmEndEvent)
            m_bracketedWithoutResponse.push_back(m_bracketed);
}

void EventRunIndex::publish(Run &run, Calls calls) const &
{
    m_facts.apply(run);
    run.calls = m_calls;
    completeCalls(run, calls);
    m_story.finish(run);
    checkRun(run);
}

void EventRunIndex::publish(Run &run, Calls calls) &&
{
    m_facts.apply(run);
    run.calls = std::move(m_calls);
    completeCalls(run, calls);
    std::move(m_story).finish(run);
    checkRun(run);
}

void EventRunIndex::completeCalls(Run &run, Calls calls) const
{
    // A response outside its call's window (the first llm_end of the call's stage anywhere) is the call's after all.
    const auto complete = [&](std::size_t c) {
        if (!run.calls[c].llmEndEvent && m_keys.complete(run.calls[c]))
            bracketCall(run, run.calls, c);
    };
    for (const std::vector<std::size_t> *list : {&m_bracketedWithoutResponse, &m_awaitingAfterNext})
        for (std::size_t c : *list)
            complete(c);
    for (std::size_t c = m_bracketed; c < run.calls.size(); ++c)
        complete(c);
    if (calls == Calls::HoldBackAwaitingResponse)
        holdBackCallsAwaitingResponse(run);
}

void indexEventRun(Run &run)
{
    EventRunIndex index;
    index.extend(run);
    std::move(index).publish(run, EventRunIndex::Calls::All);
}

} // namespace tf::recording::detail
