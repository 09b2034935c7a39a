#pragma once

#include "ui/services/loadedrun.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <memory>

namespace tf::recording {
class LogFollower;
}

namespace tf::ui {

// Follows a recording while it is written (File > Follow, `tracefold --follow FILE`): polls a core
// recording::LogFollower on a worker, one poll at a time, and hands each snapshot over as a RunHandle assembled like a
// load's (RunLoader::assemble). The follower reads only what was appended; the window swaps the snapshot in and keeps
// the user's call.
class FollowService : public QObject
{
    Q_OBJECT

public:
    explicit FollowService(QObject *parent = nullptr);
    ~FollowService() override;

    // How often the file is looked at: a call shows well within a second of its response being written. On a long log
    // the polls are paced by what they cost (recording::LogFollower::nextPollDelayMs).
    static constexpr int kPollIntervalMs = 200;

    void start(const QString &path);
    // Stops after one last poll, which shows the calls still waiting for their response as they are.
    void stop();
    // Stops at once, dropping whatever a running poll brings (another file is being opened).
    void abandon();
    bool isFollowing() const { return m_follower != nullptr && !m_stopping; }
    // How often a poll that indexes many calls shows those indexed so far (RunLoader::kIndexingSnapshotMs).
    void setIndexingSnapshotMs(qint64 ms) { m_indexingSnapshotMs = ms; }
    QString path() const { return m_path; }
    // The wait between the end of one poll and the start of the next, as the last poll's cost set it (the floor before
    // the first poll is in).
    int pollIntervalMs() const { return m_timer.interval(); }

signals:
    // A new snapshot; `notices` say what happened to the file meanwhile (rotated, truncated, rewritten). While a poll
    // indexes many calls, snapshots of those indexed so far come first (LoadedRun::indexing), the whole one last.
    void updated(const tf::ui::RunHandle &run, const QStringList &notices);
    // One line naming the file and what is wrong. `fatal`: following stopped (a line that is not an event).
    void problem(const QString &message, bool fatal);
    void stopped();

private:
    struct Result
    {
        RunHandle run;
        QStringList notices;
        QString error;
        bool stoppedForGood = false;
        bool indexing = false; // a snapshot of the calls indexed so far; the poll's whole result comes last
        double rebuildMs = 0;  // LogFollower::Update::rebuildMs, and the assembling of the whole run after it
    };
    void poll(bool final);
    void finish();

    std::shared_ptr<recording::LogFollower> m_follower;
    QString m_path;
    QTimer m_timer;
    QFutureWatcher<Result> *m_running = nullptr;
    qint64 m_indexingSnapshotMs;
    bool m_stopping = false;
    bool m_finalQueued = false;
    QString m_lastError;
};

} // namespace tf::ui
