#include "reportsections.h"

#include "core/report/hitrate.h"
#include "core/report/html/reportchips.h"
#include "core/report/html/reportformat.h"
#include "core/report/tokentotals.h"

#include <cstdio>
#include <set>
#include <string>

namespace tf::report::html {

namespace {

struct Totals
{
    std::size_t verified = 0, reconstructed = 0, damaged = 0, notOnRecord = 0, redacted = 0;
    std::vector<std::size_t> damagedCalls;
};

Totals totalsOf(const std::vector<recording::CallSummary> &calls)
{
    Totals t;
    for (const auto &c : calls) {
        t.verified += c.verified;
        t.reconstructed += c.reconstructed;
        t.damaged += c.damagedParts;
        t.notOnRecord += c.notOnRecord;
        t.redacted += c.redacted;
        if (c.damaged)
            t.damagedCalls.push_back(c.ordinal);
    }
    return t;
}

void renderOutcome(HtmlWriter &h, const recording::Run &run, const std::vector<recording::CallSummary> &calls)
{
    const recording::RunOutcome &o = run.outcome;
    const char *cls = o.status == recording::OutcomeStatus::Failed      ? "bad"
                      : o.status == recording::OutcomeStatus::Completed ? "plain"
                                                                        : "warn";
    h.raw("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"8\" class=\"verdict ")
        .raw(cls)
        .raw("\"><tr><td><p><b>");
    switch (o.status) {
    case recording::OutcomeStatus::Completed:
        h.raw("The run completed");
        break;
    case recording::OutcomeStatus::Failed:
        h.raw("The run failed");
        break;
    case recording::OutcomeStatus::Paused:
        h.raw("The run paused for a human");
        break;
    case recording::OutcomeStatus::Incomplete:
        h.raw("The recording stops mid-run");
        break;
    }
    if (o.call) {
        h.raw(" at ");
        callLink(h, *o.call);
    }
    h.raw("</b>");
    if (run.turns.size() > 1)
        h.raw(" (").num(run.turns.size()).raw(" turns)");
    h.raw(o.message ? ": " : ".");
    if (o.message)
        h.text(*o.message);
    h.raw("</p>");
    std::vector<std::size_t> failedAt;
    std::size_t threw = 0;
    for (const recording::CallSummary &c : calls)
        if (c.anyToolError()) {
            failedAt.push_back(c.ordinal);
            for (const auto &t : c.toolResults)
                threw += t.error;
        }
    if (threw) {
        h.raw("<p class=\"small\"><b>")
            .num(threw)
            .raw(threw == 1 ? " tool call threw" : " tool calls threw")
            .raw("</b> (");
        for (std::size_t i = 0; i < failedAt.size(); ++i) {
            if (i)
                h.raw(", ");
            callLink(h, failedAt[i]);
        }
        h.raw("); the model was sent the error text as the result.</p>");
    }
    for (const recording::RunLimit &l : run.limits) {
        h.raw("<p class=\"small\"><b>").text(l.kind).raw("</b>");
        if (l.call) {
            h.raw(" at ");
            callLink(h, *l.call);
        }
        h.raw(": ").text(l.message).raw("</p>");
    }
    h.raw("</td></tr></table>");
}

} // namespace

void renderSummary(HtmlWriter &h, const recording::Run &run, const std::vector<recording::CallSummary> &calls,
                   const Backtrack &backtrack, const NoteIndex &notes)
{
    const Totals t = totalsOf(calls);
    const HitRate rate = hitRate(calls);
    sectionHeading(h, "summary", 1, "Summary");

    // The verdict: what a reviewer needs first.
    const bool damaged = !t.damagedCalls.empty();
    h.raw("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"8\" class=\"verdict ")
        .raw(damaged      ? "bad"
             : t.verified ? "good"
                          : "plain")
        .raw("\"><tr><td>");
    if (damaged) {
        h.raw("<p><b>The record contradicts itself at ")
            .num(t.damagedCalls.size())
            .raw(" of ")
            .num(calls.size())
            .raw(" calls:</b> ");
        for (std::size_t i = 0; i < t.damagedCalls.size(); ++i) {
            if (i)
                h.raw(", ");
            callLink(h, t.damagedCalls[i]);
        }
        h.raw(". A damaged part is one whose rebuilt bytes disagree with the receipt hash the run committed.</p>");
    } else if (t.verified && t.redacted) {
        h.raw("<p><b>Every rebuilt part that a receipt hashes matched its hash, but for ")
            .raw(grouped(double(t.redacted)))
            .raw(" redacted parts</b> (")
            .raw(grouped(double(t.verified)))
            .raw(" parts verified across ")
            .num(calls.size())
            .raw(" calls): the run was served under a redaction policy, and those parts were rebuilt from values it "
                 "kept out, which the receipts hashed as they were. No part is damaged.</p>");
    } else if (t.verified) {
        h.raw("<p><b>Every rebuilt part that a receipt hashes matched its hash</b> (")
            .raw(grouped(double(t.verified)))
            .raw(" parts verified across ")
            .num(calls.size())
            .raw(" calls); no part is damaged.</p>");
    } else {
        h.raw("<p><b>Nothing in this recording could be verified by hash</b>: it carries no usable receipts, so "
              "every rebuilt part is Reconstructed, not proven.</p>");
    }
    for (const std::string &s : backtrack.statements)
        h.raw("<p>").text(s).raw("</p>");
    if (!backtrack.details.empty())
        h.raw("<p>")
            .num(backtrack.details.size())
            .raw(backtrack.details.size() == 1 ? " caveat" : " caveats")
            .raw(" on where those values came from (a conflict, or a value its result does not hold): see <a "
                 "href=\"#answer\">the backtrack</a>.</p>");
    h.raw("</td></tr></table>");
    renderOutcome(h, run, calls);

    // Key figures.
    h.raw("<table width=\"100%\" class=\"figures\" cellspacing=\"8\" cellpadding=\"10\"><tr>");
    h.raw("<td><div class=\"fig-label\">Calls</div><div class=\"fig-value\">")
        .num(calls.size())
        .raw("</div><div class=\"fig-note\">");
    h.raw(grouped(double(run.events.size())))
        .raw(" events \u00B7 ")
        .raw(run.durationMs ? duration(*run.durationMs) : "duration not on record");
    h.raw("</div></td>");
    h.raw("<td><div class=\"fig-label\">Receipt verification</div><div class=\"fig-value\">");
    if (damaged)
        h.raw("<span class=\"no\">").num(t.damagedCalls.size()).raw(" damaged</span>");
    else
        h.raw(grouped(double(t.verified))).raw(" verified");
    h.raw("</div><div class=\"fig-note\">")
        .raw(grouped(double(t.verified)))
        .raw(" V \u00B7 ")
        .raw(grouped(double(t.reconstructed)))
        .raw(" R \u00B7 ")
        .raw(grouped(double(t.damaged)))
        .raw(" D \u00B7 ")
        .raw(grouped(double(t.notOnRecord)))
        .raw(" N")
        .raw(t.redacted ? " \u00B7 " + grouped(double(t.redacted)) + " X" : std::string())
        .raw("</div></td>");
    h.raw("<td><div class=\"fig-label\">Cache hit rate</div><div class=\"fig-value\">");
    if (rate.rate) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f%%", *rate.rate * 100);
        h.raw(buf);
    } else {
        h.raw("unknown");
    }
    h.raw("</div><div class=\"fig-note\">")
        .num(rate.measured)
        .raw(" measured \u00B7 ")
        .num(rate.unmeasured)
        .raw(" unmeasured");
    if (!rate.rate)
        h.raw(" \u00B7 ").text(rate.reason);
    h.raw("</div></td>");
    const TokenTotals tokens = tokenTotals(calls);
    h.raw("<td><div class=\"fig-label\">Tokens in / out</div><div class=\"fig-value\">")
        .raw(optCount(tokens.input))
        .raw(" / ")
        .raw(optCount(tokens.output))
        .raw("</div><div class=\"fig-note\">summed over ")
        .num(tokens.reportingCalls)
        .raw(" of ")
        .num(tokens.calls)
        .raw(tokens.calls == 1 ? " call" : " calls")
        .raw(tokens.partial() ? " (partial)" : "")
        .raw("</div></td>");
    h.raw("</tr></table>");

    // Run facts.
    const std::optional<json::Value> finalLedger = run.finalLedger();
    std::size_t ledgerRows = finalLedger ? finalLedger->size() : 0;
    std::set<std::string> gapNames;
    for (const auto &g : run.gaps)
        gapNames.insert(g.name);
    for (const auto &c : calls)
        for (const auto &g : c.gaps())
            gapNames.insert(g.name);
    h.raw("<h4>The run</h4><table width=\"100%\" class=\"kv\" cellspacing=\"0\" cellpadding=\"4\">");
    const auto kv = [&](const char *key, const std::string &value, bool mono = false) {
        h.raw("<tr><th>").raw(key).raw("</th><td>");
        if (value.empty())
            h.raw("<span class=\"unknown\">not on record</span>");
        else if (mono)
            h.raw("<code>").text(value).raw("</code>");
        else
            h.text(value);
        h.raw("</td></tr>");
    };
    kv("File", run.path, true);
    kv("Format", recording::shapeDescription(run.shape));
    kv("Run id", run.runId, true);
    kv("Engine run id", run.engineRunId, true);
    kv("Model", run.model.empty() ? "" : run.model + (run.provider.empty() ? "" : " (" + run.provider + ")"));
    kv("React mode", run.reactMode);
    kv("Fold basis", recording::foldBasisName(run.basis));
    kv("Turns", std::to_string(run.turns.size()) +
                    (run.runIds.size() > 1 ? " (" + std::to_string(run.runIds.size()) + " run ids)" : ""));
    kv("Outcome", recording::outcomeStatusId(run.outcome.status));
    kv("Findings", run.constants.armed
                       ? "armed (serve mode " + run.constants.findingsServe.value_or("ledger-and-facts") +
                             ", answer ask " + run.constants.findingsAnswerAsk.value_or("none") + ")"
                       : "not armed");
    kv("Final ledger", finalLedger ? std::to_string(ledgerRows) + " rows" : "");
    {
        std::string g;
        for (const auto &n : gapNames)
            g += (g.empty() ? "" : ", ") + n;
        kv("Gaps", g.empty() ? "none" : g);
    }
    if (notes.sidecar) {
        std::string n = std::to_string(notes.sidecar->notes.size()) + " notes, " +
                        std::to_string(notes.sidecar->bookmarks.size()) + " bookmarks";
        if (const std::size_t o = notes.resolution.orphanedNotes())
            n += ", " + std::to_string(o) + " orphaned";
        kv("Reviewer notes", n);
    }
    for (const std::string &w : run.warnings)
        kv("Warning", w);
    h.raw("</table>");
}
} // namespace tf::report::html
