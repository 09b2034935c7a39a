#pragma once

#include "ui/services/callbundle.h"

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

#include <list>
#include <mutex>
#include <optional>

namespace tf::ui {

// Builds the per-call bundle for the selected call on one worker, RenderDoc style: at most one build runs; a new
// request replaces any queued one, and a finished build that is no longer the latest request is dropped, so holding
// J through a large run stays smooth and ends on the right call. Recently built views are kept (a few calls), so
// stepping back and forth, and "this call and the previous one", cost one build per step.
//
// A reader steps call after call, reading each: once a delivered call has stayed on screen kIdleBeforeAheadMs, the
// next call's bundle is built ahead, and a request for it is answered at once (at 1.5 GB a build is 11-37 ms, most of
// a switch). Only after that pause, so that a held key or quick steps never wait behind a build nobody asked for
// (a jump made while the call ahead builds waits for that one build); one bundle is kept ahead, and dropped when the
// reader goes elsewhere.
class CallViewService : public QObject
{
    Q_OBJECT

public:
    explicit CallViewService(QObject *parent = nullptr);
    ~CallViewService() override;

    void setRun(const RunHandle &run);
    void request(std::size_t ordinal);

    static constexpr int kIdleBeforeAheadMs = 250;

    // The latest delivered bundle (nullptr before the first).
    const BundleHandle &current() const { return m_current; }
    std::optional<std::size_t> requested() const { return m_requested; }
    bool isBusy() const { return m_running; }
    // The bundle built ahead of the reader (the call after the current one), or nullptr.
    const BundleHandle &ahead() const { return m_ahead; }

    // The run's file changed on disk while a call was being rebuilt (recording::Run::changedOnDisk): no bundle is
    // built from it any more, the last one delivered stays current.
    bool sourceChanged() const { return !m_sourceChange.isEmpty(); }

signals:
    void ready(const tf::ui::BundleHandle &bundle);
    // Once per run, with the one-line reason naming the file.
    void sourceChangedOnDisk(const QString &message);

private:
    void start(std::size_t ordinal, bool ahead = false);
    void deliver(const BundleHandle &bundle);
    void buildAhead();

    RunHandle m_run;
    quint64 m_runGeneration = 0;
    BundleHandle m_current;
    std::optional<std::size_t> m_requested;
    std::optional<std::size_t> m_queued;
    bool m_running = false;
    bool m_runningAhead = false; // the running build is the one ahead, not a request's
    BundleHandle m_ahead;
    QTimer m_idle;            // started at each delivery: a call on screen this long has the next one built ahead
    double m_lastBuildMs = 0; // the last bundle's build: how dear this run's views are
    QString m_sourceChange;
    QFutureWatcher<BundleHandle> m_watcher;

    // Shared with the worker; guarded by m_cacheMutex.
    struct CacheState
    {
        std::mutex mutex;
        quint64 generation = 0;
        std::list<std::pair<std::size_t, std::shared_ptr<const recording::CallView>>> views; // most recent first
    };
    std::shared_ptr<CacheState> m_cache;
    // Reads call states for the builds, stepping forward from the last call built (held by a running build too).
    std::shared_ptr<recording::CallStates> m_states;
};

} // namespace tf::ui
