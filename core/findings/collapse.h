#pragma once

#include "ledgerfold.h"

#include <optional>
#include <string>
#include <vector>

namespace tf::findings {

// The run constant findingsServe (§5).
enum class ServeMode
{
    LedgerAndFacts,
    LedgerOnly
};

// §4.1: role "tool" and no "notDispatched" key at all (any value, even null or false, disqualifies).
bool isResultMessage(const json::Value &message);

// §4.2: result ids in wire order, each once; missing and empty ids skipped.
std::vector<std::string> servedToolCallIds(const json::Value &messages);
// §4.2: served ids with no standingOf entry, deduplicated, in the given order.
std::vector<std::string> undeclaredIds(const std::vector<std::string> &served, const LedgerFold &fold);
// §4.3: newest first, uncapped. `rows` nullptr behaves like an empty ledger.
std::vector<std::string> offeredResultIds(const json::Value &messages, const json::Value *rows);

struct CollapsedMessage
{
    std::size_t index = 0;            // position in the message array
    std::string toolCallId;           // WTF-8
    std::string standing;             // the standing that collapsed it ("noise", "ruled-out", "fact" under ledger-only)
    std::string ticket;               // the exact ticket text now in `content` (pure UTF-8, lone surrogates escaped)
    std::size_t standingRowIndex = 0; // ledger row that decided it
};

struct CollapseResult
{
    json::Value messages; // the input array itself when nothing was rewritten (sameArray)
    bool sameArray = true;
    std::vector<std::size_t> changed;        // ascending indices of rewritten messages
    std::vector<CollapsedMessage> collapsed; // one per changed index, same order
};

// collapseJudged (§5). `rows` nullptr when the ledger is absent. Unchanged messages keep their node identity.
CollapseResult collapseJudged(const json::Value &messages, const json::Value *rows, ServeMode mode);
// The same with the rows already folded (`fold` is foldLedger(*rows)): a call's rebuild folds its ledger once for
// the piece, the collapse and the marks.
CollapseResult collapseJudged(const json::Value &messages, const json::Value *rows, const LedgerFold &fold,
                              ServeMode mode);

// The ticket a result with this standing would carry (§5 step 2), or nullopt when it does not collapse.
std::optional<std::string> ticketFor(const json::Value &message, const LedgerFold &fold, ServeMode mode);

} // namespace tf::findings
