#include "reportsections.h"

#include "core/report/html/ledgertable.h"
#include "core/report/html/notecard.h"
#include "core/report/html/piecetable.h"
#include "core/report/html/reportchips.h"
#include "core/report/html/reportformat.h"

#include "core/recording/callview.h"
#include "core/text/utf.h"

#include <algorithm>
#include <optional>
#include <string>

namespace tf::report::html {

using recording::Badge;
using recording::CallView;

namespace {

constexpr std::size_t kNoCall = static_cast<std::size_t>(-1);

void renderResponse(HtmlWriter &h, const recording::Run &run, const CallView &view, const HtmlReportOptions &options)
{
    h.raw("<h4>Response</h4>");
    const recording::RunOutcome &o = run.outcome;
    if (o.call == view.ordinal && o.message &&
        (o.status == recording::OutcomeStatus::Failed || o.status == recording::OutcomeStatus::Paused))
        h.raw("<p><span class=\"chip b-damaged\">")
            .raw(o.status == recording::OutcomeStatus::Failed ? "the run failed here" : "the run paused here")
            .raw("</span> ")
            .text(*o.message)
            .raw("</p>");
    for (const recording::RunLimit &l : run.limits)
        if (l.call == view.ordinal)
            h.raw("<p class=\"small\"><span class=\"chip v-miss\">")
                .text(l.kind)
                .raw("</span> ")
                .text(l.message)
                .raw("</p>");
    if (!view.response) {
        h.raw("<p><span class=\"unknown\">No response on record</span>: the call has an llm_start and no llm_end (the "
              "provider failed, or the recording was frozen mid-call).</p>");
        return;
    }
    const recording::Response &r = *view.response;
    h.raw("<p class=\"small\">stop reason <code>")
        .text(r.stopReason.value_or("not on record"))
        .raw("</code> \u00B7 ")
        .raw(r.durationMs ? duration(*r.durationMs) : "latency not on record")
        .raw(" \u00B7 in ")
        .raw(optCount(r.usage.input))
        .raw(" \u00B7 out ")
        .raw(optCount(r.usage.output));
    if (r.usage.measured())
        h.raw(" \u00B7 cache read ")
            .raw(optCount(r.usage.cacheRead))
            .raw(" \u00B7 write ")
            .raw(optCount(r.usage.cacheWrite));
    h.raw("</p>");
    if (r.text.empty()) {
        h.raw("<p class=\"muted\">The model wrote no text; it only called tools.</p>");
    } else {
        std::size_t cut = 0;
        h.raw("<pre>").text(excerpt(r.text, options.responseExcerptUnits, &cut)).raw("</pre>");
        if (cut)
            h.raw("<span class=\"small muted\">")
                .raw(counted(cut, "more unit", "more units"))
                .raw(" not shown.</span>");
    }
    if (view.toolRuns.empty())
        return;
    h.raw("<table width=\"100%\" class=\"rows\" cellspacing=\"0\" cellpadding=\"4\"><thead><tr><th>Tool</th><th>Call "
          "id</th><th>Status</th><th class=\"num\">Duration</th><th>Arguments and result</th></tr></thead><tbody>");
    for (const recording::ToolRun &t : view.toolRuns) {
        h.raw(t.error ? "<tr class=\"damaged\">" : "<tr>");
        h.raw("<td><code>").text(t.name).raw("</code>");
        if (t.parallelCount)
            h.raw("<br><span class=\"small muted\">")
                .num(std::size_t(std::max(0, *t.parallelCount)))
                .raw(" in parallel</span>");
        h.raw("</td><td><code>").text(t.id).raw("</code></td><td>").raw(toolRunChip(t)).raw("</td><td class=\"num\">");
        h.raw(t.durationMs ? duration(*t.durationMs) : "\u2013").raw("</td><td>");
        foldedText(h, t.argsText(), 400, "arguments");
        for (const recording::ToolCallRequest &c : r.toolCalls)
            if (c.id == t.id && c.findings) {
                h.raw("<div class=\"small\"><b>_findings</b>, the model's own declaration:</div>");
                foldedText(h, *c.findingsText(), 400, "_findings");
            }
        if (t.returned && t.result) {
            h.raw("<div class=\"small\"><b>")
                .raw(t.error ? "Error" : "Result")
                .raw("</b>")
                .raw(t.error ? " (the tool threw; this text is what the model was sent)" : "")
                .raw("</div>");
            foldedText(h, *t.result, 600, t.error ? "error text" : "result");
        } else {
            h.raw("<div class=\"small muted\">").text(t.missingReason).raw("</div>");
        }
        h.raw("</td></tr>");
    }
    h.raw("</tbody></table>");
}

// "messages[0]", "messages[1]", … "messages[29]" as "messages[0–29]": the verified list grows with the history, so
// on a long run it would otherwise be most of the report.
std::vector<std::string> compactParts(const std::vector<const recording::PartCheck *> &checks)
{
    std::vector<std::string> out;
    std::string prefix;
    long first = -1, last = -1;
    const auto flush = [&] {
        if (first < 0)
            return;
        out.push_back(prefix + "[" + std::to_string(first) + (last > first ? "\u2013" + std::to_string(last) : "") +
                      "]");
        first = last = -1;
    };
    for (const recording::PartCheck *c : checks) {
        const std::string &part = c->part;
        const std::size_t open = part.find('[');
        long index = -1;
        if (open != std::string::npos && part.back() == ']' && open + 2 < part.size()) {
            const std::string digits = part.substr(open + 1, part.size() - open - 2);
            if (digits.find_first_not_of("0123456789") == std::string::npos && digits.size() < 9)
                index = std::stol(digits);
        }
        if (index >= 0 && first >= 0 && part.compare(0, open, prefix) == 0 && index == last + 1) {
            last = index;
            continue;
        }
        flush();
        if (index >= 0) {
            prefix = part.substr(0, open);
            first = last = index;
        } else {
            out.push_back(part);
        }
    }
    flush();
    return out;
}

// `shownPiece`: the call whose section showed the piece this call was served if it did not move since, else kNoCall
// (a plain index rather than an optional: GCC 12 sees the optional's payload read uninitialized where it is not).
void renderCall(HtmlWriter &h, const recording::Run &run, const CallView &view, const recording::CallSummary &summary,
                const NoteIndex &notes, const HtmlReportOptions &options, std::size_t &shownPiece)
{
    const std::size_t ordinal = view.ordinal;
    const recording::CallRecord &rec = run.calls[ordinal];
    h.raw("<section class=\"call\" id=\"").raw(callAnchor(ordinal)).raw("\">");
    h.raw(view.damaged ? "<table width=\"100%\" cellspacing=\"0\" cellpadding=\"8\" class=\"callhead damaged\">"
                       : "<table width=\"100%\" cellspacing=\"0\" cellpadding=\"8\" class=\"callhead\">");
    h.raw("<tr><td>");
    h.raw("<h3>Call ").num(ordinal + 1);
    if (run.turns.size() > 1)
        h.raw(" <span class=\"muted\">\u00B7 turn ").num(view.turn + 1).raw("</span>");
    h.raw(" <span class=\"muted\">\u00B7 iteration ").num(std::size_t(std::max(0, view.epoch))).raw("</span>");
    if (notes.bookmarked.count(ordinal))
        h.raw(" <span class=\"chip v-miss\">\u2605 bookmarked</span>");
    if (view.damaged)
        h.raw(" <span class=\"chip b-damaged\">damaged</span>");
    h.raw("</h3><p class=\"sub\"><code>").text(rec.callRuntimeStageId).raw("</code> \u00B7 ");
    h.text(view.model.empty() ? std::string("model not on record") : view.model);
    if (!view.provider.empty())
        h.raw(" (").text(view.provider).raw(")");
    h.raw(" \u00B7 log ").text(rec.logName);
    if (view.wallClockMs)
        h.raw(" \u00B7 ").raw(utcTime(*view.wallClockMs, true));
    if (view.durationMs)
        h.raw(" \u00B7 ").raw(duration(*view.durationMs));
    if (view.route)
        h.raw(" \u00B7 route ").text(*view.route);
    h.raw("</p></td></tr></table><div class=\"callbody\">");

    // Notes first: they are what the engineer wanted the reviewer to see here.
    if (auto it = notes.byCall.find(ordinal); it != notes.byCall.end())
        for (std::size_t n : it->second)
            renderNote(h, notes.sidecar->notes[n], &notes.resolution.notes[n], false);

    // Served context in one table.
    h.raw("<h4>Served context</h4><table width=\"100%\" class=\"kv\" cellspacing=\"0\" cellpadding=\"4\">");
    h.raw("<tr><th>System prompt</th><td>");
    if (view.systemOnRecord) {
        h.raw(counted(text::lengthU16(view.systemText), "unit", "units"))
            .raw(" in ")
            .raw(counted(view.systemPieces.size(), "piece", "pieces"))
            .raw(": ");
        for (std::size_t i = 0; i < view.systemPieces.size(); ++i) {
            if (i)
                h.raw(", ");
            h.raw("<code>").text(view.systemPieces[i].source).raw("</code>");
        }
    } else {
        h.raw("<span class=\"unknown\">not fully on record</span>");
    }
    if (!view.systemNote.empty())
        h.raw(" \u00B7 ").text(view.systemNote);
    h.raw("</td></tr><tr><th>Messages</th><td>");
    if (view.conversationOnRecord)
        h.raw(counted(view.asSent.size(), "message", "messages"))
            .raw(" as sent, ")
            .raw(counted(view.servedIds.size(), "tool result", "tool results"))
            .raw(" served, ")
            .num(view.collapsed.size())
            .raw(" collapsed to tickets, ")
            .num(view.undeclaredIds.size())
            .raw(" undeclared");
    else
        h.raw("<span class=\"unknown\">the conversation is not on record</span>");
    h.raw("</td></tr><tr><th>Tools</th><td>");
    for (std::size_t i = 0; i < view.tools.size(); ++i) {
        if (i)
            h.raw(", ");
        h.raw("<code>").text(view.tools[i].name).raw("</code>");
    }
    if (view.tools.empty())
        h.raw(view.withheld ? "withheld (" : "none").text(view.withheld.value_or("")).raw(view.withheld ? ")" : "");
    if (view.forcedTool)
        h.raw(" \u00B7 forced ").text(*view.forcedTool);
    h.raw("</td></tr><tr><th>Ledger</th><td>");
    if (view.ledgerOnRecord) {
        h.raw(counted(view.ledger.size(), "row", "rows"));
        if (view.ledger.size() > view.ledgerRowsAtPrevious)
            h.raw(", ").num(view.ledger.size() - view.ledgerRowsAtPrevious).raw(" filed since the previous call");
        if (!view.ledgerIssues.empty())
            h.raw(" \u00B7 <span class=\"no\">").num(view.ledgerIssues.size()).raw(" malformed</span>");
    } else {
        h.raw("<span class=\"unknown\">not on record</span>");
    }
    h.raw("</td></tr>");
    h.raw("</table>");
    renderResponse(h, run, view, options);

    // Cache.
    const recording::CacheFacts &cache = view.cache;
    h.raw("<h4>Cache</h4><table width=\"100%\" class=\"kv\" cellspacing=\"0\" cellpadding=\"4\"><tr><th>Provider "
          "said</th><td>");
    verdictChip(h, cache.verdict);
    h.raw(" read ")
        .raw(optCount(view.usage.cacheRead))
        .raw(" \u00B7 write ")
        .raw(optCount(view.usage.cacheWrite))
        .raw(" \u00B7 fresh input ")
        .raw(optCount(view.usage.input))
        .raw(" \u00B7 output ")
        .raw(optCount(view.usage.output));
    h.raw("</td></tr><tr><th>Prefix reusable</th><td>");
    yesNo(h, cache.prefixReusable);
    h.raw(" \u00B7 tools unchanged ");
    yesNo(h, cache.toolsUnchanged);
    h.raw(" \u00B7 system unchanged ");
    yesNo(h, cache.systemUnchanged);
    h.raw(cache.fromStoredHashes ? " \u00B7 from the stored receipt hashes" : " \u00B7 from the rebuilt text");
    if (!cache.reason.empty())
        h.raw("<br><span class=\"small\">").text(cache.reason).raw("</span>");
    h.raw("</td></tr><tr><th>Markers</th><td>candidates ");
    h.raw(cache.candidates ? "" : "<span class=\"unknown\">not on record</span>").text(markerList(cache.candidates));
    h.raw(" \u00B7 applied ")
        .raw(cache.applied ? "" : "<span class=\"unknown\">not on record</span>")
        .text(markerList(cache.applied));
    if (cache.gateBranch)
        h.raw(" \u00B7 gate ").text(*cache.gateBranch);
    if (cache.strategy)
        h.raw(" \u00B7 strategy ").text(*cache.strategy);
    h.raw("</td></tr>");
    if (cache.gapMs) {
        h.raw("<tr><th>Since previous call</th><td>")
            .raw(duration(*cache.gapMs))
            .raw(" (TTL ")
            .raw(duration(cache.ttlMs))
            .raw(")");
        if (cache.pastTtl)
            h.raw(" \u00B7 <span class=\"no\">past the TTL: a reuse is unlikely even with equal hashes</span>");
        h.raw("</td></tr>");
    }
    h.raw("</table>");

    // Findings piece.
    h.raw("<h4>Findings piece</h4>");
    if (!view.piece) {
        h.raw("<p class=\"muted\">No piece: ").text(view.noPieceReason).raw(".</p>");
    } else if (!view.pieceChangedSincePrevious && shownPiece != kNoCall) {
        h.raw("<p>Byte for byte the piece of ");
        callLink(h, shownPiece);
        h.raw(" (")
            .raw(counted(view.piece->lengthU16(), "unit", "units"))
            .raw("): the system block did not move because of "
                 "the ledger.</p>");
    } else {
        const PieceStats stats = statsOf(*view.piece);
        h.raw("<p class=\"small\">")
            .raw(counted(view.piece->lengthU16(), "unit", "units"))
            .raw(", ")
            .raw(counted(view.piece->sizeUtf8(), "UTF-8 byte", "UTF-8 bytes"))
            .raw(" \u00B7 ")
            .raw(counted(stats.contentLines, "content line", "content lines"));
        if (stats.clippedLines)
            h.raw(" \u00B7 <span class=\"clip\">").num(stats.clippedLines).raw(" clipped</span>");
        if (stats.hiddenLines)
            h.raw(" \u00B7 <span class=\"clip\">").num(stats.hiddenLines).raw(" hidden past a 64-line cap</span>");
        if (view.piece->hasLoneSurrogate())
            h.raw(" \u00B7 holds a lone surrogate (shown as \uFFFD)");
        h.raw(" \u00B7 gutter: ledger rows each line quotes</p>");
        // The same line diff as the Since Previous Call pane (findings::pieceLineDiff, counted by summarizeCalls);
        // the lines are the piece's own, rendered below.
        if (ordinal > 0)
            h.raw("<p class=\"small\">Since the previous call: +")
                .num(summary.pieceLinesAdded)
                .raw(" \u2212")
                .num(summary.pieceLinesRemoved)
                .raw(" lines</p>");
        renderPiece(h, *view.piece);
        shownPiece = ordinal;
    }
    if (view.ledgerOnRecord && view.ledger.size() > view.ledgerRowsAtPrevious) {
        h.raw("<h4>Ledger rows filed since the previous call</h4>");
        renderRowTable(h, view, view.ledgerRowsAtPrevious, view.ledger.size());
    }
    for (const auto &issue : view.ledgerIssues)
        h.raw("<p class=\"no small\">Malformed ledger row ")
            .raw(issue.index == findings::kLedgerIssue ? std::string("(the ledger)")
                                                       : "#" + std::to_string(issue.index))
            .raw(": ")
            .text(issue.reason)
            .raw("</p>");

    // Collapsed results.
    if (!view.collapsed.empty()) {
        h.raw(
            "<h4>Collapsed results</h4><table width=\"100%\" cellspacing=\"0\" "
            "cellpadding=\"4\"><thead><tr><th>Message</th>"
            "<th>Tool call</th><th>Tool</th><th>Standing</th><th class=\"num\">Row</th><th>Ticket sent instead of the "
            "content</th></tr></thead><tbody>");
        for (const findings::CollapsedMessage &c : view.collapsed) {
            std::string toolName;
            if (c.index < view.committed.size())
                toolName = stringMember(view.committed.at(c.index), "toolName");
            h.raw("<tr><td class=\"mono\">messages[")
                .num(c.index)
                .raw("]</td><td class=\"wrap\"><code>")
                .text(c.toolCallId)
                .raw("</code></td><td class=\"wrap\">")
                .text(toolName)
                .raw("</td><td>");
            standingChip(h, c.standing);
            h.raw("</td><td class=\"num\">#")
                .num(c.standingRowIndex)
                .raw("</td><td class=\"wrap\"><code>")
                .text(c.ticket)
                .raw("</code></td></tr>");
        }
        h.raw("</tbody></table>");
    }

    // Receipt verification: everything that is not Verified in full, the verified parts as one list.
    h.raw("<h4>Receipt verification</h4>");
    const char *receiptState = view.receiptState == CallView::ReceiptState::Hashed ? "hashed receipt"
                               : view.receiptState == CallView::ReceiptState::Placeholder
                                   ? "receipt with placeholder hashes"
                               : view.receiptState == CallView::ReceiptState::Rejected ? "rejected receipt"
                                                                                       : "no receipt";
    std::vector<const recording::PartCheck *> verified, other;
    for (const recording::PartCheck &c : view.checks)
        (c.badge == Badge::Verified ? verified : other).push_back(&c);
    h.raw("<p class=\"small\">")
        .raw(receiptState)
        .raw(" \u00B7 ")
        .num(verified.size())
        .raw(" of ")
        .raw(counted(view.checks.size(), "part", "parts"))
        .raw(" verified");
    if (!verified.empty()) {
        h.raw(": ");
        const std::vector<std::string> parts = compactParts(verified);
        for (std::size_t i = 0; i < parts.size(); ++i) {
            if (i)
                h.raw(", ");
            h.raw("<code>").text(parts[i]).raw("</code>");
        }
    }
    h.raw("</p>");
    if (!other.empty()) {
        h.raw("<table width=\"100%\" cellspacing=\"0\" "
              "cellpadding=\"4\"><thead><tr><th>Part</th><th>Status</th><th>Why</th></tr></thead>"
              "<tbody>");
        for (const recording::PartCheck *c : other) {
            h.raw("<tr><td class=\"wrap\"><code>").text(c->part).raw("</code></td><td>");
            badgeChip(h, c->badge);
            h.raw("</td><td class=\"wrap\">").text(c->reason).raw("</td></tr>");
        }
        h.raw("</tbody></table>");
    }
    if (!view.gaps.empty()) {
        h.raw("<p class=\"small\">Gaps: ");
        for (std::size_t i = 0; i < view.gaps.size(); ++i) {
            if (i)
                h.raw(" ");
            gapChip(h, view.gaps[i]);
        }
        h.raw(" <a href=\"#gaps\">(what they mean)</a></p>");
    }
    for (const std::string &n : view.notes)
        h.raw("<p class=\"small muted\">").text(n).raw("</p>");
    h.raw("</div></section>");
}

// Which calls follow in full and why, so a reader of a shortened report knows what it left out.
void renderSelection(HtmlWriter &h, const CallSelection &selection)
{
    const std::vector<std::size_t> detailed = selection.detailedCalls();
    if (selection.detail == ReportDetail::All) {
        h.raw("<p class=\"small muted\">Every call in full, in order.</p>");
        return;
    }
    if (detailed.size() == selection.callCount())
        h.raw("<p class=\"small muted\">Every call matters here, so every call is in full; why each one "
              "matters:</p>");
    else
        h.raw("<p class=\"small muted\">")
            .raw(counted(detailed.size(), "call", "calls"))
            .raw(" of ")
            .num(selection.callCount())
            .raw(
                " in full: the calls that matter (a problem on record, a bookmark or a note, the answer and the calls "
                "where its evidence entered, the first and the last call). Every other call is its row in <a "
                "href=\"#timeline\">the timeline</a>; the HTML report (<code>tracefold-cli report --detail all</code>, "
                "its default) has every call in full.</p>");
    h.raw("<table width=\"100%\" class=\"rows\" cellspacing=\"0\" cellpadding=\"3\"><thead><tr><th "
          "class=\"num\" width=\"6%\">Call</th><th>Why it is detailed</th></tr></thead><tbody>");
    for (std::size_t ordinal : detailed) {
        const unsigned reasons = selection.reasons[ordinal];
        h.raw((reasons & kProblemReasons) ? "<tr class=\"damaged\">" : "<tr>");
        h.raw("<td class=\"num\"><a href=\"#").raw(callAnchor(ordinal)).raw("\">").num(ordinal + 1);
        h.raw("</a></td><td>");
        const std::vector<std::string> names = detailReasonNames(reasons);
        for (std::size_t i = 0; i < names.size(); ++i)
            h.raw(i ? ", " : "").raw(names[i]);
        h.raw("</td></tr>");
    }
    h.raw("</tbody></table>");
}

} // namespace

bool renderCalls(HtmlWriter &h, const recording::Run &run, const std::vector<recording::CallSummary> &calls,
                 const NoteIndex &notes, const CallSelection &selection, const HtmlReportOptions &options)
{
    sectionHeading(h, "calls", 5, "Calls");
    if (run.calls.empty()) {
        h.raw("<p class=\"muted\">The recording holds no LLM call.</p>");
        return true;
    }
    renderSelection(h, selection);
    std::size_t shownPiece = kNoCall;
    for (std::size_t i = 0; i < run.calls.size(); ++i) {
        if (!selection.detailed(i)) {
            if (calls[i].pieceChangedSincePrevious)
                shownPiece = kNoCall;
        } else {
            const CallView view = recording::buildCallView(run, i);
            renderCall(h, run, view, calls[i], notes, options, shownPiece);
            h.raw("\n");
        }
        if (options.progress && !options.progress(double(i + 1) / double(run.calls.size())))
            return false;
    }
    return true;
}

} // namespace tf::report::html
