#include "ledgertable.h"

#include "reportchips.h"

#include "core/findings/ledgerfold.h"
#include "core/findings/ledgerrowview.h"

#include <string>
#include <vector>

namespace tf::report::html {

using recording::CallView;

void renderRowTable(HtmlWriter &h, const CallView &view, std::size_t from, std::size_t to)
{
    const findings::LedgerFold fold = findings::foldLedger(view.ledger);
    const std::vector<findings::LedgerRowView> rows =
        findings::ledgerRowViews(view.ledger, fold, view.ledgerIssues, view.ledgerRowsAtPrevious);
    h.raw("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"4\"><thead><tr><th class=\"num\">Row</th><th>Kind</th>"
          "<th>Tool call</th><th>Standing</th><th>Marks</th><th>Detail</th></tr></thead><tbody>");
    for (std::size_t i = from; i < to && i < rows.size(); ++i) {
        const findings::LedgerRowView &r = rows[i];
        h.raw("<tr><td class=\"num\">#").num(i).raw("</td><td>");
        if (r.kind == findings::RowKind::Unknown && findings::isNewerRowKind(r.kindName))
            h.text(r.kindName).raw(" <span class=\"muted\">(not in the piece)</span>");
        else if (r.kind == findings::RowKind::Unknown)
            h.raw("<span class=\"muted\">")
                .text(r.kindName.empty() ? "(no kind)" : r.kindName)
                .raw(" (ignored)</span>");
        else
            h.raw(findings::rowKindName(r.kind));
        h.raw("</td><td class=\"wrap\"><code>").text(r.resultId).raw("</code></td><td>");
        if (r.kind == findings::RowKind::Standing)
            standingChip(h, r.standing);
        else
            h.text(r.standing);
        h.raw("</td><td>");
        for (const std::string &mark : findings::ledgerMarkNames(r.marks & ~unsigned(findings::MarkNew)))
            h.raw("<span class=\"chip ")
                .raw(mark == "conflict" || mark == "malformed" ? "b-damaged" : "v-miss")
                .raw("\">")
                .text(mark)
                .raw("</span> ");
        h.raw("</td><td class=\"wrap\">").text(r.detailText()).raw("</td></tr>");
    }
    h.raw("</tbody></table>");
}
} // namespace tf::report::html
