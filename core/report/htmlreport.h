#pragma once

#include "callselection.h"
#include "notes.h"

#include "core/recording/run.h"

#include <functional>
#include <string>

namespace tf::report {

struct HtmlReportOptions
{
    // Browser: the stylesheet for a browser and its print preview. QtPrint: the same markup with a stylesheet Qt's
    // rich-text engine lays out well (point sizes, no page background), for the PDF export.
    enum class Flavor
    {
        Browser,
        QtPrint
    };
    Flavor flavor = Flavor::Browser;
    // Every call in full, or only the calls that matter (selectCalls) with the rest as their timeline row; the
    // report says which calls it details and why.
    ReportDetail detail = ReportDetail::All;
    // Bookmarks and notes to include (resolved against the run; orphaned ones are listed as such).
    const notes::Sidecar *sidecar = nullptr;
    // Shown in the footer when set. Empty keeps the output a pure function of the recording and the sidecar.
    std::string generatedAt;
    // How much of each tool result the backtrack quotes, and of each call's response (UTF-16 units).
    std::size_t resultExcerptUnits = 2400;
    std::size_t responseExcerptUnits = 600;
    // A run to compare this one with (`tracefold-cli report A --baseline B`): adds the comparison section (issue 19).
    const recording::Run *baseline = nullptr;
    // Fraction of calls rendered; returning false stops and returns an empty string.
    std::function<bool(double)> progress;
};

// The reviewer's report: one self-contained HTML document (inline CSS, no script, no external resource, a strict
// Content-Security-Policy). Summary, per-call timeline with cache status, each call's findings piece with its
// buckets and overflow notes, the collapsed results, receipt verification, gaps, the final answer with its
// backtrack, and the sidecar's bookmarks and notes.
//
// Every string that comes from the recording or the sidecar is escaped by the one escaper (htmlescape.h) and only
// ever placed in element content. The markup keeps to what Qt's rich-text engine also renders (tables, spans,
// simple class selectors), so the PDF export lays out the same document.
std::string renderHtmlReport(const recording::Run &run, const HtmlReportOptions &options = {});

} // namespace tf::report
