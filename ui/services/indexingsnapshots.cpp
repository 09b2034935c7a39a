#include "ui/services/indexingsnapshots.h"

#include "ui/services/runloader.h"

namespace tf::ui {

IndexingSnapshots::IndexingSnapshots(QString path, qint64 intervalMs)
    : m_path(std::move(path))
    , m_intervalMs(intervalMs)
{
}

RunHandle IndexingSnapshots::offer(const recording::CallIndex &index)
{
    // The interval counts from the first report of the index, not from before it: a followed log's poll rebuilds its
    // run first, which may take longer than the interval.
    if (!m_sincePublished.isValid())
        m_sincePublished.start();
    // Only more than the calls kept from an earlier snapshot: those the window shows already.
    const std::size_t calls = index.run->calls.size();
    if (index.settled <= std::max(m_published, index.kept) || index.settled >= calls ||
        m_sincePublished.elapsed() < m_intervalMs)
        return nullptr;
    if (!m_backtrack)
        m_backtrack = std::make_shared<const report::Backtrack>(report::backtrackAnswer(*index.run));
    auto snapshot = RunLoader::assembleSummaries(index.run, index.summaries, index.settled, m_path);
    // Placed once, with the verdicts of the calls settled then; the whole index places it again with every verdict.
    if (!m_timeline)
        m_timeline =
            std::make_shared<const recording::TimelineView>(recording::timelineView(*index.run, snapshot->calls));
    snapshot->indexing = true;
    snapshot->backtrack = m_backtrack;
    snapshot->timeline = m_timeline;
    m_published = index.settled;
    m_sincePublished.restart();
    return snapshot;
}

} // namespace tf::ui
