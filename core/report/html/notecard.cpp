#include "notecard.h"

#include "reportformat.h"

#include <string>

namespace tf::report::html {

void renderNote(HtmlWriter &h, const notes::Note &note, const notes::Resolved *resolved, bool showTarget)
{
    const bool orphaned = resolved && resolved->orphaned;
    h.raw(orphaned ? "<table width=\"100%\" class=\"note orphan\" cellspacing=\"0\" cellpadding=\"6\"><tr><td>"
                   : "<table width=\"100%\" class=\"note\" cellspacing=\"0\" cellpadding=\"6\"><tr><td>");
    h.raw("<div class=\"meta\">");
    if (orphaned)
        h.raw("<span class=\"chip b-damaged\">Orphaned</span> ");
    if (note.target.kind == notes::TargetKind::LedgerRow)
        h.raw("Note on ledger row #").num(note.target.rowIndex.value_or(0));
    else
        h.raw("Note on the call");
    if (note.target.kind == notes::TargetKind::LedgerRow && note.target.toolCallId)
        h.raw(" (tool:").text(*note.target.toolCallId).raw(")");
    if (showTarget) {
        h.raw(" at ");
        if (resolved && resolved->ordinal)
            callLink(h, *resolved->ordinal);
        else
            h.raw("call ").raw(std::to_string(note.target.call.epoch));
        h.raw(" <code>").text(note.target.call.callRuntimeStageId).raw("</code>");
    }
    if (!note.created.empty())
        h.raw(" \u00B7 ").text(note.created);
    if (orphaned)
        h.raw("<br>").text(resolved->reason);
    h.raw("</div><pre>").text(note.text).raw("</pre></td></tr></table>");
}
} // namespace tf::report::html
