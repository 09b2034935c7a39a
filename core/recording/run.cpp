#include "run.h"

#include <limits>

namespace tf::recording {

namespace {

json::Value objectAt(const Run &run, std::uint64_t offset)
{
    if (offset == json::kNoSource || !run.source)
        return json::Value::object();
    json::Value v = json::parseAgain(run.source->bytes(), std::size_t(offset), nullptr, run.stringEnds.get());
    return v.isObject() ? v : json::Value::object();
}

} // namespace

json::Value Run::payload(const Event &e) const
{
    return objectAt(*this, e.payloadOffset);
}

json::Value Run::payloadMembers(const Event &e) const
{
    if (e.payloadOffset == json::kNoSource || !source)
        return json::Value::object();
    json::Value v = json::parseAgainShallow(source->bytes(), std::size_t(e.payloadOffset), 1, stringEnds.get());
    return v.isObject() ? v : json::Value::object();
}

json::Value Run::meta(const Event &e) const
{
    return objectAt(*this, e.metaOffset);
}

json::Value Run::stateAt(const CallRecord &call) const
{
    if (!call.hasStateAt)
        return json::Value::object();
    if (call.keptState)
        return *call.keptState;
    if (call.journal && call.bundleIndex)
        return call.journal->stateBefore(*call.bundleIndex);
    return json::Value::object();
}

std::optional<json::Value> Run::receiptAfter(const CallRecord &call) const
{
    if (!call.receiptCommitted || !call.journal || !call.bundleIndex)
        return std::nullopt;
    return call.journal->memberBefore(*call.bundleIndex + 1, "receipt");
}

std::optional<json::Value> Run::toolCallsAfter(const CallRecord &call) const
{
    if (!call.toolCallsCommitted || !call.journal || !call.bundleIndex)
        return std::nullopt;
    return call.journal->memberBefore(*call.bundleIndex + 1, "llmLatestToolCalls");
}

const Event *Run::toolEnd(std::string_view toolCallId) const
{
    const auto it = toolEndByCallId.find(toolCallId);
    return it == toolEndByCallId.end() ? nullptr : &events[it->second];
}

const Event *Run::toolStart(std::string_view toolCallId) const
{
    const auto it = toolStartByCallId.find(toolCallId);
    return it == toolStartByCallId.end() ? nullptr : &events[it->second];
}

std::optional<json::Value> Run::ledgerAt(const CallRecord &call) const
{
    std::optional<json::Value> ledger;
    if (call.keptState) {
        if (const json::Value *v = call.keptState->find("findingsLedger"))
            ledger = *v;
    } else if (call.hasStateAt && call.journal && call.bundleIndex) {
        ledger = call.journal->memberBefore(*call.bundleIndex, "findingsLedger");
    }
    if (ledger && !ledger->isArray())
        ledger.reset();
    return ledger;
}

std::optional<json::Value> Run::eventHistory(const CallRecord &call) const
{
    const Event *e = event(call.historyEvent);
    if (!e)
        return std::nullopt;
    const json::Value p = payload(*e);
    if (const json::Value *history = p.findArray("history"))
        return *history;
    return std::nullopt;
}

std::optional<json::Value> Run::finalLedger() const
{
    std::optional<json::Value> ledger;
    if (finalLedgerOffset != json::kNoSource && source)
        ledger = json::parseAgain(source->bytes(), std::size_t(finalLedgerOffset), nullptr, stringEnds.get());
    else if (finalLedgerJournal)
        ledger = finalLedgerJournal->memberBefore(std::numeric_limits<std::size_t>::max(), "findingsLedger");
    if (ledger && !ledger->isArray())
        ledger.reset();
    return ledger;
}

std::string Run::changedOnDisk() const
{
    if (packedFile)
        if (std::string change = packedFile->changedOnDisk(); !change.empty())
            return change;
    return source ? source->changedOnDisk() : std::string();
}

void Run::buildCheckpoints() const
{
    for (const auto &journal : journals)
        journal->buildCheckpoints();
}

bool Run::pagesVanished() const
{
    return (packedFile && packedFile->pagesVanished()) || (source && source->pagesVanished());
}

} // namespace tf::recording
