#include "builders.h"
#include "numberconv.h"

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

void buildTurns(Run &run)
{
    const bool anyTurnStart = std::any_of(run.events.begin(), run.events.end(),
                                          [](const Event &e) { return e.type == eventtype::TurnStart; });
    // The turn in force at each event; turns are opened by a turn_start, or (with none in the file) by a new run id.
    std::vector<std::size_t> turnAt(run.events.size(), 0);
    std::string_view lastRun;
    const auto open = [&](const Event *e) {
        Turn t;
        t.number = run.turns.size() + 1;
        if (e)
            t.runId = std::string(e->runId);
        run.turns.push_back(std::move(t));
    };
    // An implicit turn (opened for events before any turn_start, such as run_configured) that no call has started
    // in yet is the one the next turn_start names.
    bool fresh = false;
    io::PassedPages passed(run.source.get()); // the events' payloads are read in file order
    for (const Event &e : run.events) {
        passed.at(std::size_t(e.payloadOffset));
        const bool ownRun = !e.runId.empty() && e.runId != kConsumerScopeRunId;
        if (e.type == eventtype::TurnStart) {
            if (fresh && run.turns.back().runId.empty())
                run.turns.back().runId = std::string(e.runId);
            else if (!fresh)
                open(&e);
            run.turns.back().userPrompt = stringMember(run.payload(e), "userPrompt");
            fresh = false;
        } else if (!anyTurnStart && ownRun && e.runId != lastRun) {
            if (fresh)
                run.turns.back().runId = std::string(e.runId);
            else
                open(&e);
            fresh = true;
        }
        if (ownRun)
            lastRun = e.runId;
        if (run.turns.empty()) {
            open(ownRun ? &e : nullptr);
            fresh = true;
        }
        if (e.type == eventtype::LlmStart)
            fresh = false;
        turnAt[e.index] = run.turns.size() - 1;
        if (e.type == eventtype::TurnEnd) {
            Turn &t = run.turns.back();
            t.ended = true;
            t.finalAnswer = stringMember(run.payload(e), "finalContent");
            if (t.runId.empty())
                t.runId = std::string(e.runId);
        }
    }
    if (run.turns.empty() && !run.calls.empty())
        open(nullptr);
    std::size_t turn = 0;
    for (CallRecord &call : run.calls) {
        if (call.llmStartEvent && *call.llmStartEvent < turnAt.size())
            turn = turnAt[*call.llmStartEvent];
        call.turn = turn;
        run.turns[turn].calls.push_back(call.ordinal);
    }
    if (run.turns.size() == 1 && run.turns.front().runId.empty())
        run.turns.front().runId = run.runId;
}

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

void buildOutcome(Run &run, const CallAtEvent &calls)
{
    std::optional<std::size_t> fatal, pause;
    for (const Event &e : run.events) {
        if (e.type == eventtype::ErrorFatal && !fatal)
            fatal = e.index;
        else if (e.type == eventtype::PauseRequest)
            pause = e.index;
        else if (e.type == eventtype::PauseResume)
            pause.reset();
    }
    RunOutcome &o = run.outcome;
    if (fatal) {
        o.status = OutcomeStatus::Failed;
        o.event = fatal;
        const json::Value payload = run.payload(run.events[*fatal]);
        o.message = stringMember(payload, "error");
        if (!o.message)
            if (const json::Value *error = payload.find("error"))
                o.message = json::stringify(*error);
        o.call = calls.before(*fatal);
        return;
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
        return;
    }
    if (!run.turns.empty() && run.turns.back().ended) {
        o.status = OutcomeStatus::Completed;
        return;
    }
    o.status = OutcomeStatus::Incomplete;
    o.message = lastOnRecord(run, calls);
}

void buildLimits(Run &run, const CallAtEvent &calls)
{
    // A payload per call (route_decided) is read: the pages around each, all over the file, unless let go behind.
    io::PassedPages passed(run.source.get());
    for (const Event &e : run.events) {
        passed.at(std::size_t(e.payloadOffset));
        RunLimit limit;
        limit.event = e.index;
        limit.call = calls.before(e.index);
        if (e.type == eventtype::BudgetExhausted) {
            limit.kind = "budget_exhausted";
            limit.message = scalarsOf(run.payload(e), {"reason", "limit", "pendingToolCalls", "action"});
        } else if (e.type == eventtype::CostLimitHit) {
            limit.kind = "cost.limit_hit";
            limit.message = scalarsOf(run.payload(e), {"kind", "limit", "actual", "action"});
        } else if (e.type == eventtype::BudgetPressure) {
            limit.kind = "context.budget_pressure";
            limit.message = scalarsOf(run.payload(e), {"slot", "cap", "projected", "overflowBy", "unit", "planAction"});
            limit.call = calls.after(e.index); // pressure is felt by the call it is composed for
        } else if (e.type == eventtype::RouteDecided && e.payloadChoseWrapUp) {
            limit.kind = "wrap-up";
            limit.message = stringMember(run.payload(e), "rationale").value_or("route_decided chose wrap-up");
        } else {
            continue;
        }
        run.limits.push_back(std::move(limit));
    }
}

} // namespace

void buildRunStory(Run &run)
{
    run.toolEndByCallId.clear();
    run.toolStartByCallId.clear();
    for (const Event &e : run.events)
        if (!e.toolCallId.empty() && (e.type == eventtype::ToolEnd || e.type == eventtype::ToolStart))
            (e.type == eventtype::ToolEnd ? run.toolEndByCallId : run.toolStartByCallId)[e.toolCallId] = e.index;
    buildTurns(run);
    const CallAtEvent calls(run);
    buildOutcome(run, calls);
    buildLimits(run, calls);
}

} // namespace detail
} // namespace tf::recording
