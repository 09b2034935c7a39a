#include "ui/services/followservice.h"

#include "ui/services/indexingsnapshots.h"
#include "ui/services/qtstrings.h"
#include "ui/services/runloader.h"

#include "core/recording/logfollower.h"

#include <QElapsedTimer>
#include <QFile>
#include <QtConcurrent/QtConcurrentRun>

namespace tf::ui {

FollowService::FollowService(QObject *parent)
    : QObject(parent)
    , m_indexingSnapshotMs(RunLoader::kIndexingSnapshotMs)
{
    // One shot, started again once a poll is in: the wait counts from the end of the last poll, not from its start.
    m_timer.setSingleShot(true);
    m_timer.setInterval(kPollIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, [this] { poll(false); });
}

FollowService::~FollowService()
{
    m_timer.stop();
    if (m_running) {
        m_running->cancel(); // a long first poll stops indexing rather than hold the window's closing
        m_running->waitForFinished();
    }
}

void FollowService::start(const QString &path)
{
    abandon();
    m_path = path;
    m_follower = std::make_shared<recording::LogFollower>(QFile::encodeName(path).toStdString());
    m_stopping = false;
    m_finalQueued = false;
    m_lastError.clear();
    m_timer.setInterval(kPollIntervalMs);
    poll(false);
}

void FollowService::stop()
{
    if (!m_follower || m_stopping)
        return;
    m_stopping = true;
    m_timer.stop();
    if (m_running)
        m_finalQueued = true; // once the running poll is in
    else
        poll(true);
}

void FollowService::abandon()
{
    if (!m_follower)
        return;
    m_timer.stop();
    if (m_running) {
        m_running->cancel(); // its indexing stops
        disconnect(m_running, nullptr, this, nullptr);
        connect(m_running, &QFutureWatcher<Result>::finished, m_running, &QObject::deleteLater);
        m_running = nullptr;
    }
    m_finalQueued = false;
    finish();
}

void FollowService::poll(bool final)
{
    if (!m_follower || m_running)
        return; // one poll at a time: the follower is not shared between threads
    auto follower = m_follower;
    const QString path = m_path;
    m_running = new QFutureWatcher<Result>(this);
    // A poll that indexes many calls (the first of a long log, a recording read whole) shows them as a file being
    // opened does: snapshots of the calls indexed so far come as results of the poll's future before its last one, the
    // whole poll. A poll abandoned is cancelled, and its watcher disconnected: nothing of it is shown.
    connect(m_running, &QFutureWatcher<Result>::resultReadyAt, this, [this](int index) {
        const Result r = m_running->resultAt(index);
        if (r.indexing)
            emit updated(r.run, {});
    });
    connect(m_running, &QFutureWatcher<Result>::finished, this, [this, final] {
        const int results = m_running->future().resultCount();
        const Result r = results > 0 ? m_running->resultAt(results - 1) : Result();
        m_running->deleteLater();
        m_running = nullptr;
        if (!r.indexing && (!r.notices.isEmpty() || r.run))
            emit updated(r.run, r.notices);
        if (!r.error.isEmpty() && (r.error != m_lastError || r.stoppedForGood))
            emit problem(r.error, r.stoppedForGood);
        m_lastError = r.error;
        if (final || r.stoppedForGood) {
            finish();
            return;
        }
        if (!m_stopping)
            m_timer.start(recording::LogFollower::nextPollDelayMs(kPollIntervalMs, r.rebuildMs));
        if (m_finalQueued) {
            m_finalQueued = false;
            poll(true);
        }
    });
    const qint64 snapshotMs = m_indexingSnapshotMs;
    m_running->setFuture(QtConcurrent::run([follower, path, final, snapshotMs](QPromise<Result> &promise) {
        IndexingSnapshots snapshots(path, snapshotMs);
        const recording::LogFollower::Update u = follower->poll(final, [&](double, const recording::CallIndex &index) {
            if (promise.isCanceled())
                return false;
            if (RunHandle snapshot = snapshots.offer(index)) {
                Result partial;
                partial.run = std::move(snapshot);
                partial.indexing = true;
                promise.addResult(std::move(partial));
            }
            return true;
        });
        Result r;
        QElapsedTimer assembling;
        assembling.start();
        if (u.run)
            r.run = RunLoader::assemble(u.run, u.summaries, path, snapshots.backtrack());
        // Assembling (the backtrack, the audit, the timeline) goes over the whole run as the rebuild does.
        r.rebuildMs = u.rebuildMs + (u.run ? double(assembling.nsecsElapsed()) / 1e6 : 0.0);
        for (const std::string &notice : u.notices)
            r.notices.append(toQString(notice));
        r.error = toQString(u.error);
        r.stoppedForGood = follower->stopped();
        promise.addResult(std::move(r));
    }));
}

void FollowService::finish()
{
    m_timer.stop();
    m_follower.reset();
    m_stopping = false;
    emit stopped();
}

} // namespace tf::ui
