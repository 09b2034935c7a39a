#include "findingspiece.h"

#include "collapse.h"
#include "jsstring.h"
#include "linecomposer.h"
#include "piecetext.h"

#include "core/text/utf.h"

#include <algorithm>

namespace tf::findings {

const char *sectionKindName(SectionKind kind)
{
    switch (kind) {
    case SectionKind::Header:
        return "header";
    case SectionKind::Facts:
        return "facts";
    case SectionKind::Limitations:
        return "limitations";
    case SectionKind::EvidenceRefs:
        return "evidenceRefs";
    case SectionKind::NextSteps:
        return "nextSteps";
    case SectionKind::Contingent:
        return "contingent";
    case SectionKind::Unsettled:
        return "unsettled";
    case SectionKind::Noise:
        return "noise";
    case SectionKind::Undeclared:
        return "undeclared";
    case SectionKind::Ask:
        return "ask";
    }
    return "unknown";
}

std::size_t FindingsPiece::sizeUtf8() const
{
    return text::sizeUtf8Lossy(text);
}

bool FindingsPiece::hasLoneSurrogate() const
{
    return text::hasLoneSurrogate(std::u16string_view(text));
}

namespace {

// A heading, at most 64 shown content lines, then `+K more (cap 64)` (§3.3). Lines past the cap are counted and
// their rows recorded, but never composed: they cannot change a byte of the piece.
class SectionBuilder
{
public:
    SectionBuilder(SectionKind kind, std::u16string_view heading)
    {
        m_section.kind = kind;
        m_section.lines.push_back(LineComposer::fixedLine(heading, LineKind::Heading));
    }

    template <class Compose>
    void add(Compose &&compose)
    {
        if (m_total++ < kBucketLines) {
            LineComposer line;
            compose(line);
            m_section.lines.push_back(std::move(line).clipLine());
        } else {
            LineComposer counted(&m_hiddenRows);
            compose(counted);
        }
    }

    void appendTo(std::vector<PieceSection> &sections)
    {
        if (m_total == 0)
            return; // an empty bucket is omitted, never "no facts"
        m_section.totalContentLines = m_total;
        if (m_total > kBucketLines) {
            const std::size_t hidden = m_total - kBucketLines;
            LineComposer more;
            more.library(u"+").library(hidden).library(u" more (cap ").library(kBucketLines).library(u")");
            for (std::size_t row : m_hiddenRows)
                more.row(row);
            PieceLine line = std::move(more).unclipped(LineKind::More);
            line.hiddenLines = hidden;
            m_section.lines.push_back(std::move(line));
        }
        sections.push_back(std::move(m_section));
    }

private:
    PieceSection m_section;
    std::size_t m_total = 0;
    std::vector<std::size_t> m_hiddenRows;
};

const json::Value *standingOfRow(const json::Value *row)
{
    return member(row, "standing");
}

// provenanceOf (§3.4): the row's own identities; the assertion's `provenance` field is never read.
void provenance(LineComposer &c, const json::Value &row)
{
    c.library(u"tool:").model(row.find("toolCallId"));
    if (const json::Value *ref = row.find("ref"))
        c.library(u" | artifact:").model(ref);
    if (isTrue(row.find("unknownId")))
        c.library(u" (unknown id)");
}

// whereOf (§3.4): the name only when the row has one (an empty name is present).
void where(LineComposer &c, const json::Value &row)
{
    if (const json::Value *toolName = row.find("toolName"))
        c.model(toolName).library(u", ");
    provenance(c, row);
}

// subjectOf (§3.4); · is U+00B7.
void subject(LineComposer &c, const json::Value *assertion)
{
    const json::Value *s = member(assertion, "subject");
    c.model(member(s, "kind")).library(u"/").model(member(s, "id")).library(u" \u00B7 ");
    c.model(member(assertion, "predicate"));
}

// What the piece reads straight off the ledger rather than the fold, gathered in one pass:
// - `tested` (§3.4): the basis rows' propositions by the call's id, the last write winning in the first slot (§9.5);
// - the contingent rows, in LEDGER order (§3.6).
struct LedgerScan
{
    InsertionOrderedMap tested;
    std::vector<std::size_t> contingentRows;
};

LedgerScan scanLedger(const json::Value &rows)
{
    LedgerScan scan;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const json::Value &row = rows.at(i);
        const RowKind kind = rowKindOf(row);
        if (kind == RowKind::Basis && row.contains("proposition"))
            scan.tested.set(jsMapKey(row.find("toolCallId")), &row, i);
        else if (kind == RowKind::Contingent)
            scan.contingentRows.push_back(i);
    }
    return scan;
}

void testedSuffix(LineComposer &c, const json::Value &row, const InsertionOrderedMap &tested)
{
    // Keyed by the JUDGED result's id: the proposition declared on that call itself (§3.4). — is U+2014.
    if (const InsertionOrderedMap::Entry *basis = tested.get(jsMapKey(row.find("toolCallId"))))
        c.row(basis->rowIndex).library(u" \u2014 tested: ").model(basis->row->find("proposition"));
}

// A non-array `assertions` reads as none (upstream would throw; validateRows reports the row).
std::size_t assertionCount(const json::Value &row)
{
    const json::Value *assertions = row.findArray("assertions");
    return assertions ? assertions->size() : 0;
}

const json::Value *assertionAt(const json::Value &row, std::size_t i)
{
    return &row.findArray("assertions")->at(i);
}

void factLines(SectionBuilder &facts, const std::vector<InsertionOrderedMap::Entry> &current)
{
    for (const InsertionOrderedMap::Entry &e : current) {
        if (!isString(standingOfRow(e.row), "fact"))
            continue;
        const json::Value &row = *e.row;
        const std::size_t n = assertionCount(row);
        if (n == 0) {
            facts.add([&](LineComposer &c) {
                c.row(e.rowIndex).library(u"(fact declared, nothing asserted) \u2190 ");
                provenance(c, row);
            });
            continue;
        }
        // Either stratum is printed, and there is no tested suffix on a fact line.
        for (std::size_t i = 0; i < n; ++i) {
            facts.add([&](LineComposer &c) {
                const json::Value *a = assertionAt(row, i);
                c.row(e.rowIndex);
                subject(c, a);
                c.library(u" = ").rendered(member(a, "value")).library(u" \u2190 ");
                provenance(c, row);
            });
        }
    }
}

void conflictLines(SectionBuilder &limitations, const LedgerFold &fold)
{
    for (const Conflict &conflict : fold.conflicts) {
        if (conflict.witnesses.empty())
            continue; // cannot happen with well-formed rows (§3.4)
        limitations.add([&](LineComposer &c) {
            c.library(u"conflict on ");
            subject(c, conflict.witnesses.front().assertion);
            c.library(u": ");
            bool first = true;
            for (const AssertionRef &w : conflict.witnesses) {
                if (!first)
                    c.library(u" vs ");
                first = false;
                c.row(w.rowIndex);
                provenance(c, *w.row);
            }
        });
    }
}

void ruledOutLines(SectionBuilder &limitations, const std::vector<InsertionOrderedMap::Entry> &current,
                   const InsertionOrderedMap &tested)
{
    for (const InsertionOrderedMap::Entry &e : current) {
        if (!isString(standingOfRow(e.row), "ruled-out"))
            continue;
        limitations.add([&](LineComposer &c) {
            c.row(e.rowIndex).library(u"ruled out (");
            where(c, *e.row);
            c.library(u")");
            if (const json::Value *line = e.row->find("line"))
                c.library(u": ").model(line);
            testedSuffix(c, *e.row, tested);
        });
    }
}

void openLines(SectionBuilder &evidence, const std::vector<InsertionOrderedMap::Entry> &current,
               const InsertionOrderedMap &tested)
{
    for (const InsertionOrderedMap::Entry &e : current) {
        if (!isString(standingOfRow(e.row), "open"))
            continue;
        const json::Value &row = *e.row;
        const auto tail = [&](LineComposer &c) {
            if (const json::Value *settles = row.find("settles"))
                c.library(u" \u00B7 settles: ").model(settles);
            testedSuffix(c, row, tested);
        };
        const std::size_t n = assertionCount(row);
        if (n == 0) {
            evidence.add([&](LineComposer &c) {
                c.row(e.rowIndex).library(u"open (");
                where(c, row);
                c.library(u")");
                tail(c);
            });
            continue;
        }
        for (std::size_t i = 0; i < n; ++i) {
            evidence.add([&](LineComposer &c) {
                const json::Value *a = assertionAt(row, i);
                c.row(e.rowIndex).library(u"open (");
                where(c, row);
                c.library(u"): ");
                subject(c, a);
                c.library(u" = ").rendered(member(a, "value"));
                tail(c);
            });
        }
    }
}

void nextStepLines(SectionBuilder &nextSteps, const std::vector<InsertionOrderedMap::Entry> &current)
{
    for (const InsertionOrderedMap::Entry &e : current) {
        const json::Value *settles = e.row->find("settles");
        if (!settles || !isString(standingOfRow(e.row), "open"))
            continue;
        // The raw id: no ref and no unknown-id mark (§3.4).
        nextSteps.add([&](LineComposer &c) {
            c.row(e.rowIndex).model(settles).library(u" (to settle tool:").model(e.row->find("toolCallId"));
            c.library(u")");
        });
    }
}

// §3.6: every contingent row, in LEDGER order, no deduplication.
void contingentLines(SectionBuilder &contingent, const json::Value &rows, const std::vector<std::size_t> &indices)
{
    for (std::size_t i : indices) {
        const json::Value &row = rows.at(i);
        contingent.add([&](LineComposer &c) {
            c.row(i);
            const json::Value *declaredOn = row.find("declaredOn");
            if (isString(declaredOn, "answer"))
                c.library(u"answer");
            else
                c.library(u"tool:").model(member(declaredOn, "toolCallId"));
            c.library(u" used ").model(row.find("value")).library(u" from ");
            if (const json::Value *carriers = row.findArray("carriers")) {
                bool first = true;
                for (const json::Value &carrier : *carriers) {
                    if (!first)
                        c.library(u", ");
                    first = false;
                    c.library(u"tool:").model(carrier.find("toolCallId")).library(u" (");
                    c.model(carrier.find("standing")).library(u")");
                }
            }
        });
    }
}

// itemText (§3.7): `what`, then ` — why` when present.
void itemText(LineComposer &c, const json::Value &item)
{
    c.model(item.find("what"));
    if (const json::Value *why = item.find("why"))
        c.library(u" \u2014 ").model(why);
}

// §3.7: the cap counts LINES, not rows.
void unsettledLines(SectionBuilder &unsettled, const LedgerFold &fold)
{
    for (const UnsettledEntry &entry : fold.unsettled) {
        const InsertionOrderedMap::Entry *standing = fold.standingOf.get(entry.toolCallId);
        if (!standing)
            continue; // the fold keeps an entry only beside a current ruled-out standing
        const json::Value &row = *entry.row;
        unsettled.add([&](LineComposer &c) {
            c.row(standing->rowIndex).row(entry.rowIndex).library(u"ruled out (");
            where(c, *standing->row);
            c.library(u") on an absence");
        });
        const json::Value *id = row.find("toolCallId");
        const auto items = [&](std::string_view key, std::u16string_view label) {
            // `row[key] ?? []`; a non-array (a type break) lists nothing.
            const json::Value *list = row.findArray(key);
            if (!list)
                return;
            for (const json::Value &item : *list) {
                unsettled.add([&](LineComposer &c) {
                    c.row(entry.rowIndex).library(u"tool:").model(id).library(label);
                    itemText(c, item);
                });
            }
        };
        items("notChecked", u" not_checked: ");
        items("cannotCover", u" cannot_cover: ");
        if (const json::Value *tryInstead = row.find("tryInstead")) {
            unsettled.add([&](LineComposer &c) {
                c.row(entry.rowIndex).library(u"tool:").model(id).library(u" try_instead: ").model(tryInstead);
            });
        }
    }
}

// countLine (§3.5): `label: N result(s)<note> (tool:<clipId(id)>, …, +K more)`; omitted with no ids.
template <class IdAt>
void countLine(std::vector<PieceSection> &sections, SectionKind kind, std::u16string_view label,
               std::u16string_view note, std::size_t n, IdAt &&idAt, const std::vector<std::size_t> &rows)
{
    if (n == 0)
        return;
    LineComposer c;
    c.library(label).library(u": ").library(n).library(n == 1 ? u" result" : u" results").library(note);
    c.library(u" (");
    const std::size_t shown = std::min(n, kListedIds);
    for (std::size_t i = 0; i < shown; ++i) {
        if (i)
            c.library(u", ");
        c.library(u"tool:").clippedId(idAt(i), kIdChars);
    }
    if (n > kListedIds)
        c.library(u", +").library(n - kListedIds).library(u" more"); // no "(cap …)" here
    c.library(u")");
    for (std::size_t row : rows)
        c.row(row);
    PieceSection section;
    section.kind = kind;
    section.totalContentLines = n;
    PieceLine line = std::move(c).unclipped(LineKind::CountLine);
    line.hiddenLines = n > kListedIds ? n - kListedIds : 0;
    section.lines.push_back(std::move(line));
    sections.push_back(std::move(section));
}

template <class Lines>
PieceSection fixedSection(SectionKind kind, LineKind lineKind, const Lines &lines)
{
    PieceSection section;
    section.kind = kind;
    for (const auto &text : lines)
        section.lines.push_back(LineComposer::fixedLine(text, lineKind));
    section.totalContentLines = section.lines.size();
    return section;
}

std::u16string joinSections(const std::vector<PieceSection> &sections)
{
    std::size_t size = 0;
    for (const PieceSection &s : sections)
        for (const PieceLine &l : s.lines)
            size += l.text.size() + 2;
    std::u16string text;
    text.reserve(size);
    for (std::size_t s = 0; s < sections.size(); ++s) {
        if (s)
            text += u"\n\n";
        for (std::size_t l = 0; l < sections[s].lines.size(); ++l) {
            if (l)
                text += u'\n';
            text += sections[s].lines[l].text;
        }
    }
    return text;
}

} // namespace

std::optional<FindingsPiece> composeFindingsPiece(const json::Value *rows, const std::vector<std::string> &served,
                                                  AnswerAsk ask, HeaderTable table)
{
    return composeFindingsPiece(rows, rows ? foldLedger(*rows) : LedgerFold{}, served, ask, table);
}

std::optional<FindingsPiece> composeFindingsPiece(const json::Value *rows, const LedgerFold &fold,
                                                  const std::vector<std::string> &served, AnswerAsk ask,
                                                  HeaderTable table)
{
    // §3: no piece for an absent ledger or one without a standing, whatever the ask (it never rides alone).
    if (!rows)
        return std::nullopt;
    if (!fold.hasStanding)
        return std::nullopt;
    const std::vector<InsertionOrderedMap::Entry> &current = fold.standingOf.entries();
    const LedgerScan scan = scanLedger(*rows);
    const InsertionOrderedMap &tested = scan.tested;

    FindingsPiece piece;
    std::vector<PieceSection> &sections = piece.sections;
    sections.push_back(fixedSection(SectionKind::Header, LineKind::Header, pieceHeaderLines(table)));

    SectionBuilder facts(SectionKind::Facts, kFactsHeading);
    factLines(facts, current);
    facts.appendTo(sections);

    SectionBuilder limitations(SectionKind::Limitations, kLimitationsHeading);
    conflictLines(limitations, fold);
    ruledOutLines(limitations, current, tested);
    limitations.appendTo(sections);

    SectionBuilder evidence(SectionKind::EvidenceRefs, kEvidenceRefsHeading);
    openLines(evidence, current, tested);
    evidence.appendTo(sections);

    SectionBuilder nextSteps(SectionKind::NextSteps, kNextStepsHeading);
    nextStepLines(nextSteps, current);
    nextSteps.appendTo(sections);

    SectionBuilder contingent(SectionKind::Contingent, kContingentHeading);
    contingentLines(contingent, *rows, scan.contingentRows);
    contingent.appendTo(sections);

    SectionBuilder unsettled(SectionKind::Unsettled, kUnsettledHeading);
    unsettledLines(unsettled, fold);
    unsettled.appendTo(sections);

    // §3.5 noise: every current noise row in fold order, unknown-id rows included.
    std::vector<const InsertionOrderedMap::Entry *> noise;
    std::vector<std::size_t> noiseRows;
    for (const InsertionOrderedMap::Entry &e : current) {
        if (isString(standingOfRow(e.row), "noise")) {
            noise.push_back(&e);
            noiseRows.push_back(e.rowIndex);
        }
    }
    countLine(
        sections, SectionKind::Noise, kNoiseLabel, u"", noise.size(),
        [&](std::size_t i) { return stringOf(noise[i]->row->find("toolCallId")); }, noiseRows);

    const std::vector<std::string> undeclared = undeclaredIds(served, fold);
    countLine(sections, SectionKind::Undeclared, kUndeclaredLabel, kUndeclaredNote, undeclared.size(),
              [&](std::size_t i) { return undeclared[i]; }, {});

    if (ask == AnswerAsk::QuoteFacts)
        sections.push_back(fixedSection(SectionKind::Ask, LineKind::Ask, answerAskLines()));

    // The text is the join of the lines, so the bytes and the structure cannot disagree.
    piece.text = joinSections(sections);
    return piece;
}

} // namespace tf::findings
