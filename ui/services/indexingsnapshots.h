#pragma once

#include "ui/services/loadedrun.h"

#include <QElapsedTimer>
#include <QString>

#include <memory>

namespace tf::ui {

// What the window is shown of a run while its calls are indexed (recording::indexCalls), for a file being opened and
// for a followed log that grew alike: a snapshot of the calls settled so far, at most every `intervalMs`, sharing
// the index's one store (no copy of the summaries) and the answer's backtrack and the timeline, which read the run,
// not the summaries (computed once, with the first snapshot). One per index being built (one run), used on the
// indexing thread.
class IndexingSnapshots
{
public:
    IndexingSnapshots(QString path, qint64 intervalMs);

    // A snapshot of `index` when one is due: more calls settled than the last one showed, not all of them (the whole
    // index is the caller's to hand over), and `intervalMs` since the last. Null otherwise.
    RunHandle offer(const recording::CallIndex &index);
    // The backtrack of the run the snapshots showed (null before the first): the whole index reuses it.
    std::shared_ptr<const report::Backtrack> backtrack() const { return m_backtrack; }

private:
    QString m_path;
    qint64 m_intervalMs;
    QElapsedTimer m_sincePublished;
    std::size_t m_published = 0;
    std::shared_ptr<const report::Backtrack> m_backtrack;
    std::shared_ptr<const recording::TimelineView> m_timeline;
};

} // namespace tf::ui
