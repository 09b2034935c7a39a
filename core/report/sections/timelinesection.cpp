#include "reportsections.h"

#include "core/report/html/reportchips.h"
#include "core/report/html/reportformat.h"

namespace tf::report::html {

void renderTimeline(HtmlWriter &h, const recording::Run &run, const std::vector<recording::CallSummary> &calls,
                    const NoteIndex &notes)
{
    std::vector<double> wallClock(run.calls.size(), -1);
    for (std::size_t i = 0; i < run.calls.size(); ++i)
        if (const recording::Event *e = run.event(run.calls[i].llmStartEvent))
            wallClock[i] = e->wallClockMs.value_or(-1);

    sectionHeading(h, "timeline", 3, "Timeline");
    h.raw("<p class=\"small muted\">One row per LLM call. <b>Prefix</b>: whether the provider could reuse the cached "
          "tools and system prefix of the previous call (same tool schemas and the same system block). <b>Cache</b>: "
          "what the provider reported (read / write / fresh input tokens). <b>Receipt</b>: verified, reconstructed, "
          "damaged and not-on-record parts.</p>");
    h.raw("<table width=\"100%\" class=\"timeline\" cellspacing=\"0\" cellpadding=\"4\"><thead><tr><th "
          "class=\"num\">Call</th>"
          "<th>Time (UTC)</th><th>Response</th><th class=\"num\">Msgs</th><th class=\"num\">Collapsed</th>"
          "<th class=\"num\">Ledger</th><th class=\"num\">Piece</th><th>Prefix</th><th>Cache</th>"
          "<th class=\"num\">Read / write / fresh</th><th>Receipt</th><th>Marks</th></tr></thead><tbody>");
    for (std::size_t i = 0; i < calls.size(); ++i) {
        const recording::CallSummary &c = calls[i];
        // A conversation's turns head their calls: the user's prompt, as the turn began.
        if (run.turns.size() > 1 && (i == 0 || calls[i - 1].turn != c.turn)) {
            const recording::Turn &t = run.turns.at(c.turn);
            h.raw("<tr class=\"turn\"><td colspan=\"12\"><b>Turn ").num(t.number).raw("</b> \u00B7 ");
            std::size_t cut = 0;
            if (t.userPrompt)
                h.text(excerpt(*t.userPrompt, 200, &cut)).raw(cut ? "\u2026" : "");
            else
                h.raw("<span class=\"unknown\">prompt not on record</span>");
            h.raw("</td></tr>");
        }
        h.raw(c.damaged || !c.response || c.anyToolError() ? "<tr class=\"damaged\">" : "<tr>");
        h.raw("<td class=\"num\"><a href=\"#")
            .raw(callAnchor(c.ordinal))
            .raw("\">")
            .num(c.ordinal + 1)
            .raw("</a></td>");
        h.raw("<td class=\"mono\">")
            .raw(i < wallClock.size() ? utcTime(wallClock[i], false) : "\u2013")
            .raw("</td><td>");
        if (!c.response)
            h.raw("<span class=\"chip b-damaged\">none</span>");
        else if (c.anyToolError())
            h.raw("<span class=\"chip b-damaged\">tool threw</span>");
        else
            h.raw("<code>").text(c.response->stopReason.value_or("?")).raw("</code>");
        h.raw("</td>");
        h.raw("<td class=\"num\">").raw(c.messageCount ? std::to_string(*c.messageCount) : "\u2013").raw("</td>");
        h.raw("<td class=\"num\">").num(c.collapsedIds.size()).raw("</td>");
        h.raw("<td class=\"num\">").num(c.ledgerRows);
        if (c.ledgerChanged)
            h.raw(" <span class=\"muted\">\u25B2</span>");
        h.raw("</td><td class=\"num\">");
        if (c.pieceLengthU16) {
            h.raw(grouped(double(*c.pieceLengthU16)));
            h.raw(c.pieceChangedSincePrevious ? " <span class=\"muted\">\u0394</span>" : "");
        } else {
            h.raw("<span class=\"unknown\">none</span>");
        }
        h.raw("</td><td>");
        yesNo(h, c.prefixReusable, "reusable", "moved");
        h.raw("</td><td>");
        verdictChip(h, c.verdict);
        h.raw("</td><td class=\"num mono\">")
            .raw(optCount(c.cacheRead))
            .raw(" / ")
            .raw(optCount(c.cacheWrite))
            .raw(" / ")
            .raw(optCount(c.input))
            .raw("</td><td>");
        if (c.damaged)
            h.raw("<span class=\"chip b-damaged\">").num(c.damagedParts).raw(" D</span> ");
        h.raw("<span class=\"small\">").num(c.verified).raw("V ").num(c.reconstructed).raw("R");
        if (c.notOnRecord)
            h.raw(" ").num(c.notOnRecord).raw("N");
        if (c.redacted)
            h.raw(" ").num(c.redacted).raw("X");
        h.raw("</span></td><td>");
        if (notes.bookmarked.count(c.ordinal))
            h.raw("\u2605 ");
        if (const std::size_t n = notes.notesAt(c.ordinal))
            h.raw("\u270E").num(n);
        h.raw("</td></tr>");
    }
    h.raw("</tbody></table>");
}
} // namespace tf::report::html
