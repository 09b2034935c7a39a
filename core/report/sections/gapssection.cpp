#include "reportsections.h"

#include "core/report/html/reportchips.h"
#include "core/report/html/reportformat.h"

namespace tf::report::html {

void renderGaps(HtmlWriter &h, const recording::Run &run, const std::vector<recording::CallSummary> &calls)
{
    sectionHeading(h, "gaps", 6, "Gaps");
    h.raw("<p class=\"small muted\">What the recording cannot prove. An <b>excuse</b> means the rebuild may be shorter "
          "than what went out; <b>missing</b> means the thing is not on record; a <b>caveat</b> means the receipt "
          "describes the request before a later party (a cache strategy, the vendor) could change it. Caveats never "
          "excuse a mismatch.</p>");
    struct Row
    {
        const recording::Gap *gap = nullptr;
        std::vector<std::size_t> calls;
        bool runLevel = false;
    };
    std::vector<Row> rows;
    const auto rowFor = [&](const recording::Gap &g) -> Row & {
        for (Row &r : rows)
            if (r.gap->name == g.name && r.gap->cause == g.cause)
                return r;
        rows.push_back({&g, {}, false});
        return rows.back();
    };
    for (const recording::Gap &g : run.gaps)
        rowFor(g).runLevel = true;
    for (const recording::CallSummary &c : calls)
        for (const recording::Gap &g : c.gaps())
            rowFor(g).calls.push_back(c.ordinal);
    if (rows.empty()) {
        h.raw("<p>None: every part of every call is on record.</p>");
        return;
    }
    h.raw("<table width=\"100%\" cellspacing=\"0\" "
          "cellpadding=\"4\"><thead><tr><th>Gap</th><th>Where</th><th>Why</th><th>Covers</th>"
          "</tr></thead><tbody>");
    for (const Row &r : rows) {
        h.raw("<tr><td>");
        gapChip(h, *r.gap);
        if (!r.gap->cause.empty())
            h.raw("<br><span class=\"small muted\">").text(r.gap->cause).raw("</span>");
        h.raw("</td><td>");
        if (r.runLevel)
            h.raw("the whole run");
        if (!r.calls.empty()) {
            if (r.runLevel)
                h.raw("; ");
            if (r.calls.size() == calls.size() && calls.size() > 1) {
                h.raw("every call");
            } else {
                for (std::size_t i = 0; i < r.calls.size(); ++i) {
                    if (i)
                        h.raw(", ");
                    callLink(h, r.calls[i]);
                }
            }
        }
        h.raw("</td><td class=\"wrap\">").text(r.gap->why).raw("</td><td class=\"wrap small\">");
        for (std::size_t i = 0; i < r.gap->fields.size(); ++i)
            h.raw(i ? ", " : "").raw("<code>").text(r.gap->fields[i]).raw("</code>");
        h.raw("</td></tr>");
    }
    h.raw("</tbody></table>");
}
} // namespace tf::report::html
