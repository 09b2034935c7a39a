#include "collapse.h"

#include "jsstring.h"

#include "core/json/writer.h"

#include <algorithm>
#include <unordered_set>

namespace tf::findings {

bool isResultMessage(const json::Value &message)
{
    // §4.1: the KEY decides, whatever its value (null, false, "" and {} all mark a settled call).
    return isString(message.find("role"), "tool") && !message.contains("notDispatched");
}

std::vector<std::string> servedToolCallIds(const json::Value &messages)
{
    std::vector<std::string> ids;
    std::unordered_set<std::string_view> seen; // views into `messages`, which outlives this call
    for (const json::Value &m : messages) {
        if (!isResultMessage(m))
            continue;
        // A missing or empty id contributes nothing. A non-string id (a damaged recording) cannot be listed as
        // one of the std::string ids this API returns, so it is skipped too.
        const json::Value *id = m.findString("toolCallId");
        if (!id || id->asString().empty() || !seen.insert(id->asString()).second)
            continue;
        ids.emplace_back(id->asString());
    }
    return ids;
}

std::vector<std::string> undeclaredIds(const std::vector<std::string> &served, const LedgerFold &fold)
{
    // §4.2: ANY standing removes the id (unknown-id, answer-declared, a standing none of the four).
    std::vector<std::string> ids;
    std::unordered_set<std::string_view> seen;
    for (const std::string &id : served) {
        if (fold.standingOf.get(id) || !seen.insert(id).second)
            continue;
        ids.push_back(id);
    }
    return ids;
}

std::vector<std::string> offeredResultIds(const json::Value &messages, const json::Value *rows)
{
    // §4.3: absent rows behave like an empty ledger; noise and ruled-out retire an id; newest first, uncapped.
    const LedgerFold fold = rows ? foldLedger(*rows) : LedgerFold{};
    std::vector<std::string> ids;
    for (std::string &id : servedToolCallIds(messages)) {
        const InsertionOrderedMap::Entry *current = fold.standingOf.get(id);
        const json::Value *standing = current ? current->row->find("standing") : nullptr;
        if (isString(standing, "noise") || isString(standing, "ruled-out"))
            continue;
        ids.push_back(std::move(id));
    }
    std::reverse(ids.begin(), ids.end());
    return ids;
}

namespace {

// collapses (§5): noise and ruled-out always; fact only under ledger-only; never open.
bool collapses(const json::Value *standing, ServeMode mode)
{
    if (isString(standing, "noise") || isString(standing, "ruled-out"))
        return true;
    return mode == ServeMode::LedgerOnly && isString(standing, "fact");
}

const InsertionOrderedMap::Entry *collapsingRow(const json::Value &message, const LedgerFold &fold, ServeMode mode)
{
    if (!isResultMessage(message))
        return nullptr;
    const json::Value *id = message.find("toolCallId");
    if (!id)
        return nullptr;
    const InsertionOrderedMap::Entry *row = fold.standingOf.get(jsMapKey(id));
    if (!row || !collapses(row->row->find("standing"), mode))
        return nullptr;
    return row;
}

std::string ticketOf(const json::Value &message, const InsertionOrderedMap::Entry &row)
{
    // JSON.stringify({collapsed, standing, toolCallId, ref?}) in that key order, no whitespace (§5 step 2).
    std::string ticket = "{\"collapsed\":true,\"standing\":";
    json::appendStringify(ticket, *row.row->find("standing"));
    ticket += ",\"toolCallId\":";
    json::appendStringify(ticket, *message.find("toolCallId"));
    if (const json::Value *ref = row.row->find("ref")) {
        ticket += ",\"ref\":";
        json::appendStringify(ticket, *ref);
    }
    ticket += '}';
    return ticket;
}

} // namespace

std::optional<std::string> ticketFor(const json::Value &message, const LedgerFold &fold, ServeMode mode)
{
    const InsertionOrderedMap::Entry *row = collapsingRow(message, fold, mode);
    if (!row)
        return std::nullopt;
    return ticketOf(message, *row);
}

CollapseResult collapseJudged(const json::Value &messages, const json::Value *rows, ServeMode mode)
{
    return collapseJudged(messages, rows, rows ? foldLedger(*rows) : LedgerFold{}, mode);
}

CollapseResult collapseJudged(const json::Value &messages, const json::Value *rows, const LedgerFold &fold,
                              ServeMode mode)
{
    CollapseResult result;
    result.messages = messages; // shares the node: the input array itself
    if (!rows)
        return result;
    if (!fold.hasStanding || !messages.isArray())
        return result;
    for (std::size_t i = 0; i < messages.size(); ++i) {
        const json::Value &m = messages.at(i);
        const InsertionOrderedMap::Entry *row = collapsingRow(m, fold, mode);
        if (!row)
            continue;
        std::string ticket = ticketOf(m, *row);
        // Byte equality with the content leaves the message alone, which makes a second pass a no-op; a
        // near-ticket (spaces, another key order, another escaping) is rewritten.
        if (const json::Value *content = m.findString("content"); content && content->stringEquals(ticket))
            continue;
        // The first rewrite copies the array (itemRef copies on write); the copy shares every other message, so
        // each unchanged index keeps its object identity (cache markers address messages[i]).
        json::Value copy = m;
        copy.set("content", json::Value::string(ticket)); // in its slot; a missing content goes last, as {...m}
        result.messages.itemRef(i) = std::move(copy);
        result.sameArray = false;
        result.changed.push_back(i);
        result.collapsed.push_back(CollapsedMessage{i, stringOf(m.find("toolCallId")),
                                                    std::string(row->row->find("standing")->asString()),
                                                    std::move(ticket), row->rowIndex});
    }
    return result;
}

} // namespace tf::findings
