#include "reportsections.h"

#include "core/report/html/piecetable.h"
#include "core/report/html/reportchips.h"
#include "core/report/html/reportformat.h"

#include "core/json/writer.h"

namespace tf::report::html {

void renderBacktrack(HtmlWriter &h, const Backtrack &bt, const HtmlReportOptions &options)
{
    sectionHeading(h, "answer", 2, "Final answer and backtrack");
    if (!bt.answer) {
        h.raw("<p class=\"muted\">The recording holds no final answer.</p>");
        return;
    }
    h.raw("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"10\" class=\"answer\"><tr><td>")
        .text(*bt.answer)
        .raw("</td></tr></table>");
    h.raw("<p class=\"small muted\">For each value the answer uses: the fact line the model was served, the standing "
          "row that declared it, the tool result that row judged, and the call at which that result first entered "
          "the served context.");
    if (bt.finalOrdinal) {
        h.raw(" The answer is the output of ");
        callLink(h, *bt.finalOrdinal);
        h.raw(".");
    }
    h.raw("</p><ul class=\"statements\">");
    for (const std::string &s : bt.statements)
        h.raw("<li>").text(s).raw("</li>");
    for (const std::string &s : bt.details)
        h.raw("<li>").text(s).raw("</li>");
    h.raw("</ul>");

    for (const BacktrackValue &v : bt.values) {
        for (const ValueSource &s : v.sources) {
            h.raw("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"6\" class=\"vhead\"><tr><td>Value <span "
                  "class=\"v\">")
                .text(v.value)
                .raw("</span> \u2014 ");
            h.text(s.subject);
            if (s.conflicted)
                h.raw(" <span class=\"chip b-damaged\">in conflict</span>");
            h.raw("</td></tr></table><table width=\"100%\" class=\"kv value\" cellspacing=\"0\" cellpadding=\"4\">");
            h.raw("<tr><th>Fact line</th><td><table width=\"100%\" class=\"piece\" cellspacing=\"0\" "
                  "cellpadding=\"2\"><tr class=\"c\">"
                  "<td class=\"g\">#")
                .num(s.standingRowIndex)
                .raw("</td><td class=\"t\">");
            pieceLineText(h, s.factLine);
            h.raw("</td></tr></table>");
            if (!s.factLineInPiece)
                h.raw("<span class=\"small muted\">Past the piece's 64-line cap: the model was not shown this line; "
                      "it is composed here by the same grammar.</span>");
            h.raw("</td></tr>");
            h.raw("<tr><th>Standing row #")
                .num(s.standingRowIndex)
                .raw("</th><td><pre class=\"json\">")
                .text(json::stringify(s.standingRow))
                .raw("</pre></td></tr>");
            h.raw("<tr><th>Tool result</th><td><code>tool:").text(s.toolCallId).raw("</code>");
            if (s.toolName)
                h.raw(" (").text(*s.toolName).raw(")");
            if (s.resultContent) {
                std::size_t cut = 0;
                const std::string shown = excerpt(*s.resultContent, options.resultExcerptUnits, &cut);
                h.raw(s.valueInResult ? " \u00B7 <span class=\"yes\">the value occurs in this result</span>"
                                      : " \u00B7 <span class=\"no\">the value does not occur in this result</span>");
                h.raw("<pre class=\"result\">").text(shown).raw("</pre>");
                if (cut)
                    h.raw("<span class=\"small muted\">").num(cut).raw(" more units not shown.</span>");
            } else if (s.resultMessage) {
                h.raw("<pre class=\"result\">").text(json::prettyPrint(*s.resultMessage)).raw("</pre>");
            } else {
                h.raw(" \u00B7 <span class=\"no\">not in the final call's history</span>");
            }
            h.raw("</td></tr><tr><th>Entered the context</th><td>");
            if (s.enteredOrdinal) {
                h.raw("at ");
                callLink(h, *s.enteredOrdinal);
                h.raw(" <code>").text(s.enteredStageId).raw("</code>");
                if (s.enteredAsTicket)
                    h.raw(" \u2014 served as a collapse ticket at that call, not in full");
            } else {
                h.raw("<span class=\"unknown\">no call's served context holds this result</span>");
            }
            h.raw("</td></tr></table>");
        }
    }

    if (!bt.contingent.empty()) {
        h.raw("<h4>Values used only from set-aside results (contingent)</h4>");
        h.raw("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"4\"><thead><tr><th "
              "class=\"num\">Row</th><th>Value</th><th>In the "
              "answer</th><th>Carriers</th></tr></thead><tbody>");
        for (const ContingentUse &use : bt.contingent) {
            h.raw("<tr><td class=\"num\">#")
                .num(use.rowIndex)
                .raw("</td><td class=\"wrap\"><code>")
                .text(use.value)
                .raw("</code></td><td>");
            yesNo(h, use.inAnswer);
            h.raw("</td><td class=\"wrap\">");
            for (std::size_t i = 0; i < use.carriers.size(); ++i) {
                const auto &c = use.carriers[i];
                if (i)
                    h.raw("<br>");
                h.raw("<code>tool:").text(c.toolCallId).raw("</code> ");
                standingChip(h, c.standing);
                if (c.enteredOrdinal) {
                    h.raw(" entered at ");
                    callLink(h, *c.enteredOrdinal);
                }
            }
            if (use.carriers.empty())
                h.raw("<span class=\"unknown\">none named</span>");
            h.raw("</td></tr>");
        }
        h.raw("</tbody></table>");
    }
}
} // namespace tf::report::html
