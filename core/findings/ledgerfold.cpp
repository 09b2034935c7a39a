#include "ledgerfold.h"

#include "jsstring.h"

#include "core/json/writer.h"

#include <algorithm>
#include <iterator>

namespace tf::findings {

RowKind rowKindOf(const json::Value &row)
{
    // §1 reading rule: exact, case-sensitive, untrimmed; "standing " and "Standing" are unknown kinds.
    const json::Value *kind = row.findString("kind");
    if (!kind)
        return RowKind::Unknown;
    const std::string_view k = kind->asString();
    if (k == "basis")
        return RowKind::Basis;
    if (k == "standing")
        return RowKind::Standing;
    if (k == "conflict")
        return RowKind::Conflict;
    if (k == "judgment")
        return RowKind::Judgment;
    if (k == "judgment-error")
        return RowKind::JudgmentError;
    if (k == "contingent")
        return RowKind::Contingent;
    if (k == "unsettled-by-absence")
        return RowKind::UnsettledByAbsence;
    return RowKind::Unknown;
}

bool isNewerRowKind(std::string_view kind)
{
    static constexpr std::string_view kNewer[] = {"argument",     "period",      "clock",       "clock-on-resume",
                                                  "time-reading", "call",        "call-window", "time-answer",
                                                  "time-derived", "source-clock"};
    return std::find(std::begin(kNewer), std::end(kNewer), kind) != std::end(kNewer);
}

const char *rowKindName(RowKind kind)
{
    switch (kind) {
    case RowKind::Basis:
        return "basis";
    case RowKind::Standing:
        return "standing";
    case RowKind::Conflict:
        return "conflict";
    case RowKind::Judgment:
        return "judgment";
    case RowKind::JudgmentError:
        return "judgment-error";
    case RowKind::Contingent:
        return "contingent";
    case RowKind::UnsettledByAbsence:
        return "unsettled-by-absence";
    case RowKind::Unknown:
        break;
    }
    return "unknown";
}

void InsertionOrderedMap::set(std::string_view key, const json::Value *row, std::size_t rowIndex)
{
    // §2.1 map order: a key keeps the slot of its first insertion; a later set replaces the value in place.
    if (auto it = m_index.find(key); it != m_index.end()) {
        Entry &e = m_entries[it->second];
        e.row = row;
        e.rowIndex = rowIndex;
        return;
    }
    m_index.emplace(std::string(key), m_entries.size());
    m_entries.push_back(Entry{std::string(key), row, rowIndex});
}

const InsertionOrderedMap::Entry *InsertionOrderedMap::get(std::string_view key) const
{
    const auto it = m_index.find(key);
    return it == m_index.end() ? nullptr : &m_entries[it->second];
}

std::string assertionKey(const json::Value &assertion)
{
    // §2.1: NUL-joined with a trailing NUL before the (usually empty) epoch. A space join would merge distinct keys.
    const json::Value *subject = member(&assertion, "subject");
    std::string key;
    appendStringOf(key, member(subject, "kind"));
    key += '\0';
    appendStringOf(key, member(subject, "id"));
    key += '\0';
    appendStringOf(key, member(&assertion, "predicate"));
    key += '\0';
    if (const json::Value *epoch = member(&assertion, "epoch"))
        appendStringOf(key, epoch);
    return key;
}

bool participates(const json::Value *value)
{
    if (!value)
        return false;
    const json::Value *kind = member(value, "kind");
    return !(isString(kind, "unknown") || isString(kind, "not-applicable"));
}

const json::Value *comparableFace(const json::Value *value)
{
    if (isString(member(value, "kind"), "known"))
        if (const json::Value *inner = member(value, "value"))
            return inner;
    return value;
}

namespace {

// conflictsOf (§2.1): asserted-stratum, participating assertions grouped by key in first-seen order; a key whose
// group shows two or more distinct sorted-key faces is a conflict.
std::vector<Conflict> conflictsOf(const std::vector<AssertionRef> &asserted)
{
    struct Group
    {
        Conflict conflict;
        std::string firstFace;
        bool differs = false;
    };
    std::vector<Group> groups;
    std::unordered_map<std::string_view, std::size_t> byKey; // views into AssertionRef::key, which outlives this
    for (const AssertionRef &ref : asserted) {
        const json::Value *a = ref.assertion;
        if (!isString(member(a, "stratum"), "asserted"))
            continue;
        const json::Value *value = member(a, "value");
        if (!participates(value))
            continue;
        std::string face = json::sortedKeyJson(*comparableFace(value));
        auto [it, inserted] = byKey.try_emplace(ref.key, groups.size());
        if (inserted) {
            groups.push_back(Group{Conflict{ref.key, {}, {}}, std::move(face), false});
        } else if (!groups[it->second].differs && face != groups[it->second].firstFace) {
            groups[it->second].differs = true;
        }
        groups[it->second].conflict.assertions.push_back(a);
    }
    std::vector<Conflict> out;
    for (Group &g : groups)
        if (g.differs)
            out.push_back(std::move(g.conflict));
    return out;
}

} // namespace

LedgerFold foldLedger(const json::Value &rows)
{
    LedgerFold fold;
    if (!rows.isArray())
        return fold;
    InsertionOrderedMap lastUnsettled;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const json::Value &row = rows.at(i);
        switch (rowKindOf(row)) {
        case RowKind::Standing:
            fold.standingOf.set(jsMapKey(member(&row, "toolCallId")), &row, i);
            break;
        case RowKind::Judgment:
            fold.judgments.set(jsMapKey(member(&row, "toolCallId")), &row, i);
            break;
        case RowKind::UnsettledByAbsence:
            lastUnsettled.set(jsMapKey(member(&row, "toolCallId")), &row, i);
            break;
        default:
            break;
        }
    }

    for (const InsertionOrderedMap::Entry &e : fold.standingOf.entries()) {
        if (!isString(member(e.row, "standing"), "fact"))
            continue;
        // A non-array `assertions` (upstream would throw) contributes nothing; validateRows names the row.
        if (const json::Value *assertions = e.row->findArray("assertions"))
            for (const json::Value &a : *assertions)
                fold.asserted.push_back(AssertionRef{&a, e.row, e.rowIndex, assertionKey(a)});
    }
    fold.conflicts = conflictsOf(fold.asserted);
    if (!fold.conflicts.empty()) {
        // The witness walk of §3.4 / §2.2, done once for all conflicts rather than once per conflict.
        std::unordered_map<std::string_view, std::size_t> conflictOfKey;
        for (std::size_t c = 0; c < fold.conflicts.size(); ++c)
            conflictOfKey.emplace(fold.conflicts[c].key, c);
        for (const AssertionRef &ref : fold.asserted)
            if (auto it = conflictOfKey.find(ref.key); it != conflictOfKey.end())
                fold.conflicts[it->second].witnesses.push_back(ref);
    }
    fold.hasStanding = !fold.standingOf.empty();

    // §2.1 unsettled: the last row per result, kept only while the CURRENT standing is still ruled-out.
    for (const InsertionOrderedMap::Entry &e : lastUnsettled.entries()) {
        const InsertionOrderedMap::Entry *standing = fold.standingOf.get(e.key);
        if (standing && isString(member(standing->row, "standing"), "ruled-out"))
            fold.unsettled.push_back(UnsettledEntry{e.key, e.row, e.rowIndex});
    }
    return fold;
}

} // namespace tf::findings
