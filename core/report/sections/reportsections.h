#pragma once

#include "core/audit/problem.h"
#include "core/report/backtrack.h"
#include "core/report/callselection.h"
#include "core/report/html/htmlwriter.h"
#include "core/report/html/noteindex.h"
#include "core/report/htmlreport.h"

#include "core/compare/rundiff.h"
#include "core/recording/callview.h"

#include <vector>

// The report's sections, in the order the document shows them, one unit each (renderHtmlReport assembles them). Each
// writes through the one HtmlWriter and reads the core's views; none computes a fact the GUI or inspect lacks.
namespace tf::report::html {

// First, before the numbered sections: the audit's problems, each linking to its call.
void renderProblems(HtmlWriter &h, const std::vector<audit::Problem> &problems);
// 1. The verdict, the run's outcome and limits, the key figures and the run's facts.
void renderSummary(HtmlWriter &h, const recording::Run &run, const std::vector<recording::CallSummary> &calls,
                   const Backtrack &backtrack, const NoteIndex &notes);
// 2. The final answer and, for each value it uses, where that value came from.
void renderBacktrack(HtmlWriter &h, const Backtrack &bt, const HtmlReportOptions &options);
// 3. One row per call, with a row per turn in a conversation. A detailed call's number links to its section; the
// row of any other call is that call's anchor, so every link to a call lands somewhere.
void renderTimeline(HtmlWriter &h, const recording::Run &run, const std::vector<recording::CallSummary> &calls,
                    const NoteIndex &notes, const CallSelection &selection);
// 4. The conversation: each message once, where it entered the context, then the last response. Messages that
// entered at a call the report does not detail are one line each (role, id, the start of the text).
void renderConversation(HtmlWriter &h, const recording::Run &run, const CallSelection &selection);
// 5. Each detailed call in full, after the list of which calls are detailed and why. Returns false when
// options.progress asked to stop.
bool renderCalls(HtmlWriter &h, const recording::Run &run, const std::vector<recording::CallSummary> &calls,
                 const NoteIndex &notes, const CallSelection &selection, const HtmlReportOptions &options);
// 6. What the recording cannot prove.
void renderGaps(HtmlWriter &h, const recording::Run &run, const std::vector<recording::CallSummary> &calls);
// 7. The sidecar's bookmarks and notes.
void renderNotes(HtmlWriter &h, const recording::Run &run, const NoteIndex &notes);
// 8 (with a baseline). This run against the baseline run: where they first went apart, the alignment, the answers.
void renderComparison(HtmlWriter &h, const recording::Run &baseline, const compare::RunDiff &diff, int number);
// 8, or 9 after a comparison. How to read this report.
void renderAppendix(HtmlWriter &h, int number);

} // namespace tf::report::html
