#pragma once

#include "ui/services/loadedrun.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>

namespace tf::ui {

// Loads recordings off the GUI thread (QtConcurrent::run). Each load gets a generation; a result, a progress report
// or an error from an older generation is dropped, so opening B while A is still parsing shows B, whatever order
// they finish in. Starting a load cancels the one before it.
class RunLoader : public QObject
{
    Q_OBJECT

public:
    explicit RunLoader(QObject *parent = nullptr);
    ~RunLoader() override;

    // `path` may be a Qt resource path (":/..."): it is read into memory and parsed from there.
    quint64 load(const QString &path);
    void cancel();
    bool isLoading() const { return m_loading; }
    quint64 generation() const { return m_generation; }
    // Workers still running, superseded ones included (their results will be dropped).
    bool hasPendingWork() const { return !m_watchers.isEmpty() || !m_previews.isEmpty(); }

    struct Outcome
    {
        RunHandle run;
        QString error;
        bool cancelled = false;
    };
    // The whole load, synchronously, on the calling thread (the worker body; also used by tests and tools).
    // `indexing`, when given, is handed the whole run with the calls summarized so far while the rest are (its
    // LoadedRun::indexing is set), at most every `snapshotMs`, on the calling thread.
    static Outcome loadNow(const QString &path, const std::atomic<bool> *cancel = nullptr,
                           const std::function<void(double, const QString &)> &progress = {},
                           const std::function<void(const RunHandle &)> &indexing = {},
                           qint64 snapshotMs = kIndexingSnapshotMs);
    // Often enough that the list visibly fills, seldom enough that the window is not busy appending rows and
    // summing the hit rate and the tokens again and again on a list of 100,000 calls.
    static constexpr qint64 kIndexingSnapshotMs = 500;
    void setIndexingSnapshotMs(qint64 ms) { m_indexingSnapshotMs = ms; }
    // What every pane reads besides the run and its summaries (hit rate, gaps, token totals, the audit, the
    // timeline), computed once off the GUI thread: for a load, and for each snapshot of a followed log.
    // The first calls of a large file (recording::previewRun) on the calling thread: null when it has none to show
    // ahead of the full load. LoadedRun::run->preview is set.
    // `bytesRead`, when given, is set to how much of the file the preview spans (recording::RunPreview::bytesRead).
    static RunHandle previewNow(const QString &path, std::size_t calls, const std::atomic<bool> *cancel = nullptr,
                                std::size_t *bytesRead = nullptr);
    // Files at least this large are previewed while they load; smaller ones load in well under a second.
    static constexpr qint64 kPreviewBytes = 32ll << 20;
    void setPreviewFromBytes(qint64 bytes) { m_previewFromBytes = bytes; }
    // The first preview's calls; each next one (while the load goes on) reads ten times as many, as long as that is
    // at most a tenth of the file: a preview of most of the file would hold a second copy of the run while the load
    // builds the first, and take the core the load could use.
    static constexpr std::size_t kPreviewCalls = 20;
    // `backtrack`: the run's answer backtrack when it is already traced (it is computed otherwise).
    static RunHandle assemble(std::shared_ptr<const recording::Run> run, std::vector<recording::CallSummary> calls,
                              const QString &path, std::shared_ptr<const report::Backtrack> backtrack = nullptr);
    static RunHandle assemble(std::shared_ptr<const recording::Run> run,
                              std::shared_ptr<const std::vector<recording::CallSummary>> summaries, const QString &path,
                              std::shared_ptr<const report::Backtrack> backtrack = nullptr);
    // What the first `count` summaries of `summaries` alone give (hit rate, gaps, token totals): for a whole load and
    // for each snapshot of an index being built (IndexingSnapshots).
    static std::shared_ptr<LoadedRun>
    assembleSummaries(std::shared_ptr<const recording::Run> run,
                      std::shared_ptr<const std::vector<recording::CallSummary>> summaries, std::size_t count,
                      const QString &path);

signals:
    void started(const QString &path);
    // permille in [0, 1000]
    void progressChanged(int permille, const QString &message);
    void loaded(const tf::ui::RunHandle &run);
    // A run still being indexed (LoadedRun::indexing): the first calls of a large file, read ahead, then the whole run
    // with the calls summarized so far, as they grow; `loaded` follows.
    void previewReady(const tf::ui::RunHandle &run);
    void failed(const QString &path, const QString &error);
    void cancelled(const QString &path);

private:
    // On the GUI thread, for a preview or a snapshot of load `generation`: shows it unless it is stale.
    void offerWhileIndexing(quint64 generation, const RunHandle &run);

    quint64 m_generation = 0;
    qint64 m_previewFromBytes = kPreviewBytes;
    qint64 m_indexingSnapshotMs = kIndexingSnapshotMs;
    bool m_loading = false;
    bool m_wholeRunShown = false; // the current load has shown a snapshot of the whole run: previews are stale
    std::size_t m_callsShown = 0; // calls listed by the current load's last preview or snapshot
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QList<QFutureWatcher<Outcome> *> m_watchers;
    QList<QFutureWatcher<void> *> m_previews;
    // Previews read ahead on a thread of their own: in the global pool they would hold the thread that builds the
    // shown call's view until the whole load is done.
    QThreadPool m_previewPool;
};

} // namespace tf::ui
