#include "builders.h"
#include "numberconv.h"
#include "runstorybuilder.h"

#include "core/io/passedpages.h"
#include "core/json/writer.h"

#include <algorithm>

namespace tf::recording {

const char *outcomeStatusId(OutcomeStatus status)
{
    switch (status) {
    case OutcomeStatus::Completed:
        return "completed";
    case OutcomeStatus::Failed:
        return "failed";
    case OutcomeStatus::Paused:
        return "paused";
    case OutcomeStatus::Incomplete:
        return "incomplete";
    }
    return "incomplete";
}

namespace detail {

namespace {

std::optional<std::string> stringMember(const json::Value &object, std::string_view key)
{
    if (const json::Value *v = object.findString(key))
        return v->decodedString();
    return std::nullopt;
}

// "name value" pairs of a payload's scalar members, for a one-line limit message.
std::string scalarsOf(const json::Value &payload, std::initializer_list<std::string_view> keys)
{
    std::string out;
    for (std::string_view key : keys) {
        const json::Value *v = payload.find(key);
        if (!v || v->isObject() || v->isArray())
            continue;
        if (!out.empty())
            out += ", ";
        out += std::string(key) + " " + (v->isString() ? v->decodedString() : json::stringify(*v));
    }
    return out;
}

// Which call an event belongs to: the last call whose llm_start is at or before it.
class CallAtEvent
{
public:
    explicit CallAtEvent(const Run &run)
    {
        for (const CallRecord &c : run.calls)
            if (c.llmStartEvent)
                m_starts.emplace_back(*c.llmStartEvent, c.ordinal);
        std::sort(m_starts.begin(), m_starts.end());
    }
    std::optional<std::size_t> before(std::size_t event) const
    {
        auto it = std::upper_bound(m_starts.begin(), m_starts.end(), std::make_pair(event, std::size_t(-1)));
        if (it == m_starts.begin())
            return std::nullopt;
        return std::prev(it)->second;
    }
    std::optional<std::size_t> after(std::size_t event) const
    {
        auto it = std::upper_bound(m_starts.begin(), m_starts.end(), std::make_pair(event, std::size_t(-1)));
        if (it == m_starts.end())
            return std::nullopt;
        return it->second;
    }

private:
    std::vector<std::pair<std::size_t, std::size_t>> m_starts;
};

std::string lastOnRecord(const Run &run, const CallAtEvent &calls)
{
    if (run.events.empty())
        return "the recording holds no events";
    const Event &last = run.events.back();
    std::string out = "the last event on record is " + std::string(last.type);
    if (const std::optional<std::size_t> c = calls.before(last.index)) {
        const CallRecord &call = run.calls[*c];
        out += " after call " + std::to_string(*c + 1);
        if (!call.llmEndEvent)
            out += ", which has no response on record";
    }
    return out;
}

// `fatal`: the first error.fatal; `pause`: the last pause request no resume followed.
RunOutcome outcomeOf(const Run &run, const CallAtEvent &calls, std::optional<std::size_t> fatal,
                     std::optional<std::size_t> pause)
{
    RunOutcome o;
    if (fatal) {
        o.status = OutcomeStatus::Failed;
        o.event = fatal;
        const json::Value payload = run.payload(run.events[*fatal]);
        o.message = stringMember(payload, "error");
        if (!o.message)
            if (const json::Value *error = payload.find("error"))
                o.message = json::stringify(*error);
        o.call = calls.before(*fatal);
        return o;
    }
    if (pause) {
        o.status = OutcomeStatus::Paused;
        o.event = pause;
        const json::Value payload = run.payload(run.events[*pause]);
        const json::Value *question = payload.findObject("questionPayload");
        o.message = question ? stringMember(*question, "question") : std::nullopt;
        if (!o.message)
            o.message = stringMember(payload, "reason");
        // The call whose response asked for the paused tool; else the call the pause came after.
        o.call = calls.before(*pause);
        if (const std::optional<std::string> id = question ? stringMember(*question, "toolCallId") : std::nullopt)
            for (const CallRecord &c : run.calls)
                for (std::size_t i : c.toolEvents)
                    if (run.events[i].type == eventtype::ToolStart && run.events[i].toolCallId == *id)
                        o.call = c.ordinal;
        return o;
    }
    if (!run.turns.empty() && run.turns.back().ended) {
        o.status = OutcomeStatus::Completed;
        return o;
    }
    o.status = OutcomeStatus::Incomplete;
    o.message = lastOnRecord(run, calls);
    return o;
}

// The limit an event says the run hit, its call left to find; nullopt for any other event.
std::optional<RunLimit> limitOf(const Run &run, const Event &e)
{
    RunLimit limit;
    limit.event = e.index;
    if (e.type == eventtype::BudgetExhausted) {
        limit.kind = "budget_exhausted";
        limit.message = scalarsOf(run.payload(e), {"reason", "limit", "pendingToolCalls", "action"});
    } else if (e.type == eventtype::CostLimitHit) {
        limit.kind = "cost.limit_hit";
        limit.message = scalarsOf(run.payload(e), {"kind", "limit", "actual", "action"});
    } else if (e.type == eventtype::BudgetPressure) {
        limit.kind = "context.budget_pressure";
        limit.message = scalarsOf(run.payload(e), {"slot", "cap", "projected", "overflowBy", "unit", "planAction"});
    } else if (e.type == eventtype::RouteDecided && e.payloadChoseWrapUp) {
        limit.kind = "wrap-up";
        limit.message = stringMember(run.payload(e), "rationale").value_or("route_decided chose wrap-up");
    } else {
        return std::nullopt;
    }
    return limit;
}

} // namespace

void RunStoryBuilder::readTurn(const Run &run, const Event &e)
{
    const auto open = [&](const Event *opener) {
        Turn t;
        t.number = m_turns.size() + 1;
        if (opener)
            t.runId = std::string(opener->runId);
        m_turns.push_back(std::move(t));
    };
    const bool ownRun = e.hasOwnRunId();
    if (e.type == eventtype::TurnStart) {
        if (m_fresh && m_turns.back().runId.empty())
            m_turns.back().runId = std::string(e.runId);
        else if (!m_fresh)
            open(&e);
        m_turns.back().userPrompt = stringMember(run.payload(e), "userPrompt");
        m_fresh = false;
    } else if (!m_anyTurnStart && ownRun && e.runId != m_lastRun) {
        if (m_fresh)
            m_turns.back().runId = std::string(e.runId);
        else
            open(&e);
        m_fresh = true;
    }
    if (ownRun)
        m_lastRun = e.runId;
    if (m_turns.empty()) {
        open(ownRun ? &e : nullptr);
        m_fresh = true;
    }
    if (e.type == eventtype::LlmStart)
        m_fresh = false;
    m_turnAt.push_back(std::uint32_t(m_turns.size() - 1));
    if (e.type == eventtype::TurnEnd) {
        Turn &t = m_turns.back();
        t.ended = true;
        t.finalAnswer = stringMember(run.payload(e), "finalContent");
        if (t.runId.empty())
            t.runId = std::string(e.runId);
    }
}

void RunStoryBuilder::extend(const Run &run)
{
    // The payloads read are those of a few event types, in file order: the pages behind are let go.
    io::PassedPages passed(run.source.get());
    for (; m_read < run.events.size(); ++m_read) {
        const Event &e = run.events[m_read];
        passed.at(std::size_t(e.payloadOffset));
        if (e.type == eventtype::TurnStart && !m_anyTurnStart) {
            m_anyTurnStart = true;
            if (m_read > 0) {
                // The events before it opened turns by run id; with a turn_start on record they do not.
                m_turns.clear();
                m_turnAt.clear();
                m_fresh = false;
                m_lastRun = {};
                for (std::size_t i = 0; i < m_read; ++i)
                    readTurn(run, run.events[i]);
            }
        }
        readTurn(run, e);
        if (!e.toolCallId.empty() && (e.type == eventtype::ToolEnd || e.type == eventtype::ToolStart))
            (e.type == eventtype::ToolEnd ? m_toolEndByCallId : m_toolStartByCallId)[e.toolCallId] = e.index;
        if (e.type == eventtype::ErrorFatal && !m_fatal)
            m_fatal = e.index;
        else if (e.type == eventtype::PauseRequest)
            m_pause = e.index;
        else if (e.type == eventtype::PauseResume)
            m_pause.reset();
        if (std::optional<RunLimit> limit = limitOf(run, e))
            m_limits.push_back(std::move(*limit));
    }
}

void RunStoryBuilder::finish(Run &run) const &
{
    finishWith(run, m_turns, m_toolEndByCallId, m_toolStartByCallId, m_limits);
}

void RunStoryBuilder::finish(Run &run) &&
{
    finishWith(run, std::move(m_turns), std::move(m_toolEndByCallId), std::move(m_toolStartByCallId),
               std::move(m_limits));
}

void RunStoryBuilder::finishWith(Run &run, std::vector<Turn> turns, ToolCallMap toolEnds, ToolCallMap toolStarts,
                                 std::vector<RunLimit> limits) const
{
    run.toolEndByCallId = std::move(toolEnds);
    run.toolStartByCallId = std::move(toolStarts);
    run.turns = std::move(turns);
    if (run.turns.empty() && !run.calls.empty())
        run.turns.emplace_back();
    std::size_t turn = 0;
    for (CallRecord &call : run.calls) {
        if (call.llmStartEvent && *call.llmStartEvent < m_turnAt.size())
            turn = m_turnAt[*call.llmStartEvent];
        call.turn = turn;
        run.turns[turn].calls.push_back(call.ordinal);
    }
    if (run.turns.size() == 1 && run.turns.front().runId.empty())
        run.turns.front().runId = run.runId;
    const CallAtEvent calls(run);
    run.outcome = outcomeOf(run, calls, m_fatal, m_pause);
    run.limits = std::move(limits);
    for (RunLimit &limit : run.limits) // pressure is felt by the call it is composed for
        limit.call = limit.kind == "context.budget_pressure" ? calls.after(limit.event) : calls.before(limit.event);
}

void buildRunStory(Run &run)
{
    RunStoryBuilder story;
    story.extend(run);
    std::move(story).finish(run);
}

} // namespace detail
} // namespace tf::recording
