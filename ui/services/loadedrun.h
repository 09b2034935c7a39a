#pragma once

#include "core/audit/problem.h"
#include "core/recording/callview.h"
#include "core/recording/run.h"
#include "core/recording/timelineview.h"
#include "core/report/backtrack.h"
#include "core/report/hitrate.h"
#include "core/report/tokentotals.h"

#include <QMetaType>
#include <QString>

#include <memory>
#include <span>
#include <vector>

namespace tf::ui {

// Everything the first stage of a load delivers: the run and the per-call summaries the calls list, the strip
// chart and the summary bar show. Immutable once the loader hands it over; shared by every pane.
struct LoadedRun
{
    std::shared_ptr<const recording::Run> run;
    // The calls' summaries (recording::summarizeCalls), the first calls.size() of `summaries`. While a run is indexed
    // its snapshots share the one store the loader fills: each lists the calls settled so far, which nothing writes
    // again, and costs no copy of them.
    std::shared_ptr<const std::vector<recording::CallSummary>> summaries;
    std::span<const recording::CallSummary> calls;
    report::HitRate hitRate;
    std::vector<recording::Gap> gaps; // recording::distinctGaps(): computed with the summaries, off the GUI thread
    QString path;                     // as opened (a resource path for the bundled sample)
    QString displayName;              // file name, or the bundled sample's name
    bool bundled = false;
    // The calls list holds the first calls only, the rest still being indexed: a preview of a large file's first calls
    // (run->preview), or the whole run with the calls summarized so far. The audit has not run yet (no problems).
    bool indexing = false;

    report::TokenTotals tokens; // summed over the calls that reported them

    // The audit (core/audit/runaudit.h), computed with the summaries off the GUI thread: the problems in the core's
    // order, and the most severe one at each call (the Calls list's mark).
    std::vector<audit::Problem> problems;
    std::vector<std::optional<audit::Severity>> problemAtCall;
    std::optional<audit::Severity> problemAt(std::size_t call) const
    {
        return call < problemAtCall.size() ? problemAtCall[call] : std::nullopt;
    }

    // The final answer traced through the final ledger (report::backtrackAnswer), computed once with the audit that
    // reads it; the Answer Backtrack dock shows it. Null while a run is not loaded by the loader.
    std::shared_ptr<const report::Backtrack> backtrack;

    // The run on its wall-clock axis (the Timeline dock), placed with the summaries' cache verdicts.
    std::shared_ptr<const recording::TimelineView> timeline;
};

using RunHandle = std::shared_ptr<const LoadedRun>;

} // namespace tf::ui

Q_DECLARE_METATYPE(tf::ui::RunHandle)
