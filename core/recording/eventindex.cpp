#include "builders.h"
#include "callevents.h"
#include "eventfacts.h"
#include "numberconv.h"
#include "numbermember.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace tf::recording {

namespace detail {

namespace {

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
        e.wallClockMs = numberMember(*meta, "wallClockMs");
        e.runOffsetMs = numberMember(*meta, "runOffsetMs");
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
        const std::string_view copy = m_arena.copy(s);
        m_interned.insert(copy);
        return copy;
    }
    return m_arena.copy(s);
}

void EventCollector::append(EventCollector &&later)
{
    if (!firstBadIndex) { // add() keeps nothing after the first bad item
        for (Event e : later.events) {
            e.index = events.size();
            events.push_back(e);
        }
        if (later.firstBadIndex) {
            firstBadIndex = m_count + *later.firstBadIndex;
            firstBad = std::move(later.firstBad);
        }
        m_interned.merge(later.m_interned);
    }
    m_count += later.m_count;
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
    // spec/runs.md §1: a recording of several runs (a conversation: run() then followUp(), or a resumed pause) is
    // shown whole, every turn. Only a run asked for by id is picked out of a log or an envelope; pause and resume
    // events (consumer scope) stay with it.
    if (!control.runId.empty() &&
        (run.shape == RecordingShape::NdjsonEvents || run.shape == RecordingShape::Envelope)) {
        const std::string &chosen = control.runId;
        std::unordered_set<std::string_view> runIds;
        for (const Event &e : all)
            if (e.hasOwnRunId())
                runIds.insert(e.runId);
        if (runIds.count(chosen) == 0)
            errors.fail("no run " + chosen + " in this log; runs found: " + std::to_string(runIds.size()));
        EventList kept;
        for (Event e : all)
            if (e.runId == chosen || !e.hasOwnRunId()) {
                e.index = kept.size();
                kept.push_back(e);
            }
        all = std::move(kept);
        run.warnings.push_back("this log holds " + std::to_string(runIds.size()) + " runs; showing " + chosen);
        run.runId = chosen;
    }
    run.events = std::move(all);
}

void readEventFacts(Run &run)
{
    EventFacts facts;
    facts.extend(run);
    facts.apply(run);
}

void attachEvents(Run &run)
{
    assignSnapshotRun(run);
    CallKeyEvents keys;
    keys.extend(run);
    for (CallRecord &call : run.calls)
        keys.complete(call);
    for (std::size_t c = 0; c < run.calls.size(); ++c)
        bracketCall(run, run.calls, c);
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
    checkRun(run);
}

void checkRun(Run &run)
{
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
