#pragma once

#include "core/report/backtrack.h"
#include "core/report/html/htmlwriter.h"
#include "core/report/html/noteindex.h"
#include "core/report/htmlreport.h"

#include "core/recording/callview.h"

#include <vector>

// The report's sections, in the order the document shows them, one unit each (renderHtmlReport assembles them). Each
// writes through the one HtmlWriter and reads the core's views; none computes a fact the GUI or inspect lacks.
namespace tf::report::html {

// 1. The verdict, the run's outcome and limits, the key figures and the run's facts.
void renderSummary(HtmlWriter &h, const recording::Run &run, const std::vector<recording::CallSummary> &calls,
                   const Backtrack &backtrack, const NoteIndex &notes);
// 2. The final answer and, for each value it uses, where that value came from.
void renderBacktrack(HtmlWriter &h, const Backtrack &bt, const HtmlReportOptions &options);
// 3. One row per call, with a row per turn in a conversation.
void renderTimeline(HtmlWriter &h, const recording::Run &run, const std::vector<recording::CallSummary> &calls,
                    const NoteIndex &notes);
// 4. The conversation: each message once, where it entered the context, then the last response.
void renderConversation(HtmlWriter &h, const recording::Run &run);
// 5. Each call in full. Returns false when options.progress asked to stop.
bool renderCalls(HtmlWriter &h, const recording::Run &run, const NoteIndex &notes, const HtmlReportOptions &options);
// 6. What the recording cannot prove.
void renderGaps(HtmlWriter &h, const recording::Run &run, const std::vector<recording::CallSummary> &calls);
// 7. The sidecar's bookmarks and notes.
void renderNotes(HtmlWriter &h, const recording::Run &run, const NoteIndex &notes);
// 8. How to read this report.
void renderAppendix(HtmlWriter &h);

} // namespace tf::report::html
