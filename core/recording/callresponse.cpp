#include "callinternals.h"
#include "numberconv.h"
#include "numbermember.h"

#include "core/json/writer.h"

namespace tf::recording {

std::string ToolCallRequest::argsText() const
{
    return json::prettyPrint(args);
}

std::optional<std::string> ToolCallRequest::findingsText() const
{
    return findings ? std::optional(json::prettyPrint(*findings)) : std::nullopt;
}

std::string ToolRun::argsText() const
{
    return json::prettyPrint(args);
}

ToolResultFacts toolResultFacts(const Run &run, std::string_view toolCallId)
{
    ToolResultFacts f;
    const Event *end = run.toolEnd(toolCallId);
    if (!end)
        return f;
    f.onRecord = true;
    f.error = end->payloadError;
    if (!end->payloadHasModelResult)
        return f; // the payload (a result that may be megabytes) is parsed only for the raw result it then holds
    const json::Value payload = run.payload(*end);
    if (!payload.contains("modelResult"))
        return f; // the file no longer says so (it changed under the reader)
    f.stripped = true;
    if (const json::Value *raw = payload.find("result"))
        f.rawResult = raw->isString() ? raw->decodedString() : json::stringify(*raw);
    return f;
}

} // namespace tf::recording

namespace tf::recording::detail {

namespace {

std::string stringOr(const json::Value &object, std::string_view key)
{
    const json::Value *v = object.findString(key);
    return v ? v->decodedString() : std::string();
}

// {id, name, args} as the assistant message (or llmLatestToolCalls) holds it; args._findings is set apart.
ToolCallRequest requestOf(const json::Value &call, std::string_view argsKey)
{
    ToolCallRequest r;
    r.id = stringOr(call, "id");
    if (r.id.empty())
        r.id = stringOr(call, "toolCallId");
    r.name = stringOr(call, "name");
    if (r.name.empty())
        r.name = stringOr(call, "toolName");
    if (const json::Value *args = call.findObject(argsKey)) {
        r.args = *args;
        if (const json::Value *findings = args->find("_findings")) {
            r.findings = *findings;
            r.args.erase("_findings");
        }
    }
    return r;
}

bool readRequests(const json::Value &calls, Response &response)
{
    if (!calls.isArray())
        return false;
    for (const json::Value &c : calls)
        if (c.isObject())
            response.toolCalls.push_back(requestOf(c, "args"));
    response.toolCallsOnRecord = true;
    return true;
}

// Events-only: the assistant message this response appended, in the history iteration_end carries.
bool requestsFromHistory(const Run &run, const CallRecord &rec, Response &response)
{
    const Event *end = run.event(rec.iterationEndEvent);
    if (!end)
        return false;
    const json::Value payload = run.payload(*end);
    const json::Value *history = payload.findArray("history");
    if (!history)
        return false;
    for (std::size_t i = history->size(); i-- > 0;) {
        const json::Value &m = history->at(i);
        const json::Value *role = m.findString("role");
        if (!role || role->asString() != "assistant")
            continue;
        const json::Value *calls = m.findArray("toolCalls");
        return calls && readRequests(*calls, response);
    }
    return false;
}

std::string missingReason(const Run &run, const CallRecord &rec, const ToolRun &tool)
{
    const RunOutcome &o = run.outcome;
    if (tool.awaitingHuman)
        return "the run paused for a human here; no answer is on record";
    if (o.status == OutcomeStatus::Failed)
        return tool.started ? "the run failed before the tool returned" : "the run failed before the tool ran";
    for (const RunLimit &limit : run.limits)
        if (limit.call == rec.ordinal && (limit.kind == "budget_exhausted" || limit.kind == "wrap-up"))
            return "never run: the run hit its limit (" + limit.message + ")";
    return tool.started ? "no tool_end is on record" : "never run: no tool_start is on record";
}

} // namespace

void readResponse(const Run &run, const CallRecord &rec, CallView &view)
{
    const Event *end = run.event(rec.llmEndEvent);
    if (!end)
        return;
    const json::Value payload = run.payload(*end);
    Response &r = view.response.emplace();
    if (const json::Value *content = payload.findString("content"))
        r.text = content->decodedString();
    r.stopReason = payload.findString("stopReason") ? std::optional(stringOr(payload, "stopReason")) : std::nullopt;
    r.durationMs = numberMember(payload, "durationMs");
    if (const json::Value *usage = payload.findObject("usage")) {
        r.usage.input = numberMember(*usage, "input");
        r.usage.output = numberMember(*usage, "output");
        r.usage.cacheRead = numberMember(*usage, "cacheRead");
        r.usage.cacheWrite = numberMember(*usage, "cacheWrite");
    }
    if (auto count = numberMember(payload, "toolCallCount"))
        r.toolCallCount = toCount(*count);
    if (!view.wallClockMs)
        view.wallClockMs = end->wallClockMs;

    // The tool calls: what the call's bundle committed, else the history this iteration appended, else the
    // tool_start events (which miss a call that never ran).
    if (!(view.toolCallsAfter && readRequests(*view.toolCallsAfter, r)) && !requestsFromHistory(run, rec, r)) {
        for (std::size_t i : rec.toolEvents)
            if (run.events[i].type == eventtype::ToolStart) {
                const json::Value start = run.payload(run.events[i]);
                ToolCallRequest request = requestOf(start, "args");
                request.id = std::string(run.events[i].toolCallId);
                r.toolCalls.push_back(std::move(request));
            }
        r.toolCallsOnRecord = r.toolCallCount && *r.toolCallCount == r.toolCalls.size();
    }
    if (r.toolCallCount == std::size_t(0))
        r.toolCallsOnRecord = true;

    // Tool runs: start/end pairs by toolCallId (parallel calls interleave them).
    for (std::size_t i : rec.toolEvents) {
        const Event &e = run.events[i];
        if (e.type != eventtype::ToolStart && e.type != eventtype::ToolEnd)
            continue;
        ToolRun *tool = nullptr;
        for (ToolRun &t : view.toolRuns)
            if (t.id == e.toolCallId)
                tool = &t;
        const json::Value p = run.payload(e);
        if (e.type == eventtype::ToolStart || !tool) {
            tool = &view.toolRuns.emplace_back();
            tool->id = std::string(e.toolCallId);
        }
        if (e.type == eventtype::ToolStart) {
            tool->started = true;
            tool->startEvent = i;
            tool->name = stringOr(p, "toolName");
            if (const json::Value *args = p.findObject("args")) {
                tool->args = *args;
                tool->args.erase("_findings");
            }
            if (auto parallel = numberMember(p, "parallelCount"))
                tool->parallelCount = toInt(*parallel);
        } else {
            tool->returned = true;
            tool->endEvent = i;
            tool->error = e.payloadError;
            tool->durationMs = numberMember(p, "durationMs");
            const auto text = [](const json::Value &v) {
                return v.isString() ? v.decodedString() : json::stringify(v);
            };
            const json::Value *raw = p.find("result");
            const json::Value *served = p.find("modelResult");
            tool->stripped = served != nullptr;
            if (tool->stripped && raw)
                tool->rawResult = text(*raw);
            if (!served)
                served = raw;
            if (served) {
                tool->resultIsJson = !served->isString();
                tool->result = text(*served);
            }
        }
    }
    // Requests that never started, in request order after the ones that ran.
    for (const ToolCallRequest &request : r.toolCalls) {
        ToolRun *tool = nullptr;
        for (ToolRun &t : view.toolRuns)
            if (t.id == request.id)
                tool = &t;
        if (!tool) {
            tool = &view.toolRuns.emplace_back();
            tool->id = request.id;
            tool->args = request.args;
        }
        if (tool->name.empty())
            tool->name = request.name;
    }
    const RunOutcome &outcome = run.outcome;
    for (ToolRun &t : view.toolRuns)
        if (!t.returned) {
            t.awaitingHuman = outcome.status == OutcomeStatus::Paused && outcome.call == rec.ordinal && t.started;
            t.missingReason = missingReason(run, rec, t);
        }
}

} // namespace tf::recording::detail
