#include "reportsections.h"

#include "core/report/html/notecard.h"
#include "core/report/html/reportchips.h"
#include "core/report/html/reportformat.h"

#include <string>

namespace tf::report::html {

void renderNotes(HtmlWriter &h, const recording::Run &run, const NoteIndex &notes)
{
    sectionHeading(h, "notes", 7, "Bookmarks and notes");
    if (!notes.sidecar || notes.sidecar->empty()) {
        h.raw("<p class=\"muted\">No bookmarks or notes were kept for this recording.</p>");
        return;
    }
    h.raw("<p class=\"small muted\">Kept by the engineer in <code>")
        .text(notes::sidecarPathFor(notes::identityOf(run).path))
        .raw("</code> beside the recording; the recording itself is never modified.</p>");
    if (!notes.resolution.sameRecording)
        h.raw("<table width=\"100%\" class=\"note orphan\" cellspacing=\"0\" cellpadding=\"6\"><tr><td><div "
              "class=\"meta\">Another version of the recording</div><pre>")
            .text(notes.resolution.recordingNote)
            .raw("</pre></td></tr></table>");
    if (!notes.sidecar->bookmarks.empty()) {
        h.raw("<h4>Bookmarks</h4><table width=\"100%\" cellspacing=\"0\" "
              "cellpadding=\"4\"><thead><tr><th>Call</th><th>Stage</th>"
              "<th>Created</th><th>Status</th></tr></thead><tbody>");
        for (std::size_t i = 0; i < notes.sidecar->bookmarks.size(); ++i) {
            const notes::Bookmark &b = notes.sidecar->bookmarks[i];
            const notes::Resolved &r = notes.resolution.bookmarks[i];
            h.raw("<tr><td>");
            if (r.ordinal)
                callLink(h, *r.ordinal);
            else
                h.raw("call ").raw(std::to_string(b.call.epoch));
            h.raw("</td><td class=\"wrap\"><code>")
                .text(b.call.callRuntimeStageId)
                .raw("</code></td><td>")
                .text(b.created)
                .raw("</td><td>");
            if (r.orphaned)
                h.raw("<span class=\"chip b-damaged\">Orphaned</span> ").text(r.reason);
            else
                h.raw("<span class=\"chip b-verified\">Attached</span>");
            h.raw("</td></tr>");
        }
        h.raw("</tbody></table>");
    }
    if (!notes.sidecar->notes.empty()) {
        h.raw("<h4>Notes</h4>");
        for (std::size_t i = 0; i < notes.sidecar->notes.size(); ++i)
            renderNote(h, notes.sidecar->notes[i], &notes.resolution.notes[i], true);
    }
}
} // namespace tf::report::html
