#include "reportsections.h"

#include "core/report/html/reportchips.h"
#include "core/report/html/reportformat.h"

#include "core/findings/findingspiece.h"

namespace tf::report::html {

void renderAppendix(HtmlWriter &h)
{
    sectionHeading(h, "appendix", 8, "How to read this report");
    h.raw("<h4>Receipt statuses</h4><table width=\"100%\" class=\"kv\" cellspacing=\"0\" cellpadding=\"4\">");
    h.raw("<tr><th><span class=\"chip b-verified\">Verified</span></th><td>The rebuilt part hashes to the value the "
          "run's "
          "own receipt committed for it.</td></tr>");
    h.raw("<tr><th><span class=\"chip b-reconstructed\">Reconstructed</span></th><td>Rebuilt from the record but not "
          "witnessed by a hash (no receipt, a part that is never hashed, or a mismatch a gap excuses).</td></tr>");
    h.raw("<tr><th><span class=\"chip b-damaged\">Damaged</span></th><td>The record contradicts itself: the rebuilt "
          "bytes "
          "differ from the committed hash, or a part has no receipt row to pair with.</td></tr>");
    h.raw("<tr><th><span class=\"chip b-not-on-record\">Not on record</span></th><td>The recording does not hold the "
          "thing. This is never the same as \u201Cnone\u201D.</td></tr>");
    h.raw("<tr><th><span class=\"chip b-redacted\">Redacted</span></th><td>The run was served under a redaction "
          "policy and the part was rebuilt from a value it kept out (REDACTED or [REDACTED]); the receipt hashed the "
          "original, so the part cannot be verified. It is not damage.</td></tr></table>");
    h.raw(
        "<h4>Findings piece</h4><p class=\"legend small\"><span><span class=\"mdl\">model text</span> quoted from the "
        "ledger</span><span><span class=\"lib\">library wording</span></span><span><span class=\"ovf\">"
        " \u2026[clipped N chars]</span> overflow note of a clip</span></p>");
    h.raw(
        "<p class=\"small\">The piece ends the system prompt of every call at which the ledger holds a standing. It is "
        "request-only (never committed), so Tracefold rebuilds it byte for byte from the ledger as of the call. Lines "
        "are cut at 240 UTF-16 units, each bucket shows at most 64 lines followed by a <i>+K more (cap 64)</i> line, "
        "and newlines inside model text are folded to one space so a value cannot forge a line of its own. The left "
        "column names the ledger rows each line quotes.</p>");
    h.raw("<p class=\"small\">Every piece opens with the same fixed header, quoted here once:</p>");
    const std::u16string &header = findings::pieceHeader(findings::HeaderTable::Short);
    h.raw("<pre class=\"json\">").text16(header).raw("</pre>");
    h.raw("<h4>Collapse tickets</h4><p class=\"small\">A tool result the model judged noise or ruled out is sent as a "
          "short ticket, <code>{\"collapsed\":true,\"standing\":\u2026,\"toolCallId\":\u2026}</code>, instead of its "
          "content. The history keeps the content; only the wire copy changes.</p>");
}
} // namespace tf::report::html
