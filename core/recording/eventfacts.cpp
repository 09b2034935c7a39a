#include "eventfacts.h"

#include "numbermember.h"

#include <algorithm>

namespace tf::recording::detail {

void EventFacts::extend(const Run &run)
{
    static const std::vector<std::string_view> known = {
        eventtype::RunConfigured,   eventtype::TurnStart,        eventtype::TurnEnd,      eventtype::IterationStart,
        eventtype::IterationEnd,    eventtype::RouteDecided,     eventtype::LlmStart,     eventtype::LlmEnd,
        eventtype::Token,           eventtype::ToolStart,        eventtype::ToolProgress, eventtype::ToolEnd,
        eventtype::ContextInjected, eventtype::ContextEvaluated, eventtype::SlotComposed};
    for (; m_read < run.events.size(); ++m_read) {
        const Event &e = run.events[m_read];
        if (e.hasOwnRunId() && m_seenRunIds.insert(e.runId).second)
            m_runIds.emplace_back(e.runId);
        // Other domains (findings.*, skill.*, cost.*, ...) are kept and shown raw; only count what no rule reads.
        const bool isKnown =
            std::find(known.begin(), known.end(), e.type) != known.end() || eventtype::isNewerType(e.type);
        const bool otherDomain = e.type.rfind("agentfootprint.", 0) == 0;
        if (!isKnown && !otherDomain)
            ++m_unknownEventTypes[std::string(e.type)];
        const bool wanted = e.type == eventtype::RunConfigured || e.type == eventtype::TurnEnd ||
                            (e.type == eventtype::LlmStart && (m_model.empty() || m_provider.empty()));
        if (!wanted)
            continue;
        const json::Value payload = run.payload(e);
        if (e.type == eventtype::RunConfigured) {
            if (const json::Value *mode = payload.findString("reactMode"); mode && m_reactMode.empty())
                m_reactMode = mode->decodedString();
            if (const json::Value *llm = payload.findObject("llm")) {
                if (const json::Value *m = llm->findString("model"); m && m_model.empty())
                    m_model = m->decodedString();
                if (const json::Value *p = llm->findString("provider"); p && m_provider.empty())
                    m_provider = p->decodedString();
            }
        } else if (e.type == eventtype::TurnEnd) {
            if (const json::Value *answer = payload.findString("finalContent"))
                m_finalAnswer = answer->decodedString();
            m_turnEnded = true;
            m_totalInputTokens = numberMember(payload, "totalInputTokens");
            m_totalOutputTokens = numberMember(payload, "totalOutputTokens");
            m_durationMs = numberMember(payload, "durationMs");
        } else if (e.type == eventtype::LlmStart) {
            if (const json::Value *m = payload.findString("model"); m && m_model.empty())
                m_model = m->decodedString();
            if (const json::Value *p = payload.findString("provider"); p && m_provider.empty())
                m_provider = p->decodedString();
        }
    }
}

void EventFacts::apply(Run &run) const
{
    run.runIds = m_runIds;
    if (run.runId.empty() && !m_runIds.empty())
        run.runId = m_runIds.front();
    run.unknownEventTypes = m_unknownEventTypes;
    if (run.reactMode.empty())
        run.reactMode = m_reactMode;
    if (run.model.empty())
        run.model = m_model;
    if (run.provider.empty())
        run.provider = m_provider;
    if (m_finalAnswer)
        run.finalAnswer = m_finalAnswer;
    if (m_turnEnded) {
        run.totalInputTokens = m_totalInputTokens;
        run.totalOutputTokens = m_totalOutputTokens;
        run.durationMs = m_durationMs;
    }
}

} // namespace tf::recording::detail
