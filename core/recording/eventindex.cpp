#include "builders.h"
#include "numberconv.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace tf::recording {

namespace detail {

namespace {

std::optional<double> numberAt(const json::Value &object, std::string_view key)
{
    if (const json::Value *v = object.findNumber(key))
        return v->asNumber();
    return std::nullopt;
}

// What is wrong with an item that should be a typed event.
struct EventFault
{
    enum class Kind
    {
        None,
        NoType,
        PayloadNotObject,
        MetaNotObject
    };
    Kind kind = Kind::None;
    const json::Value *member = nullptr; // the payload or meta of the wrong type
};

// The one rule for reading an event object: a string `type`, `payload` and `meta` objects when present. Fills `e`
// (strings still viewing `raw`) or says what is wrong.
EventFault readEvent(const json::Value &raw, Event &e)
{
    const json::Value *type = raw.isObject() ? raw.findString("type") : nullptr;
    if (!type)
        return {EventFault::Kind::NoType, nullptr};
    e.type = type->asString();
    if (const json::Value *payload = raw.find("payload")) {
        if (!payload->isObject())
            return {EventFault::Kind::PayloadNotObject, payload};
        e.payloadOffset = payload->sourceOffset();
        if (const json::Value *it = payload->findNumber("iteration"))
            e.payloadIteration = toInt(it->asNumber());
        if (const json::Value *id = payload->findString("toolCallId"))
            e.toolCallId = id->asString();
        if (const json::Value *error = payload->find("error"); error && error->isBool())
            e.payloadError = error->asBool();
        e.payloadHasModelResult = payload->find("modelResult") != nullptr;
        if (e.type == eventtype::IterationEnd) {
            if (const json::Value *k = payload->findNumber("iterIndex"))
                e.payloadIterIndex = toInt(k->asNumber());
            e.payloadHasHistory = payload->findArray("history") != nullptr;
        } else if (e.type == eventtype::RouteDecided) {
            const json::Value *chosen = payload->findString("chosen");
            e.payloadChoseWrapUp = chosen && chosen->decodedString() == "wrap-up";
        }
    }
    if (const json::Value *meta = raw.find("meta")) {
        if (!meta->isObject())
            return {EventFault::Kind::MetaNotObject, meta};
        e.metaOffset = meta->sourceOffset();
        if (const json::Value *id = meta->findString("runtimeStageId"))
            e.runtimeStageId = id->asString();
        if (const json::Value *id = meta->findString("runId"))
            e.runId = id->asString();
        e.wallClockMs = numberAt(*meta, "wallClockMs");
        e.runOffsetMs = numberAt(*meta, "runOffsetMs");
    }
    return {};
}

} // namespace

std::string_view EventCollector::keep(std::string_view s, bool intern)
{
    if (s.empty())
        return {};
    if (intern) {
        if (auto it = m_interned.find(s); it != m_interned.end())
            return *it;
        const std::string_view copy = m_run.arena->copy(s);
        m_interned.insert(copy);
        return copy;
    }
    return m_run.arena->copy(s);
}

void EventCollector::add(const json::Value &raw)
{
    Event e;
    if (readEvent(raw, e).kind != EventFault::Kind::None) {
        if (!firstBadIndex) {
            firstBadIndex = m_count;
            firstBad = raw;
        }
        ++m_count;
        return;
    }
    ++m_count;
    if (firstBadIndex)
        return; // the list is refused at its first bad item; nothing after it is needed
    // The kept strings are copied: the item's tree is dropped, and views into the file would fault its pages back in
    // whenever a list of events is walked. Types and run ids repeat, so they are kept once.
    e.type = keep(e.type, true);
    e.runtimeStageId = keep(e.runtimeStageId, false);
    e.runId = keep(e.runId, true);
    e.toolCallId = keep(e.toolCallId, false);
    e.index = events.size();
    events.push_back(e);
}

void indexEvents(Run &run, EventCollector &collected, const LoadErrors &errors, const std::vector<json::PathStep> &at,
                 const LoadControl &control)
{
    control.report(0.72, "Indexing events");
    if (collected.firstBadIndex) {
        auto path = at;
        path.emplace_back(*collected.firstBadIndex);
        Event ignored;
        const EventFault fault = readEvent(collected.firstBad, ignored);
        if (fault.kind == EventFault::Kind::NoType)
            errors.fail(errors.where(path) + ": expected an event with a string \"type\"");
        path.emplace_back(std::string(fault.kind == EventFault::Kind::PayloadNotObject ? "payload" : "meta"));
        errors.wrongType(path, "an object", fault.member);
    }
    EventList all = std::move(collected.events);
    std::vector<std::string> runIds;                 // first-seen order
    std::unordered_set<std::string_view> seenRunIds; // a log with a run id per event must not cost n^2
    for (const Event &e : all)
        if (!e.runId.empty() && e.runId != kConsumerScopeRunId && seenRunIds.insert(e.runId).second)
            runIds.emplace_back(e.runId);

    // spec/runs.md §1: a recording of several runs (a conversation: run() then followUp(), or a resumed pause) is
    // shown whole, every turn. Only a run asked for by id is picked out of a log or an envelope; pause and resume
    // events (consumer scope) stay with it.
    if (!control.runId.empty() &&
        (run.shape == RecordingShape::NdjsonEvents || run.shape == RecordingShape::Envelope)) {
        const std::string &chosen = control.runId;
        if (seenRunIds.count(chosen) == 0)
            errors.fail("no run " + chosen + " in this log; runs found: " + std::to_string(runIds.size()));
        EventList kept;
        for (Event e : all)
            if (e.runId == chosen || e.runId.empty() || e.runId == kConsumerScopeRunId) {
                e.index = kept.size();
                kept.push_back(e);
            }
        all = std::move(kept);
        run.warnings.push_back("this log holds " + std::to_string(runIds.size()) + " runs; showing " + chosen);
        run.runId = chosen;
        runIds = {chosen};
    }
    if (run.runId.empty() && !runIds.empty())
        run.runId = runIds.front();
    run.runIds = std::move(runIds);

    static const std::vector<std::string_view> known = {
        eventtype::RunConfigured,   eventtype::TurnStart,        eventtype::TurnEnd,      eventtype::IterationStart,
        eventtype::IterationEnd,    eventtype::RouteDecided,     eventtype::LlmStart,     eventtype::LlmEnd,
        eventtype::Token,           eventtype::ToolStart,        eventtype::ToolProgress, eventtype::ToolEnd,
        eventtype::ContextInjected, eventtype::ContextEvaluated, eventtype::SlotComposed};
    run.events = std::move(all);
    for (const Event &e : run.events) {
        // Other domains (findings.*, skill.*, cost.*, ...) are kept and shown raw; only count what no rule reads.
        const bool isKnown =
            std::find(known.begin(), known.end(), e.type) != known.end() || eventtype::isNewerType(e.type);
        const bool otherDomain = e.type.rfind("agentfootprint.", 0) == 0;
        if (!isKnown && !otherDomain)
            ++run.unknownEventTypes[std::string(e.type)];
        const bool wanted = e.type == eventtype::RunConfigured || e.type == eventtype::TurnEnd ||
                            (e.type == eventtype::LlmStart && (run.model.empty() || run.provider.empty()));
        if (!wanted)
            continue;
        const json::Value payload = run.payload(e);
        if (e.type == eventtype::RunConfigured) {
            if (const json::Value *mode = payload.findString("reactMode"); mode && run.reactMode.empty())
                run.reactMode = mode->decodedString();
            if (const json::Value *llm = payload.findObject("llm")) {
                if (const json::Value *m = llm->findString("model"); m && run.model.empty())
                    run.model = m->decodedString();
                if (const json::Value *p = llm->findString("provider"); p && run.provider.empty())
                    run.provider = p->decodedString();
            }
        } else if (e.type == eventtype::TurnEnd) {
            if (const json::Value *answer = payload.findString("finalContent"))
                run.finalAnswer = answer->decodedString();
            run.totalInputTokens = numberAt(payload, "totalInputTokens");
            run.totalOutputTokens = numberAt(payload, "totalOutputTokens");
            run.durationMs = numberAt(payload, "durationMs");
        } else if (e.type == eventtype::LlmStart) {
            if (const json::Value *m = payload.findString("model"); m && run.model.empty())
                run.model = m->decodedString();
            if (const json::Value *p = payload.findString("provider"); p && run.provider.empty())
                run.provider = p->decodedString();
        }
    }
}

void attachEvents(Run &run)
{
    // A call is (run id, stage id): in a conversation every turn has its own call-llm#18.
    struct CallKey
    {
        std::string_view runId, stage;
        bool operator==(const CallKey &) const = default;
    };
    struct CallKeyHash
    {
        std::size_t operator()(const CallKey &k) const
        {
            return std::hash<std::string_view>{}(k.runId) * 31 + std::hash<std::string_view>{}(k.stage);
        }
    };
    assignSnapshotRun(run);
    std::unordered_map<CallKey, std::size_t, CallKeyHash> startByStage, endByStage;
    for (const Event &e : run.events) {
        if (e.type == eventtype::LlmStart && !e.runtimeStageId.empty())
            startByStage.emplace(CallKey{e.runId, e.runtimeStageId}, e.index);
        else if (e.type == eventtype::LlmEnd && !e.runtimeStageId.empty())
            endByStage.emplace(CallKey{e.runId, e.runtimeStageId}, e.index);
    }
    for (CallRecord &call : run.calls) {
        const CallKey key{call.runId, call.callRuntimeStageId};
        if (!call.llmStartEvent)
            if (auto it = startByStage.find(key); it != startByStage.end())
                call.llmStartEvent = it->second;
        if (!call.llmEndEvent)
            if (auto it = endByStage.find(key); it != endByStage.end())
                call.llmEndEvent = it->second;
    }
    // Route and tool brackets: the events after this call's llm_end up to the next call's llm_start.
    for (std::size_t c = 0; c < run.calls.size(); ++c) {
        CallRecord &call = run.calls[c];
        if (!call.llmEndEvent)
            continue;
        std::size_t stop = run.events.size();
        for (std::size_t n = c + 1; n < run.calls.size(); ++n)
            if (run.calls[n].llmStartEvent) {
                stop = *run.calls[n].llmStartEvent;
                break;
            }
        for (std::size_t i = *call.llmEndEvent + 1; i < stop && i < run.events.size(); ++i) {
            const Event &e = run.events[i];
            if (e.type == eventtype::RouteDecided && !call.routeEvent)
                call.routeEvent = i;
            else if (e.type == eventtype::IterationEnd && !call.iterationEndEvent)
                call.iterationEndEvent = i;
            else if (e.type == eventtype::ToolStart || e.type == eventtype::ToolProgress ||
                     e.type == eventtype::ToolEnd)
                call.toolEvents.push_back(i);
        }
    }
    if (run.model.empty() || run.provider.empty()) {
        for (const CallRecord &call : run.calls) {
            if (!call.receiptCommitted)
                continue;
            const std::optional<json::Value> receipt = run.receiptAfter(call);
            if (const json::Value *basis = receipt ? receipt->findObject("basis") : nullptr) {
                if (const json::Value *m = basis->findString("model"); m && run.model.empty())
                    run.model = m->decodedString();
                if (const json::Value *p = basis->findString("provider"); p && run.provider.empty())
                    run.provider = p->decodedString();
            }
            if (!run.model.empty() && !run.provider.empty())
                break;
        }
    }
}

void finishRun(Run &run)
{
    buildRunStory(run);
    // §9 item 2: a head dropped by the event cap.
    if (!run.events.empty() && run.shape != RecordingShape::Envelope) {
        const std::string_view first = run.events.front().type;
        if (first != eventtype::RunConfigured && first != eventtype::TurnStart)
            run.gaps.push_back({"truncated-event-head",
                                Gap::Kind::Note,
                                {},
                                "",
                                "The first event is neither run_configured nor turn_start: the oldest events may "
                                "have been dropped by the recorder's cap."});
    }
    for (const CallRecord &call : run.calls)
        if (call.llmEndEvent && !call.llmStartEvent && !run.events.empty()) {
            run.gaps.push_back({"llm-end-without-start",
                                Gap::Kind::Note,
                                {},
                                "",
                                "A call has an llm_end with no llm_start: the event list is incomplete."});
            break;
        }
    if (run.events.empty() && run.shape != RecordingShape::Reference)
        run.gaps.push_back({"no-events", Gap::Kind::Note, {}, "", "The recording holds no events."});
    if (run.shape == RecordingShape::Reference)
        run.gaps.push_back({"no-events",
                            Gap::Kind::Note,
                            {},
                            "",
                            "A byte-identity reference holds no events: provider usage, latency and cache tokens "
                            "are not on record."});
    if (!run.hasChart)
        run.gaps.push_back({"no-chart", Gap::Kind::Note, {}, "", "No structure (chart) in this recording."});
    if (run.runId.empty())
        run.gaps.push_back({"no-run-id", Gap::Kind::Note, {}, "", "No event-meta run id is on record."});
    // §5.1: two calls with one epoch are both kept and flagged.
    std::unordered_map<int, std::size_t> firstWithEpoch;
    for (std::size_t i = 0; i < run.calls.size(); ++i) {
        auto [it, inserted] = firstWithEpoch.emplace(run.calls[i].epoch, i);
        if (!inserted)
            run.calls[i].duplicateEpoch = run.calls[it->second].duplicateEpoch = true;
    }
    if (run.calls.empty())
        run.warnings.push_back("no LLM call found in this recording");
}

} // namespace detail
} // namespace tf::recording
