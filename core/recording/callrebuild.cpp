#include "callinternals.h"
#include "numberconv.h"

#include "core/text/utf.h"

namespace tf::recording::detail {

namespace {

std::optional<double> number(const json::Value &object, std::string_view key)
{
    if (const json::Value *v = object.findNumber(key))
        return v->asNumber();
    return std::nullopt;
}

std::string stringOr(const json::Value &object, std::string_view key, std::string_view fallback)
{
    const json::Value *v = object.findString(key);
    return std::string(v ? v->asString() : fallback);
}

json::Value message(std::string_view role, const json::Value &content)
{
    json::Value m = json::Value::object();
    m.set("role", json::Value::borrowedString(role));
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
        const json::Value *role = r.findString("asRole");
        out.push_back(message(role ? role->asString() : "user", *content));
    }
    return out;
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
            view.systemPieces.push_back({stringOr(record, "slot", "system-prompt"), stringOr(record, "source", ""),
                                         raw->decodedString()});
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

void rebuildSystemFromEvents(const Run &run, const CallRecord &rec, CallView &view)
{
    for (std::size_t i : rec.injectedEvents) {
        const Event &e = run.events[i];
        const json::Value *slot = e.payload.findString("slot");
        const json::Value *raw = e.payload.findString("rawContent");
        if (!slot || slot->asString() != "system-prompt" || !raw)
            continue;
        view.systemPieces.push_back({"system-prompt", stringOr(e.payload, "source", ""), raw->decodedString()});
    }
    const Event *start = run.event(rec.llmStartEvent);
    if (start) {
        if (const json::Value *text = start->payload.findString("systemPromptText")) {
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

void rebuildTools(const Run &run, const CallRecord &rec, CallView &view)
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
        const json::Value *schemas = rec.stateAt.findArray("dynamicToolSchemas");
        if (!schemas)
            schemas = rec.stateAt.findArray("toolSchemas");
        if (schemas)
            for (const json::Value &s : *schemas)
                view.tools.push_back(toolFromSchema(s));
        view.toolsOnRecord = true;
        view.schemasOnRecord = true;
        if (const json::Value *wrapUp = rec.stateAt.find("wrapUpAsked"); wrapUp && wrapUp->isBool() &&
                                                                        wrapUp->asBool()) {
            view.tools.clear();
            view.withheld = "wrap-up";
        }
    } else if (const Event *start = run.event(rec.llmStartEvent)) {
        if (const json::Value *tools = start->payload.findArray("tools")) {
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

void rebuildServed(const Run &run, std::size_t index, CallView &view)
{
    const CallRecord &rec = run.calls.at(index);
    view.record = &rec;
    view.ordinal = rec.ordinal;
    view.epoch = rec.epoch;
    view.model = run.model;
    view.provider = run.provider;

    const Event *start = run.event(rec.llmStartEvent);
    const Event *end = run.event(rec.llmEndEvent);
    if (start) {
        if (const json::Value *m = start->payload.findString("model"))
            view.model = m->decodedString();
        if (const json::Value *p = start->payload.findString("provider"))
            view.provider = p->decodedString();
        if (auto chars = number(start->payload, "systemPromptChars"))
            view.recordedSystemLengthU16 = toCount(*chars);
        if (auto count = number(start->payload, "messagesCount"))
            view.recordedMessageCount = toCount(*count);
        view.wallClockMs = start->wallClockMs;
    }
    if (end) {
        if (const json::Value *usage = end->payload.findObject("usage")) {
            view.usage.input = number(*usage, "input");
            view.usage.output = number(*usage, "output");
            view.usage.cacheRead = number(*usage, "cacheRead");
            view.usage.cacheWrite = number(*usage, "cacheWrite");
        }
        if (const json::Value *content = end->payload.findString("content"))
            view.responseText = content->decodedString();
        view.durationMs = number(end->payload, "durationMs");
        if (!view.wallClockMs)
            view.wallClockMs = end->wallClockMs;
    }
    if (const Event *route = run.event(rec.routeEvent))
        if (const json::Value *chosen = route->payload.findString("chosen"))
            view.route = chosen->decodedString();

    // Conversation (§5.4 step 1).
    if (rec.hasStateAt) {
        if (const json::Value *history = rec.stateAt.findArray("history")) {
            view.committed = *history;
            view.committedOwnedByRun = true;
            view.conversationOnRecord = true;
        } else if (const json::Value *records = rec.stateAt.findArray("messagesInjections")) {
            view.committed = messagesFromInjections(*records);
            view.conversationOnRecord = true;
        }
    } else if (rec.eventHistory) {
        view.committed = *rec.eventHistory;
        view.committedOwnedByRun = true;
        view.conversationOnRecord = true;
    } else {
        json::Value fromEvents = json::Value::array();
        for (std::size_t i : rec.injectedEvents) {
            const Event &e = run.events[i];
            const json::Value *slot = e.payload.findString("slot");
            const json::Value *raw = e.payload.findString("rawContent");
            if (!slot || slot->asString() != "messages" || !raw)
                continue;
            const json::Value *role = e.payload.findString("asRole");
            fromEvents.push_back(message(role ? role->asString() : "user", *raw));
        }
        if (fromEvents.size() > 0) {
            view.committed = fromEvents;
            view.conversationOnRecord = true;
        } else if (view.recordedMessageCount == std::size_t(1)) {
            if (const Event *turn = run.event(rec.turnStartEvent))
                if (const json::Value *prompt = turn->payload.findString("userPrompt")) {
                    view.committed = json::Value::array();
                    view.committed.push_back(message("user", *prompt));
                    view.conversationOnRecord = true;
                }
        }
    }

    // Ledger at the call (§5.6) and the findings piece (§5.7).
    const json::Value *rows = nullptr;
    if (rec.hasStateAt) {
        if (const json::Value *ledger = rec.stateAt.find("findingsLedger")) {
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
    if (rec.hasStateAt) {
        view.piece = findings::composeFindingsPiece(rows, view.servedIds, ask);
        if (!view.piece)
            view.noPieceReason = !rows ? "no findings ledger at this call"
                                       : "the ledger at this call holds no standing (basis rows only serve nothing)";
        else if (!view.conversationOnRecord)
            view.notes.push_back("the conversation is not on record, so the undeclared line may be incomplete");
        if (rows) {
            const findings::LedgerFold fold = findings::foldLedger(*rows);
            view.undeclaredIds = findings::undeclaredIds(view.servedIds, fold);
        } else {
            view.undeclaredIds = view.servedIds;
        }
    } else {
        view.noPieceReason = "the findings ledger is not on record in an events-only recording";
    }

    // Messages as sent: collapse on the committed conversation, then strip (§5.4 steps 2-3).
    if (view.conversationOnRecord) {
        const findings::ServeMode mode = run.constants.findingsServe == std::optional<std::string>("ledger-only")
                                             ? findings::ServeMode::LedgerOnly
                                             : findings::ServeMode::LedgerAndFacts;
        findings::CollapseResult collapse = findings::collapseJudged(view.committed, rows, mode);
        view.collapsed = std::move(collapse.collapsed);
        view.asSent = stripFrameworkFields(collapse.messages);
    }

    if (rec.hasStateAt)
        rebuildSystemFromState(run, rec.stateAt, view);
    else
        rebuildSystemFromEvents(run, rec, view);
    if (rec.hasStateAt) {
        std::string joined;
        for (const SystemPieceView &p : view.systemPieces) {
            if (!joined.empty())
                joined += "\n\n";
            joined += p.text;
        }
        view.systemText = std::move(joined);
    }
    rebuildTools(run, rec, view);
}

} // namespace tf::recording::detail
