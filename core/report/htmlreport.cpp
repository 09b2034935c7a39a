#include "htmlreport.h"

#include "backtrack.h"

#include "core/audit/runaudit.h"
#include "core/report/html/reportformat.h"
#include "core/report/html/reportstyle.h"
#include "core/report/sections/reportsections.h"

#include <optional>
#include <utility>
#include <vector>

namespace tf::report {

using namespace html;

std::string renderHtmlReport(const recording::Run &run, const HtmlReportOptions &options)
{
    const std::vector<recording::CallSummary> calls = recording::summarizeCalls(run);
    const Backtrack backtrack = backtrackAnswer(run);
    const std::vector<audit::Problem> problems = audit::auditRun(run, calls, backtrack);

    const NoteIndex notes = indexNotes(options.sidecar, run);
    std::optional<compare::RunDiff> comparison;
    if (options.baseline)
        comparison = compare::compareRuns(run, *options.baseline);
    CallMarks marks;
    marks.bookmarks = notes.bookmarked;
    for (const auto &[ordinal, indices] : notes.byCall)
        marks.notes.insert(ordinal);
    // The calls the audit found an error at, and where the run was served otherwise than its baseline, or made a
    // call the baseline did not. Warnings and notes (a cache rewrite streak, a TTL gap) are listed in the Problems
    // section and link to their timeline rows: printing each such call in full would make the PDF a fivefold longer
    // read for facts one row already shows. Tool errors, limits and where the run stopped are selected by
    // selectCalls itself.
    for (const audit::Problem &p : problems)
        if (p.call && p.severity == audit::Severity::Error)
            marks.problems.insert(*p.call);
    if (comparison)
        for (const compare::AlignedCall &pair : comparison->aligned)
            if (pair.a && !pair.same && (pair.servedParts > 0 || !pair.b))
                marks.divergences.insert(*pair.a);
    const CallSelection selection = selectCalls(calls, run.outcome, run.limits, backtrack, marks, options.detail);

    HtmlWriter h;
    const std::string title =
        "Tracefold report \u2014 " + (run.runId.empty() ? notes::identityOf(run).path : run.runId);
    h.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    // No script, no frame, no remote fetch: even markup that escaped the escaper could not run or call out.
    h.raw("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
          "img-src data:; base-uri 'none'; form-action 'none'\">\n");
    h.raw("<meta name=\"referrer\" content=\"no-referrer\">\n");
    h.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    h.raw("<meta name=\"generator\" content=\"Tracefold ").raw(TRACEFOLD_VERSION).raw("\">\n");
    h.raw("<title>")
        .text(title)
        .raw("</title>\n<style>")
        .raw(reportStylesheet(options.flavor))
        .raw("</style>\n</head>\n<body>\n<div class=\"page\">\n");

    // Cover.
    h.raw("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"0\" class=\"cover\"><tr><td><div "
          "class=\"eyebrow\">Tracefold \u00B7 Run audit report</div><h1>");
    if (run.runId.empty())
        h.raw("Run ").text(notes::identityOf(run).path);
    else
        h.raw("Run ").text(run.runId);
    h.raw("</h1><p class=\"sub\">")
        .text(notes::identityOf(run).path)
        .raw(" \u00B7 ")
        .num(run.calls.size())
        .raw(run.calls.size() == 1 ? " LLM call" : " LLM calls");
    if (!run.model.empty())
        h.raw(" \u00B7 ").text(run.model);
    if (!run.events.empty() && run.events.front().wallClockMs)
        h.raw(" \u00B7 recorded ").raw(utcTime(*run.events.front().wallClockMs, true));
    h.raw("</p></td></tr></table>\n");
    if (comparison) {
        h.raw("<p class=\"sub\">Compared with the baseline <code>").text(options.baseline->path).raw("</code>: ");
        if (comparison->same())
            h.raw("every aligned call was served the same and the answers agree");
        else if (comparison->firstDivergence && comparison->firstDivergence->a)
            h.raw("first went apart at call ").num(*comparison->firstDivergence->a + 1);
        else if (comparison->firstDivergence)
            h.raw("first went apart at a call only the baseline made");
        else
            h.raw("the runs differ");
        h.raw(" (<a href=\"#comparison\">section 8</a>).</p>\n");
    }
    // Two columns, read down: the sections in order, the comparison before the appendix when there is one.
    std::vector<std::pair<const char *, const char *>> toc = {
        {"summary", "Summary"},
        {"answer", "Final answer and backtrack"},
        {"timeline", "Timeline"},
        {"conversation", "Conversation"},
        {"calls", "Calls"},
        {"gaps", "Gaps"},
        {"notes", "Bookmarks and notes"},
    };
    if (comparison)
        toc.emplace_back("comparison", "Comparison with the baseline run");
    toc.emplace_back("appendix", "How to read this report");
    const std::size_t rows = (toc.size() + 1) / 2;
    h.raw("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"3\" class=\"toc\">");
    h.raw("<tr><td colspan=\"2\"><a href=\"#problems\">Problems</a> (").num(problems.size()).raw(")</td></tr>");
    for (std::size_t r = 0; r < rows; ++r) {
        h.raw("<tr>");
        for (std::size_t i : {r, r + rows}) {
            h.raw(i == 0 ? "<td width=\"50%\">" : "<td>");
            if (i < toc.size())
                h.raw("<a href=\"#")
                    .raw(toc[i].first)
                    .raw("\">")
                    .num(i + 1)
                    .raw(" \u00A0")
                    .raw(toc[i].second)
                    .raw("</a>");
            h.raw("</td>");
        }
        h.raw("</tr>");
    }
    h.raw("</table>\n");

    renderProblems(h, problems);
    renderSummary(h, run, calls, backtrack, notes);
    renderBacktrack(h, backtrack, options);
    renderTimeline(h, run, calls, notes, selection);
    renderConversation(h, run, selection);
    if (!renderCalls(h, run, calls, notes, selection, options))
        return {};
    renderGaps(h, run, calls);
    renderNotes(h, run, notes);
    if (comparison)
        renderComparison(h, *options.baseline, *comparison, 8);
    renderAppendix(h, comparison ? 9 : 8);

    const notes::RecordingIdentity id = notes::identityOf(run);
    h.raw("<div class=\"footer\">Generated by Tracefold ")
        .raw(TRACEFOLD_VERSION)
        .raw(" from <code>")
        .text(id.path)
        .raw("</code> (")
        .raw(grouped(double(id.size)))
        .raw(" bytes; SHA-256 of the first MiB <code>")
        .text(id.sha256OfFirstMiB)
        .raw("</code>)");
    if (!options.generatedAt.empty())
        h.raw(" on ").text(options.generatedAt);
    h.raw(". The report is self-contained: no script, no external resource.</div>\n</div>\n</body>\n</html>\n");
    return std::move(h.str());
}

} // namespace tf::report
