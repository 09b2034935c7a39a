#include "pairsides.h"

#include "ledgerdiff.h"
#include "worddiff.h"

#include "core/text/counted.h"
#include "core/text/utf.h"

#include <algorithm>
#include <string_view>
#include <utility>

namespace tf::compare {

namespace {

using Op = text::DiffLine::Op;

// One side's text, built in UTF-16 units so that the marks are where a surface counts them.
class SideBuilder
{
public:
    void plain(std::u16string_view s) { m_text += s; }
    void plain(std::string_view wtf8) { m_text += text::toUtf16(wtf8); }
    void marked(std::u16string_view s)
    {
        if (s.empty())
            return;
        const std::size_t begin = m_text.size();
        m_text += s;
        if (!m_marks.empty() && m_marks.back().endU16 == begin)
            m_marks.back().endU16 = m_text.size();
        else
            m_marks.push_back({begin, m_text.size()});
    }
    void marked(std::string_view wtf8) { marked(std::u16string_view(text::toUtf16(wtf8))); }
    // Where the other side has text this side lacks: an empty mark.
    void point() { m_marks.push_back({m_text.size(), m_text.size()}); }
    bool empty() const { return m_text.empty(); }
    MarkedText done() const { return {text::toWtf8(m_text), m_marks}; }

private:
    std::u16string m_text;
    std::vector<MarkedText::Mark> m_marks;
};

constexpr std::u16string_view kEllipsis = u"\u2026";

// Keeps [from, to) of `units` marked, with some context on either side; a long middle is cut.
void excerpt(SideBuilder &out, std::u16string_view units, std::size_t from, std::size_t to)
{
    std::size_t start = from > kContextBeforeU16 ? from - kContextBeforeU16 : 0;
    if (start > 0 && text::isLowSurrogate(units[start]))
        ++start;
    if (start > 0)
        out.plain(kEllipsis);
    out.plain(units.substr(start, from - start));
    if (to - from > kDifferingShownU16) {
        std::size_t cut = from + kDifferingShownU16;
        if (text::isLowSurrogate(units[cut]))
            --cut;
        out.marked(units.substr(from, cut - from));
        out.plain(kEllipsis);
        out.plain(text::toUtf16(" (" + std::to_string(to - cut) + " more units differ) "));
        out.plain(kEllipsis);
    } else if (from == to) {
        out.point();
    } else {
        out.marked(units.substr(from, to - from));
    }
    std::size_t end = std::min(units.size(), to + kContextAfterU16);
    if (end < units.size() && text::isLowSurrogate(units[end]))
        --end;
    out.plain(units.substr(to, end - to));
    if (end < units.size())
        out.plain(kEllipsis);
}

// Two texts that differ: each cut around the range between their common prefix and common suffix, that range marked.
// A side that lacks the text says so.
void differingTexts(SideBuilder &a, SideBuilder &b, std::string_view textA, std::string_view textB, bool inA, bool inB)
{
    const std::u16string ua = text::toUtf16(textA), ub = text::toUtf16(textB);
    if (!inA || !inB) {
        (inA ? b : a).plain(u"(not sent)");
        const std::u16string &sent = inA ? ua : ub;
        excerpt(inA ? a : b, sent, 0, sent.size());
        return;
    }
    std::size_t prefix = 0;
    while (prefix < ua.size() && prefix < ub.size() && ua[prefix] == ub[prefix])
        ++prefix;
    if (prefix > 0 && text::isHighSurrogate(ua[prefix - 1]))
        --prefix;
    std::size_t suffix = 0;
    const std::size_t room = std::min(ua.size(), ub.size()) - prefix;
    while (suffix < room && ua[ua.size() - 1 - suffix] == ub[ub.size() - 1 - suffix])
        ++suffix;
    if (suffix > 0 && text::isLowSurrogate(ua[ua.size() - suffix]))
        --suffix;
    excerpt(a, ua, prefix, ua.size() - suffix);
    excerpt(b, ub, prefix, ub.size() - suffix);
}

// A text with the byte ranges [begin, end) marked; ranges separated by blanks only become one mark.
void withMarkedBytes(SideBuilder &out, std::string_view text, std::vector<std::pair<std::size_t, std::size_t>> ranges)
{
    std::sort(ranges.begin(), ranges.end());
    std::vector<std::pair<std::size_t, std::size_t>> merged;
    for (const auto &r : ranges) {
        if (!merged.empty()) {
            const std::string_view between = text.substr(merged.back().second, r.first - merged.back().second);
            if (between.find_first_not_of(" \n") == std::string_view::npos) {
                merged.back().second = r.second;
                continue;
            }
        }
        merged.push_back(r);
    }
    std::size_t at = 0;
    for (const auto &[begin, end] : merged) {
        out.plain(text.substr(at, begin - at));
        out.marked(text.substr(begin, end - begin));
        at = end;
    }
    out.plain(text.substr(at));
}

std::string joined(const std::vector<std::string> &items, const char *separator = ", ")
{
    std::string out;
    for (const std::string &item : items)
        out += (out.empty() ? "" : separator) + item;
    return out;
}

PairSides servedSides(const PairDiff &pair)
{
    PairSides s;
    s.same = pair.served.empty();
    SideBuilder a, b;
    if (pair.served.empty()) {
        s.summary =
            pair.notCompared.empty() ? "served the same bytes" : "served the same bytes where both are on record";
    } else {
        const PartDifference &first = pair.served.front();
        s.summary = pair.served.size() == 1 ? first.name + " differs"
                                            : text::counted(pair.served.size(), "part differs", "parts differ") +
                                                  ", the first " + first.name;
        if (first.utf16Offset)
            s.summary += " from UTF-16 offset " + std::to_string(*first.utf16Offset);
    }
    if (!pair.notCompared.empty())
        s.summary += "; on record in one run only: " + joined(pair.notCompared);
    for (std::size_t k = 0; k < pair.served.size() && k < kPartsShown; ++k) {
        const PartDifference &part = pair.served[k];
        if (k > 0) {
            a.plain(u"\n\n");
            b.plain(u"\n\n");
        }
        for (SideBuilder *side : {&a, &b})
            side->plain(u"\u25B8 " + text::toUtf16(part.name) + u"\n");
        const PairDiff::PartBytes *bytes = k < pair.servedBytes.size() ? &pair.servedBytes[k] : nullptr;
        differingTexts(a, b, bytes ? std::string_view(bytes->a) : std::string_view(),
                       bytes ? std::string_view(bytes->b) : std::string_view(), part.inA, part.inB);
    }
    if (pair.served.size() > kPartsShown)
        for (SideBuilder *side : {&a, &b})
            side->plain(text::toUtf16("\n\n\u2026 and " +
                                      text::counted(pair.served.size() - kPartsShown, "more part", "more parts") +
                                      " that differ"));
    s.a = a.done();
    s.b = b.done();
    return s;
}

PairSides responseSides(const PairDiff &pair)
{
    PairSides s;
    SideBuilder a, b;
    std::vector<std::string> said;
    if (pair.responseOnRecordA != pair.responseOnRecordB)
        said.push_back(std::string("a response on record in ") + (pair.responseOnRecordA ? "A" : "B") + " only");
    if (pair.responseTextOffset)
        said.push_back("text differs at UTF-16 offset " + std::to_string(*pair.responseTextOffset));
    if (!pair.toolCallsSame)
        said.push_back("tool calls differ");
    if (!pair.toolResults.empty())
        said.push_back(text::counted(pair.toolResults.size(), "tool result differs", "tool results differ"));
    s.same = said.empty();
    s.summary = s.same ? "the same response" : joined(said, "; ");

    // The text, its differing words marked.
    std::vector<std::pair<std::size_t, std::size_t>> wordsA, wordsB;
    if (pair.responseTextOffset) {
        const std::vector<WordSpan> spansA = wordSpans(pair.responseTextA), spansB = wordSpans(pair.responseTextB);
        for (const text::DiffLine &w : wordDiff(pair.responseTextA, pair.responseTextB)) {
            if (w.op == Op::Removed)
                wordsA.emplace_back(spansA[std::size_t(w.oldLine)].begin, spansA[std::size_t(w.oldLine)].end);
            else if (w.op == Op::Added)
                wordsB.emplace_back(spansB[std::size_t(w.newLine)].begin, spansB[std::size_t(w.newLine)].end);
        }
    }
    const auto text = [](SideBuilder &out, bool onRecord, const std::string &t,
                         std::vector<std::pair<std::size_t, std::size_t>> marks) {
        if (!onRecord)
            out.plain(u"(no response on record)");
        else if (t.empty())
            out.plain(u"(no text)");
        else
            withMarkedBytes(out, t, std::move(marks));
    };
    text(a, pair.responseOnRecordA, pair.responseTextA, std::move(wordsA));
    text(b, pair.responseOnRecordB, pair.responseTextB, std::move(wordsB));

    // The tool calls, line by line: a call the other side did not make is marked.
    if (!pair.toolCallsA.empty() || !pair.toolCallsB.empty()) {
        a.plain(u"\n\ntool calls:");
        b.plain(u"\n\ntool calls:");
        for (const text::DiffLine &l : text::diffLines(pair.toolCallsA, pair.toolCallsB)) {
            SideBuilder &side = l.op == Op::Added ? b : a;
            side.plain(u"\n  ");
            if (l.op == Op::Same) {
                side.plain(l.text);
                b.plain(u"\n  ");
                b.plain(l.text);
            } else {
                side.marked(l.text);
            }
        }
    }

    for (const ToolResultDifference &r : pair.toolResults) {
        const std::u16string head = text::toUtf16("\n\n\u25B8 tool result " + r.name + " " + r.args + "\n");
        a.plain(head);
        b.plain(head);
        const std::string resultA = r.a.value_or(std::string()), resultB = r.b.value_or(std::string());
        differingTexts(a, b, resultA, resultB, r.a.has_value(), r.b.has_value());
        if (r.errorA != r.errorB)
            (r.errorA ? a : b).marked(u"\n(the tool threw)");
    }
    s.a = a.done();
    s.b = b.done();
    return s;
}

PairSides ledgerSides(const PairDiff &pair)
{
    PairSides s;
    s.same = pair.ledger.empty();
    s.summary = s.same ? "the same rows (compared without the ids a run issues)"
                       : text::counted(pair.ledger.onlyInA.size(), "row", "rows") + " only in A, " +
                             std::to_string(pair.ledger.onlyInB.size()) + " only in B";
    const auto rows = [](const std::vector<findings::LedgerRowView> &only) {
        SideBuilder out;
        for (const findings::LedgerRowView &row : only) {
            if (!out.empty())
                out.plain(u"\n");
            out.plain("#" + std::to_string(row.index) + "  ");
            out.marked(ledgerRowLine(row));
        }
        return out.done();
    };
    s.a = rows(pair.ledger.onlyInA);
    s.b = rows(pair.ledger.onlyInB);
    return s;
}

PairSides pieceSides(const PairDiff &pair)
{
    PairSides s;
    const text::DiffStats stats = text::diffStats(pair.pieceLines);
    s.same = pair.pieceOnRecordA == pair.pieceOnRecordB && stats.added == 0 && stats.removed == 0;
    if (!pair.pieceOnRecordA && !pair.pieceOnRecordB)
        s.summary = "no findings piece in either call";
    else if (pair.pieceOnRecordA != pair.pieceOnRecordB)
        s.summary = std::string("a findings piece in ") + (pair.pieceOnRecordA ? "A" : "B") + " only";
    else if (s.same)
        s.summary = "the same piece";
    else
        s.summary = text::counted(std::size_t(stats.removed), "line", "lines") + " only in A, " +
                    std::to_string(stats.added) + " only in B";
    SideBuilder a, b;
    bool firstA = true, firstB = true;
    for (const text::DiffLine &l : pair.pieceLines) {
        const auto line = [&](SideBuilder &side, bool &first, bool mark) {
            if (!std::exchange(first, false))
                side.plain(u"\n");
            mark ? side.marked(l.text) : side.plain(l.text);
        };
        if (l.op != Op::Added)
            line(a, firstA, l.op == Op::Removed);
        if (l.op != Op::Removed)
            line(b, firstB, l.op == Op::Added);
    }
    if (!pair.pieceOnRecordA)
        a.plain(u"(no findings piece)");
    if (!pair.pieceOnRecordB)
        b.plain(u"(no findings piece)");
    s.a = a.done();
    s.b = b.done();
    return s;
}

PairSides cacheSides(const PairDiff &pair)
{
    PairSides s;
    s.same = pair.verdictA == pair.verdictB;
    const std::string idA = recording::cacheVerdictId(pair.verdictA), idB = recording::cacheVerdictId(pair.verdictB);
    s.summary = s.same ? "the same cache verdict (" + idA + ")" : "cache verdict: A " + idA + ", B " + idB;
    for (auto [side, id] : {std::pair{&s.a, &idA}, std::pair{&s.b, &idB}}) {
        SideBuilder out;
        out.plain(u"cache verdict: ");
        s.same ? out.plain(*id) : out.marked(*id);
        *side = out.done();
    }
    return s;
}

} // namespace

PairPanes pairPanes(const PairDiff &pair)
{
    PairPanes panes{servedSides(pair), responseSides(pair), ledgerSides(pair), pieceSides(pair), cacheSides(pair)};
    if (pair.callInA && pair.callInB)
        return panes;
    // A call beside a gap: every subject differs, and the gap's side says why it is empty.
    const std::string summary = std::string("only ") + (pair.callInA ? "A" : "B") + " made this call";
    for (PairSides *s : {&panes.served, &panes.response, &panes.ledger, &panes.piece, &panes.cache}) {
        s->same = false;
        s->summary = summary;
        (pair.callInA ? s->b : s->a) = {"(no call)", {}};
    }
    return panes;
}

} // namespace tf::compare
