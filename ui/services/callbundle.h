#pragma once

#include "ui/services/loadedrun.h"

#include "core/findings/ledgerfold.h"
#include "core/findings/ledgerrowview.h"
#include "core/recording/callview.h"
#include "core/recording/transcript.h"
#include "core/text/linediff.h"

#include <functional>
#include <memory>

namespace tf::ui {

struct WireItems;

// What the panes show for the selected call, built off the GUI thread and immutable afterwards. It keeps the run
// alive: the views' JSON values and the fold's row pointers borrow from it and from `view`. It holds the recording
// and its call's summary, not the loaded run's handle: while a run is indexed each snapshot copies every summary
// made so far, and a bundle that held one would keep that copy alive beside the next.
struct CallBundle
{
    std::shared_ptr<const recording::Run> run;
    recording::CallSummary summary; // LoadedRun::calls[ordinal]
    std::size_t ordinal = 0;
    std::shared_ptr<const recording::CallView> view;
    // nullptr for the first call. What "since previous" needs (served, verified); its own cache facts only when
    // `previousComplete` (it came from the service's cache of full views).
    std::shared_ptr<const recording::CallView> previous;
    bool previousComplete = false;
    findings::LedgerFold fold;                       // over view->ledger
    std::vector<findings::LedgerRowView> ledgerRows; // view->ledger's rows with their marks (built with the fold)
    std::vector<text::DiffLine> pieceDiff;           // previous piece → this piece, line by line
    recording::Transcript transcript;                // the messages as sent, new ones since the previous call
    std::shared_ptr<const WireItems> wire;           // the Wire's rows (WireModel::itemsFor)
    double buildMs = 0;                              // time spent building (for the status bar)
    // Not empty when the run's file changed on disk by the end of the build: what was built may hold zeros where
    // the file's bytes vanished, or another file's bytes, and is never shown (the reason, one line naming the file).
    std::string sourceChange;
};

using BundleHandle = std::shared_ptr<const CallBundle>;

// Whether two bundles are of the same call of the same run: a pane given again the call it shows (a palette change
// re-applies it) keeps the reader's place in it.
inline bool sameCall(const BundleHandle &a, const BundleHandle &b)
{
    return a && b && a->ordinal == b->ordinal && a->run == b->run;
}

// Builds the bundle of call `ordinal`; `cached` returns an already built view of a call (or nullptr). `states` is
// the cursor to read call states with (kept across builds, stepping forward costs a few rows); nullptr: a fresh one.
// `previousBuild`: where the call before is built when it is not cached (recording::buildCallViews).
BundleHandle buildBundle(const RunHandle &run, std::size_t ordinal,
                         const std::function<std::shared_ptr<const recording::CallView>(std::size_t)> &cached = {},
                         recording::CallStates *states = nullptr,
                         recording::PreviousBuild previousBuild = recording::PreviousBuild::SameThread);

} // namespace tf::ui

Q_DECLARE_METATYPE(tf::ui::BundleHandle)
