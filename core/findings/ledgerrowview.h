#pragma once

#include "ledgerfold.h"

#include "core/json/value.h"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace tf::findings {

// What the fold says of a row at a call (spec/findings.md §2), as flags.
enum LedgerMark : unsigned
{
    MarkNew = 1u << 0,         // filed since the previous call
    MarkSuperseded = 1u << 1,  // a later standing on the same result replaced it
    MarkConflict = 1u << 2,    // a conflict row, or a current fact row whose assertion conflicts
    MarkContingent = 1u << 3,  // a contingent row
    MarkUnsettled = 1u << 4,   // an unsettled-by-absence row the fold keeps
    MarkMalformed = 1u << 5,   // breaks the types upstream relies on
    MarkUnknownKind = 1u << 6, // a kind no reader of this version folds (newer releases add kinds)
};

// One ledger row as every surface shows it (the Ledger pane, the report): its fields in words and its marks. Text is
// WTF-8 from the record, untrusted, never escaped here.
struct LedgerRowView
{
    std::size_t index = 0; // position in the ledger array
    RowKind kind = RowKind::Unknown;
    std::string kindName; // `kind` as written
    std::string resultId; // toolCallId; the carriers of a contingent row, the witnesses of a conflict
    std::string tool;     // toolName
    std::string standing; // the standing, or what the row is: "basis", "contingent", "judge: kept", "unsettled", ...
    std::vector<std::string> detail; // line, assertions, settles...; the payload of a kind this version does not fold
    std::string declaredOn;          // "answer", "with call_7", or empty
    std::optional<double> iteration;
    bool unknownId = false; // the row says its id resolved to no known result
    unsigned marks = 0;     // LedgerMark flags
    std::string issue;      // why it is malformed, when it is

    std::string detailText() const;    // the detail parts joined with "; "
    std::string iterationText() const; // as JavaScript writes the number; empty when not on record
};

// The marks the fold gives each row of `ledger`: every mark but MarkNew, which depends on the previous call. The one
// rule behind the row views' marks and the per-call counts (CallView::ledgerMarks, inspect --json).
std::vector<unsigned> ledgerFoldMarks(const json::Value &ledger, const LedgerFold &fold,
                                      const std::vector<RowIssue> &issues);

constexpr unsigned kLedgerMarkCount = 7; // the LedgerMark bits

// How many rows of a ledger carry each mark.
struct LedgerMarkCounts
{
    std::array<std::size_t, kLedgerMarkCount> byBit{}; // byBit[b]: rows carrying the mark 1u << b

    std::size_t of(LedgerMark mark) const;
};
LedgerMarkCounts countLedgerMarks(const std::vector<unsigned> &marks);

// The rows of `ledger` at a call, with the marks the fold of those rows gives them. Rows from `rowsAtPrevious` on
// were filed since the previous call; `issues` are validateRows(ledger).
std::vector<LedgerRowView> ledgerRowViews(const json::Value &ledger, const LedgerFold &fold,
                                          const std::vector<RowIssue> &issues, std::size_t rowsAtPrevious);
// The same in parts, for a caller that shares a large ledger's rows out among threads: the views sized, each row's
// words filled (rows [from, to); any rows, on any thread, each once), then the marks set once every row is filled.
std::vector<LedgerRowView> blankLedgerRowViews(const json::Value &ledger);
void fillLedgerRowViews(const json::Value &ledger, std::vector<LedgerRowView> &views, std::size_t from, std::size_t to);
void markLedgerRowViews(std::vector<LedgerRowView> &views, const json::Value &ledger, const LedgerFold &fold,
                        const std::vector<RowIssue> &issues, std::size_t rowsAtPrevious);

// "new", "conflict", "contingent", "unsettled", "superseded", "malformed", "not folded": in that order.
std::vector<std::string> ledgerMarkNames(unsigned marks);
// One sentence per mark, for tooltips and the report's legend.
std::vector<std::string> ledgerMarkExplanations(unsigned marks, const std::string &issue);

} // namespace tf::findings
