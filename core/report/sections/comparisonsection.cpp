#include "reportsections.h"

#include "core/report/html/reportchips.h"
#include "core/report/html/reportformat.h"
#include "core/report/inspectreport.h"
#include "core/text/utf.h"

namespace tf::report::html {

namespace {

// B's calls have no anchors in A's report: plain numbers.
void baselineCall(HtmlWriter &h, const std::optional<std::size_t> &ordinal)
{
    if (ordinal)
        h.num(*ordinal + 1);
    else
        h.raw("\u2013");
}

// This run's calls link to their sections, by number as the timeline does.
void thisCall(HtmlWriter &h, const std::optional<std::size_t> &ordinal)
{
    if (ordinal)
        h.raw("<a href=\"#").raw(callAnchor(*ordinal)).raw("\">").num(*ordinal + 1).raw("</a>");
    else
        h.raw("\u2013");
}

void codeList(HtmlWriter &h, const std::vector<std::string> &names, std::size_t from = 0, std::size_t most = 12)
{
    for (std::size_t i = from; i < names.size() && i < from + most; ++i)
        h.raw(i > from ? ", " : "").raw("<code>").text(names[i]).raw("</code>");
    if (names.size() > from + most)
        h.raw(", +").num(names.size() - from - most).raw(" more");
}

// A text around the unit where it first differs from the other run's, the rest from there marked.
void around(HtmlWriter &h, const std::string &wtf8, std::size_t at, bool sent)
{
    if (!sent) {
        h.raw("<span class=\"unknown\">not sent</span>");
        return;
    }
    std::size_t split = 0;
    const std::string shown = text::aroundUnit(wtf8, at, 60, 120, &split);
    h.raw("<pre class=\"result\">")
        .text(std::string_view(shown).substr(0, split))
        .raw("<span class=\"apart\">")
        .text(std::string_view(shown).substr(split))
        .raw("</span></pre>");
}

// Both sides of the first differing part.
void bothAround(HtmlWriter &h, const std::string &a, const std::string &b, std::size_t at, bool aThere, bool bThere)
{
    h.raw("<tr><th>This run</th><td>");
    around(h, a, at, aThere);
    h.raw("</td></tr><tr><th>Baseline</th><td>");
    around(h, b, at, bThere);
    h.raw("</td></tr>");
}

void renderPair(HtmlWriter &h, const compare::PairDiff &pair)
{
    if (pair.served.size() > 1) {
        h.raw("<tr><th>Then served differently</th><td>");
        std::vector<std::string> names;
        for (const compare::PartDifference &d : pair.served)
            names.push_back(d.name);
        codeList(h, names, 1);
        h.raw("</td></tr>");
    }
    if (!pair.notCompared.empty()) {
        h.raw("<tr><th>On record in one run only</th><td>");
        codeList(h, pair.notCompared);
        h.raw(" <span class=\"small muted\">(not compared)</span></td></tr>");
    }
    h.raw("<tr><th>Response</th><td>");
    if (pair.responseOnRecordA != pair.responseOnRecordB)
        h.raw("on record in ").raw(pair.responseOnRecordA ? "this run" : "the baseline").raw(" only");
    else if (!pair.responseOnRecordA)
        h.raw("<span class=\"unknown\">not on record in either run</span>");
    else if (pair.responseTextOffset)
        h.raw("the text differs from UTF-16 offset ").num(*pair.responseTextOffset);
    else
        h.raw("the same text");
    if (!pair.toolCallsSame) {
        h.raw("; the tool calls differ:<pre class=\"result\">");
        for (const std::string &c : pair.toolCallsA)
            h.raw("this run: ").text(c).raw("\n");
        for (const std::string &c : pair.toolCallsB)
            h.raw("baseline: ").text(c).raw("\n");
        h.raw("</pre>");
    }
    h.raw("</td></tr>");
    for (const compare::ToolResultDifference &r : pair.toolResults) {
        h.raw("<tr><th>Tool result <code>").text(r.name).raw("</code></th><td><code>").text(r.args).raw("</code>");
        if (r.utf16Offset && r.a && r.b) {
            h.raw(" returned another result, from UTF-16 offset ").num(*r.utf16Offset).raw(":");
            h.raw("<pre class=\"result\">this run: ").text(text::aroundUnit(*r.a, *r.utf16Offset, 40, 80));
            h.raw("\nbaseline: ").text(text::aroundUnit(*r.b, *r.utf16Offset, 40, 80)).raw("</pre>");
        } else {
            h.raw(" returned in ").raw(r.a ? "this run" : r.b ? "the baseline" : "neither run").raw(" only");
        }
        h.raw("</td></tr>");
    }
    for (const auto &[side, rows] :
         {std::pair{"this run", &pair.ledger.onlyInA}, std::pair{"the baseline", &pair.ledger.onlyInB}}) {
        if (rows->empty())
            continue;
        h.raw("<tr><th>Ledger rows only in ").raw(side).raw("</th><td><ul class=\"statements\">");
        for (const findings::LedgerRowView &row : *rows) {
            h.raw("<li><code>").text(row.kindName).raw("</code> ");
            if (!row.tool.empty())
                h.text(row.tool).raw(" ");
            if (!row.standing.empty())
                standingChip(h, row.standing);
            const std::string detail = row.detailText();
            if (!detail.empty())
                h.raw(" ").text(detail);
            h.raw("</li>");
        }
        h.raw("</ul></td></tr>");
    }
    const text::DiffStats piece = text::diffStats(pair.pieceLines);
    if (pair.pieceOnRecordA != pair.pieceOnRecordB) {
        h.raw("<tr><th>Findings piece</th><td>served in ")
            .raw(pair.pieceOnRecordA ? "this run" : "the baseline")
            .raw(" only</td></tr>");
    } else if (piece.added || piece.removed) {
        h.raw("<tr><th>Findings piece</th><td>")
            .num(std::size_t(piece.removed))
            .raw(" line(s) only in this run, ")
            .num(std::size_t(piece.added))
            .raw(" only in the baseline<pre class=\"result\">");
        for (const text::DiffLine &l : pair.pieceLines)
            if (l.op != text::DiffLine::Op::Same)
                h.raw(l.op == text::DiffLine::Op::Removed ? "this run: " : "baseline: ").text(l.text).raw("\n");
        h.raw("</pre></td></tr>");
    }
    if (pair.verdictA != pair.verdictB) {
        h.raw("<tr><th>Cache</th><td>this run ");
        verdictChip(h, pair.verdictA);
        h.raw(", baseline ");
        verdictChip(h, pair.verdictB);
        h.raw("</td></tr>");
    }
}

void renderAlignment(HtmlWriter &h, const compare::RunDiff &diff)
{
    h.raw("<h4>Alignment</h4><table width=\"100%\" class=\"timeline\" cellspacing=\"0\" cellpadding=\"4\"><thead><tr>"
          "<th class=\"num\">This run</th><th class=\"num\">Baseline</th><th>Served</th><th>What differs</th>"
          "</tr></thead><tbody>");
    const auto &rows = diff.aligned;
    for (std::size_t i = 0; i < rows.size();) {
        const compare::AlignedCall &c = rows[i];
        // Pairs served the same with nothing else differing are one row per stretch.
        if (c.same && c.parts.empty()) {
            std::size_t j = i;
            while (j + 1 < rows.size() && rows[j + 1].same && rows[j + 1].parts.empty())
                ++j;
            h.raw("<tr><td class=\"num\">");
            thisCall(h, c.a);
            if (j > i)
                h.raw("\u2013").num(*rows[j].a + 1);
            h.raw("</td><td class=\"num\">");
            baselineCall(h, c.b);
            if (j > i)
                h.raw("\u2013").num(*rows[j].b + 1);
            h.raw("</td><td><span class=\"chip b-verified\">same</span></td><td></td></tr>");
            i = j + 1;
            continue;
        }
        h.raw(c.servedParts > 0 || !c.a || !c.b ? "<tr class=\"damaged\"><td class=\"num\">"
                                                : "<tr><td class=\"num\">");
        thisCall(h, c.a);
        h.raw("</td><td class=\"num\">");
        baselineCall(h, c.b);
        h.raw("</td><td>");
        if (!c.a || !c.b)
            h.raw("<span class=\"chip b-damaged\">only in ").raw(c.a ? "this run" : "the baseline").raw("</span>");
        else if (c.servedParts > 0)
            h.raw("<span class=\"chip b-damaged\">differs</span>");
        else if (!c.notCompared.empty())
            h.raw("<span class=\"chip b-not-on-record\">not comparable</span>");
        else
            h.raw("<span class=\"chip b-verified\">same</span>");
        h.raw("</td><td class=\"wrap small\">");
        codeList(h, c.parts, 0, 8);
        if (!c.notCompared.empty()) {
            h.raw(c.parts.empty() ? "" : "; ").raw("on record in one run only: ");
            codeList(h, c.notCompared, 0, 4);
        }
        h.raw("</td></tr>");
        ++i;
    }
    h.raw("</tbody></table>");
}

} // namespace

void renderComparison(HtmlWriter &h, const recording::Run &baseline, const compare::RunDiff &diff, int number)
{
    sectionHeading(h, "comparison", number, "Comparison with the baseline run");
    h.raw("<p class=\"small muted\">This run against the baseline <code>")
        .text(baseline.path)
        .raw("</code> (")
        .num(baseline.calls.size())
        .raw(baseline.calls.size() == 1 ? " LLM call" : " LLM calls")
        .raw("). The calls are lined up turn by turn and by their signatures (model, tools offered, tool calls "
             "made), so a call one run made and the other did not is a row of its own. What is compared is the "
             "bytes each call was sent, never the receipts' salted hashes; a part one recording holds and the other "
             "lacks is not compared. Parts are named as the receipt names them; offsets count UTF-16 units.</p>");

    const bool same = diff.same();
    h.raw("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"8\" class=\"verdict ")
        .raw(same ? "good" : "bad")
        .raw("\"><tr><td><p><b>");
    if (same) {
        h.raw("Every aligned call was served the same, and the answers agree.");
    } else if (!diff.firstDivergence) {
        h.raw("No call is known to have been served differently");
        h.raw(diff.answersSame ? ", but not every call could be compared." : ", but the answers differ.");
    } else {
        const compare::Divergence &d = *diff.firstDivergence;
        if (!d.a || !d.b) {
            h.raw("The runs first went apart where ").raw(d.a ? "this run" : "the baseline").raw(" made a call ");
            h.raw(d.a ? "the baseline" : "this run").raw(" did not: ");
            if (d.a)
                callLink(h, *d.a);
            else
                h.raw("baseline call ").num(*d.b + 1);
            h.raw(".");
        } else {
            h.raw("The runs first went apart at ");
            callLink(h, *d.a);
            h.raw(" (baseline call ").num(*d.b + 1).raw("): ");
            if (d.part)
                h.raw("<code>").text(*d.part).raw("</code>");
            if (d.utf16Offset)
                h.raw(" from UTF-16 offset ").num(*d.utf16Offset);
            h.raw(".");
        }
    }
    h.raw("</b></p></td></tr></table>");

    if (diff.firstDivergencePair && diff.firstDivergence && diff.firstDivergence->utf16Offset) {
        const compare::PairDiff &pair = *diff.firstDivergencePair;
        const compare::PartDifference &first = pair.served.front();
        h.raw("<h4>Where they went apart</h4><table width=\"100%\" class=\"kv\" cellspacing=\"0\" cellpadding=\"4\">");
        bothAround(h, pair.firstPartA, pair.firstPartB, *diff.firstDivergence->utf16Offset, first.inA, first.inB);
        renderPair(h, pair);
        h.raw("</table>");
    }

    renderAlignment(h, diff);

    h.raw("<h4>Final answers</h4>");
    if (diff.answersSame) {
        h.raw(diff.answerA ? "<p>The same.</p>" : "<p><span class=\"unknown\">Not on record in either run.</span></p>");
    } else if (!diff.answerA || !diff.answerB) {
        h.raw("<p>On record in ").raw(diff.answerA ? "this run" : "the baseline").raw(" only.</p>");
    } else {
        h.raw("<p class=\"small muted\">Word by word: <span class=\"w-del\">only in this run</span> "
              "<span class=\"w-ins\">only in the baseline</span>.</p><p class=\"wrap\">");
        for (std::size_t i = 0; i < diff.answerWords.size(); ++i) {
            const text::DiffLine &w = diff.answerWords[i];
            h.raw(i ? " " : "");
            if (w.op == text::DiffLine::Op::Same)
                h.text(w.text);
            else
                h.raw(w.op == text::DiffLine::Op::Removed ? "<span class=\"w-del\">" : "<span class=\"w-ins\">")
                    .text(w.text)
                    .raw("</span>");
        }
        h.raw("</p>");
    }
    h.raw("<h4>Outcomes</h4><table width=\"100%\" class=\"kv\" cellspacing=\"0\" cellpadding=\"4\"><tr><th>This "
          "run</th><td>")
        .text(outcomeText(diff.outcomeA))
        .raw("</td></tr><tr><th>Baseline</th><td>")
        .text(outcomeText(diff.outcomeB))
        .raw("</td></tr></table>");
}

} // namespace tf::report::html
