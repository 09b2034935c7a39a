#include "callinternals.h"
#include "numberconv.h"
#include "numbermember.h"

#include "core/text/utf.h"

namespace tf::recording {

namespace detail {
namespace {

std::string stringOr(const json::Value &object, std::string_view key, std::string_view fallback)
{
    const json::Value *v = object.findString(key);
    return std::string(v ? v->asString() : fallback);
}

// `role` is held as a value (a copy shares its text), so the message may outlive the tree it was read from.
json::Value message(const json::Value *role, const json::Value &content)
{
    json::Value m = json::Value::object();
    m.set("role", role ? *role : json::Value::borrowedString("user"));
    m.set("content", content);
    return m;
}

// §5.4 step 1, second source: one message per messages-slot record.
json::Value messagesFromInjections(const json::Value &records)
{
    json::Value out = json::Value::array();
    for (const json::Value &r : records) {
        const json::Value *content = r.contains("rawContent") ? r.find("rawContent") : r.find("contentSummary");
        if (!content || !content->isString() || content->isEmptyString())
            continue;
        out.push_back(message(r.findString("asRole"), *content));
    }
    return out;
}

// Messages rebuilt from context.injected pieces carry no assistant toolCalls; an assistant message followed by tool
// results gets them back from those results' tool_start events ({id, name, args}, as the history writes them).
void restoreToolCalls(const Run &run, json::Value &messages)
{
    for (std::size_t i = 0; i + 1 < messages.size(); ++i) {
        const json::Value *role = messages.at(i).findString("role");
        if (!role || role->asString() != "assistant" || messages.at(i).contains("toolCalls"))
            continue;
        json::Value calls = json::Value::array();
        for (std::size_t j = i + 1; j < messages.size(); ++j) {
            const json::Value *id = messages.at(j).findString("toolCallId");
            const Event *start = id ? run.toolStart(id->asString()) : nullptr;
            if (!start)
                break;
            const json::Value payload = run.payload(*start);
            json::Value call = json::Value::object();
            call.set("id", *id);
            if (const json::Value *name = payload.findString("toolName"))
                call.set("name", json::Value::string(name->decodedString()));
            if (const json::Value *args = payload.find("args"))
                call.set("args", *args);
            calls.push_back(std::move(call));
        }
        if (calls.size() > 0)
            messages.itemRef(i).set("toolCalls", std::move(calls));
    }
}

// §5.4 step 3: strip the framework markers. Messages without them keep their identity.
json::Value stripFrameworkFields(const json::Value &messages)
{
    json::Value out = messages;
    for (std::size_t i = 0; i < messages.size(); ++i) {
        const json::Value &m = messages.at(i);
        if (m.contains("injectedBy") || m.contains("notDispatched")) {
            json::Value copy = m;
            copy.erase("injectedBy");
            copy.erase("notDispatched");
            out.itemRef(i) = std::move(copy);
        }
    }
    return out;
}

void rebuildSystemFromState(const Run &run, const json::Value &state, CallView &view)
{
    if (const json::Value *injections = state.findArray("systemPromptInjections")) {
        for (const json::Value &record : *injections) {
            const json::Value *raw = record.findString("rawContent");
            if (!raw || raw->isEmptyString())
                continue;
            view.systemPieces.push_back(
                {stringOr(record, "slot", "system-prompt"), stringOr(record, "source", ""), raw->decodedString()});
        }
    }
    // The evidence-recovery piece is served once, on the iteration it names, until used.
    if (const json::Value *recovery = state.findObject("evidenceRecovery")) {
        const json::Value *used = state.find("evidenceRecoveryUsed");
        const json::Value *iteration = recovery->findNumber("iteration");
        const json::Value *instruction = recovery->findString("instruction");
        const bool usedAlready = used && used->isBool() && used->asBool();
        if (!usedAlready && iteration && instruction && toInt(iteration->asNumber()) == view.epoch &&
            !instruction->isEmptyString())
            view.systemPieces.push_back({"system-prompt", "evidence-recovery", instruction->decodedString()});
    }
    if (view.piece)
        view.systemPieces.push_back({"system-prompt", "findings", text::toWtf8(view.piece->text)});
    view.systemOnRecord = true;
    (void)run;
}

void rebuildSystemFromEvents(const Run &run, const CallRecord &rec, const json::Value &startPayload, CallView &view)
{
    for (std::size_t i : rec.injectedEvents) {
        const json::Value payload = run.payload(run.events[i]);
        const json::Value *slot = payload.findString("slot");
        const json::Value *raw = payload.findString("rawContent");
        if (!slot || slot->asString() != "system-prompt" || !raw)
            continue;
        view.systemPieces.push_back({"system-prompt", stringOr(payload, "source", ""), raw->decodedString()});
    }
    if (run.event(rec.llmStartEvent)) {
        if (const json::Value *text = startPayload.findString("systemPromptText")) {
            view.systemText = text->decodedString();
            view.systemOnRecord = true;
            return;
        }
    }
    std::string joined;
    for (const SystemPieceView &p : view.systemPieces) {
        if (!joined.empty())
            joined += "\n\n";
        joined += p.text;
    }
    view.systemText = joined;
    const std::size_t joinedU16 = text::lengthU16(joined);
    if (view.recordedSystemLengthU16 && joinedU16 == *view.recordedSystemLengthU16) {
        view.systemOnRecord = true;
    } else if (view.recordedSystemLengthU16 && joinedU16 < *view.recordedSystemLengthU16) {
        view.systemNote = std::to_string(*view.recordedSystemLengthU16 - joinedU16) +
                          " units were served that are not on record (a request-only piece such as the findings "
                          "piece, or a piece without rawContent)";
    } else if (!view.recordedSystemLengthU16) {
        view.systemNote = "systemPromptChars is not on record, so the join cannot be proven complete";
    } else {
        view.systemNote = "the joined pieces are longer than systemPromptChars";
    }
}

void rebuildTools(const Run &run, const CallRecord &rec, const json::Value &startPayload, CallView &view)
{
    const auto toolFromSchema = [](const json::Value &schema) {
        ToolView t;
        t.name = stringOr(schema, "name", "");
        if (const json::Value *d = schema.findString("description"))
            t.description = d->decodedString();
        t.schema = schema;
        return t;
    };
    if (rec.hasStateAt) {
        const json::Value *schemas = view.stateAt.findArray("dynamicToolSchemas");
        if (!schemas)
            schemas = view.stateAt.findArray("toolSchemas");
        if (schemas)
            for (const json::Value &s : *schemas)
                view.tools.push_back(toolFromSchema(s));
        view.toolsOnRecord = true;
        view.schemasOnRecord = true;
        if (const json::Value *wrapUp = view.stateAt.find("wrapUpAsked");
            wrapUp && wrapUp->isBool() && wrapUp->asBool()) {
            view.tools.clear();
            view.withheld = "wrap-up";
        }
    } else if (run.event(rec.llmStartEvent)) {
        if (const json::Value *tools = startPayload.findArray("tools")) {
            for (const json::Value &t : *tools) {
                ToolView tv;
                tv.name = stringOr(t, "name", "");
                if (const json::Value *d = t.findString("description"))
                    tv.description = d->decodedString();
                view.tools.push_back(std::move(tv));
            }
        }
        view.toolsOnRecord = true;
    }
    if (const auto &forced = run.constants.forcedOutputToolName; forced && !forced->empty()) {
        ToolView t;
        t.name = *forced;
        view.tools.push_back(std::move(t));
        view.forcedTool = forced;
    }
}

} // namespace
} // namespace detail

void CallStates::read(const CallRecord &call, CallView &view)
{
    // Every pass over the calls reads them through a cursor (the summaries, the audit's backtrack, where a result
    // entered, a window's switches): each call's messages are all over the file, so what the calls before it read
    // is let go here, once it passes the budget.
    if (m_run.source)
        m_run.source->trimResidentPages(io::kPassResidentBytes);
    if (!call.hasStateAt || call.keptState || !call.journal || !call.bundleIndex) {
        view.stateAt = m_run.stateAt(call);
        view.receiptAfter = m_run.receiptAfter(call);
        view.toolCallsAfter = m_run.toolCallsAfter(call);
        return;
    }
    // A step through a window's run reads on a few rows; a jump further, or over rows of megabytes, rebuilds (see
    // StateJournal::Cursor).
    constexpr std::size_t kBytesReadOnInAnyOrder = 1u << 20;
    StateJournal::Cursor &cursor =
        m_cursors
            .try_emplace(call.journal, *call.journal,
                         m_order == Order::Any ? kBytesReadOnInAnyOrder : StateJournal::Cursor::kReadsOnAnyDistance)
            .first->second;
    view.stateAt = cursor.stateBefore(*call.bundleIndex);
    view.receiptAfter.reset();
    view.toolCallsAfter.reset();
    if (call.receiptCommitted || call.toolCallsCommitted) {
        const json::Value after = cursor.stateBefore(*call.bundleIndex + 1);
        if (const json::Value *receipt = after.find("receipt"); receipt && call.receiptCommitted)
            view.receiptAfter = *receipt;
        if (const json::Value *calls = after.find("llmLatestToolCalls"); calls && call.toolCallsCommitted)
            view.toolCallsAfter = *calls;
    }
}

namespace detail {

void rebuildServed(const Run &run, std::size_t index, CallView &view, CallStates *states, findings::LedgerFold *foldOut)
{
    const CallRecord &rec = run.calls.at(index);
    view.record = &rec;
    if (states) {
        states->read(rec, view);
    } else {
        view.stateAt = run.stateAt(rec);
        view.receiptAfter = run.receiptAfter(rec);
        view.toolCallsAfter = run.toolCallsAfter(rec);
    }
    view.ordinal = rec.ordinal;
    view.epoch = rec.epoch;
    view.turn = rec.turn;
    view.runId = std::string(rec.runId);
    view.model = run.model;
    view.provider = run.provider;

    const Event *start = run.event(rec.llmStartEvent);
    const json::Value startPayload = start ? run.payload(*start) : json::Value::object();
    if (start) {
        if (const json::Value *m = startPayload.findString("model"))
            view.model = m->decodedString();
        if (const json::Value *p = startPayload.findString("provider"))
            view.provider = p->decodedString();
        if (auto chars = numberMember(startPayload, "systemPromptChars"))
            view.recordedSystemLengthU16 = toCount(*chars);
        if (auto count = numberMember(startPayload, "messagesCount"))
            view.recordedMessageCount = toCount(*count);
        view.wallClockMs = start->wallClockMs;
    }
    readResponse(run, rec, view);
    if (view.response) {
        view.usage = view.response->usage;
        view.durationMs = view.response->durationMs;
    }
    if (const Event *route = run.event(rec.routeEvent)) {
        const json::Value payload = run.payload(*route);
        if (const json::Value *chosen = payload.findString("chosen"))
            view.route = chosen->decodedString();
    }

    // Conversation (§5.4 step 1).
    if (rec.hasStateAt) {
        if (const json::Value *history = view.stateAt.findArray("history")) {
            view.committed = *history;
            view.conversationOnRecord = true;
        } else if (const json::Value *records = view.stateAt.findArray("messagesInjections")) {
            view.committed = messagesFromInjections(*records);
            view.conversationOnRecord = true;
        }
    } else if (std::optional<json::Value> history = run.eventHistory(rec)) {
        view.committed = std::move(*history);
        view.conversationOnRecord = true;
    } else {
        json::Value fromEvents = json::Value::array();
        for (std::size_t i : rec.injectedEvents) {
            const json::Value payload = run.payload(run.events[i]);
            const json::Value *slot = payload.findString("slot");
            const json::Value *raw = payload.findString("rawContent");
            if (!slot || slot->asString() != "messages" || !raw)
                continue;
            json::Value m = message(payload.findString("asRole"), *raw);
            // §2.3: a tool result's piece names its toolCallId as sourceId.
            const json::Value *source = payload.findString("source");
            if (const json::Value *id = payload.findString("sourceId");
                id && source && source->asString() == "tool-result") {
                m.set("toolCallId", *id);
                if (const Event *start = run.toolStart(id->asString())) {
                    const json::Value startPayload = run.payload(*start); // outlives `name`
                    if (const json::Value *name = startPayload.findString("toolName"))
                        m.set("toolName", json::Value::string(name->decodedString()));
                }
            }
            fromEvents.push_back(std::move(m));
        }
        if (fromEvents.size() > 0) {
            restoreToolCalls(run, fromEvents);
            view.committed = fromEvents;
            view.conversationOnRecord = true;
        } else if (view.recordedMessageCount == std::size_t(1)) {
            if (const Event *turn = run.event(rec.turnStartEvent)) {
                const json::Value payload = run.payload(*turn);
                if (const json::Value *prompt = payload.findString("userPrompt")) {
                    view.committed = json::Value::array();
                    view.committed.push_back(message(nullptr, *prompt));
                    view.conversationOnRecord = true;
                }
            }
        }
    }

    // Ledger at the call (§5.6) and the findings piece (§5.7).
    const json::Value *rows = nullptr;
    if (rec.hasStateAt) {
        if (const json::Value *ledger = view.stateAt.find("findingsLedger")) {
            if (ledger->isArray()) {
                view.ledger = *ledger;
                view.ledgerOnRecord = true;
                rows = &view.ledger;
                view.ledgerIssues = findings::validateRows(view.ledger);
            } else {
                view.notes.push_back("findingsLedger at this call is not an array; it is ignored");
            }
        }
    }
    if (view.conversationOnRecord)
        view.servedIds = findings::servedToolCallIds(view.committed);
    const findings::AnswerAsk ask = run.constants.findingsAnswerAsk == std::optional<std::string>("quote-facts")
                                        ? findings::AnswerAsk::QuoteFacts
                                        : findings::AnswerAsk::None;
    // Folded once: the piece, the marks and the collapse read the same fold.
    findings::LedgerFold fold = rows ? findings::foldLedger(*rows) : findings::LedgerFold{};
    if (rec.hasStateAt) {
        view.piece = findings::composeFindingsPiece(rows, fold, view.servedIds, ask);
        if (!view.piece)
            view.noPieceReason = !rows ? "no findings ledger at this call"
                                       : "the ledger at this call holds no standing (basis rows only serve nothing)";
        else if (!view.conversationOnRecord)
            view.notes.push_back("the conversation is not on record, so the undeclared line may be incomplete");
        if (rows) {
            view.undeclaredIds = findings::undeclaredIds(view.servedIds, fold);
            view.ledgerMarks = findings::countLedgerMarks(findings::ledgerFoldMarks(*rows, fold, view.ledgerIssues));
        } else {
            view.undeclaredIds = view.servedIds;
        }
        // "Undeclared" is a findings notion: on a run that is not armed, a tool result is just a tool result.
        if (!run.constants.armed)
            view.undeclaredIds.clear();
    } else {
        view.noPieceReason = "the findings ledger is not on record in an events-only recording";
    }

    // Messages as sent: collapse on the committed conversation, then strip (§5.4 steps 2-3).
    if (view.conversationOnRecord) {
        const findings::ServeMode mode = run.constants.findingsServe == std::optional<std::string>("ledger-only")
                                             ? findings::ServeMode::LedgerOnly
                                             : findings::ServeMode::LedgerAndFacts;
        findings::CollapseResult collapse = findings::collapseJudged(view.committed, rows, fold, mode);
        view.collapsed = std::move(collapse.collapsed);
        view.asSent = stripFrameworkFields(collapse.messages);
    }
    if (foldOut && rows)
        *foldOut = std::move(fold);

    if (rec.hasStateAt)
        rebuildSystemFromState(run, view.stateAt, view);
    else
        rebuildSystemFromEvents(run, rec, startPayload, view);
    if (rec.hasStateAt) {
        std::string joined;
        for (const SystemPieceView &p : view.systemPieces) {
            if (!joined.empty())
                joined += "\n\n";
            joined += p.text;
        }
        view.systemText = std::move(joined);
    }
    rebuildTools(run, rec, startPayload, view);
}

} // namespace detail
} // namespace tf::recording
