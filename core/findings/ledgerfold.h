#pragma once

#include "core/json/value.h"

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tf::findings {

// spec/findings.md §1: the seven row kinds. `kind` is matched exactly; anything else is Unknown and ignored.
enum class RowKind
{
    Basis,
    Standing,
    Conflict,
    Judgment,
    JudgmentError,
    Contingent,
    UnsettledByAbsence,
    Unknown
};
RowKind rowKindOf(const json::Value &row);
const char *rowKindName(RowKind kind);
// Kinds upstream added after 9.113 (spec/upstream-since-9.113.md §5: argument, period, clock, clock-on-resume,
// time-reading, call, call-window, time-answer, time-derived, source-clock). Known by name so views list them as rows
// of their kind; for the fold and the piece they stay Unknown, as the 9.113 readers ignore them.
bool isNewerRowKind(std::string_view kind);

// A row that breaks the types upstream relies on (upstream would throw); reported, never guessed around.
struct RowIssue
{
    std::size_t index = 0; // position in the ledger array (kLedgerIssue: the ledger itself is not an array)
    std::string reason;    // e.g. "standing row without an \"assertions\" array"
};
inline constexpr std::size_t kLedgerIssue = static_cast<std::size_t>(-1);
// Every type break a reader of this document would trip on (§1.8, §9.4): one issue per problem, in row order.
// Rows of an unknown kind are not malformed: every reader ignores them (§1).
std::vector<RowIssue> validateRows(const json::Value &rows);

// A JavaScript Map: a key keeps the position of its first insertion and holds the value of its last write.
// Values point into the rows array the fold was computed from, which must outlive the fold.
class InsertionOrderedMap
{
public:
    struct Entry
    {
        std::string key; // jsMapKey(toolCallId): the WTF-8 id itself for a string id
        const json::Value *row = nullptr;
        std::size_t rowIndex = 0; // ledger index of the row currently held
    };
    void set(std::string_view key, const json::Value *row, std::size_t rowIndex);
    const Entry *get(std::string_view key) const;
    const std::vector<Entry> &entries() const { return m_entries; }
    bool empty() const { return m_entries.empty(); }

private:
    // Transparent, so a lookup by std::string_view does not allocate.
    struct KeyHash
    {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::vector<Entry> m_entries;
    std::unordered_map<std::string, std::size_t, KeyHash, std::equal_to<>> m_index;
};

// One assertion of a current fact row, with the row that carries it and its key computed once.
struct AssertionRef
{
    const json::Value *assertion = nullptr;
    const json::Value *row = nullptr; // the standing row
    std::size_t rowIndex = 0;
    std::string key; // assertionKey(*assertion)
};

struct Conflict
{
    std::string key; // NUL-joined assertion key (embedded U+0000; never pass through c_str())
    std::vector<const json::Value *> assertions; // every grouped assertion of the key, in input order
    // §3.4 and §2.2 (witnessesOf): EVERY assertion of a current fact row whose key equals `key`, whatever its
    // stratum or value, in fold order; a row with two such assertions is listed twice. The conflict line and the
    // conflict row's witnesses read this, not `assertions`.
    std::vector<AssertionRef> witnesses;
};

struct UnsettledEntry
{
    std::string toolCallId;           // the map key (jsMapKey), as in InsertionOrderedMap::Entry
    const json::Value *row = nullptr; // the unsettled-by-absence row
    std::size_t rowIndex = 0;
};

// foldLedger (§2.1). Pure; recomputed from the rows.
struct LedgerFold
{
    InsertionOrderedMap standingOf;
    InsertionOrderedMap judgments;
    std::vector<AssertionRef> asserted; // the assertions of every current fact row, either stratum, fold order
    std::vector<Conflict> conflicts;
    std::vector<UnsettledEntry> unsettled;
    bool hasStanding = false;
};

// `rows` must be a JSON array (or the fold is empty). Rows that are not objects are skipped like unknown kinds.
LedgerFold foldLedger(const json::Value &rows);

// §2.1: kind U+0000 id U+0000 predicate U+0000 epoch(String(epoch), "" when absent).
std::string assertionKey(const json::Value &assertion);

// §2.1 conflictsOf, step 1: an absent value and an unknown Claim (kind "unknown" or "not-applicable") take no part.
bool participates(const json::Value *value);
// §2.1 step 3: a known Claim compares as its `value` member, unwrapped once; anything else as itself.
const json::Value *comparableFace(const json::Value *value);

} // namespace tf::findings
