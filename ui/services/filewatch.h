#pragma once

#include "core/recording/run.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>

class QFileSystemWatcher;

namespace tf::ui {

// Watches the file a run was read from and says once when it is no longer the file that was read: written to,
// truncated, grown, replaced by another file (a rename over it, as log rotation and atomic writers do) or removed.
// The watcher's events only prompt the check; the verdict is the core's (recording::Run::changedOnDisk: size,
// mtime and inode against the file as opened, and pages that vanished under a read), so a touch that changes
// nothing is not news and a change the watcher missed is still caught by a slow poll.
class FileWatch : public QObject
{
    Q_OBJECT

public:
    explicit FileWatch(QObject *parent = nullptr);
    ~FileWatch() override;

    // Watches `run`'s file (`path` as opened); nullptr, or a run not read from a file of its own, stops watching.
    void watch(std::shared_ptr<const recording::Run> run, const QString &path);
    // Whether the change was reported for the run watched now.
    bool reported() const { return m_reported; }

public slots:
    // Checks now (also called by the watcher, the poll and the window when it suspects a change).
    void check();

signals:
    // Once per watched run, with the one-line reason naming the file.
    void changed(const QString &message);

private:
    std::shared_ptr<const recording::Run> m_run;
    QString m_path;
    QFileSystemWatcher *m_watcher = nullptr;
    QTimer m_settle; // coalesces a burst of events (a writer appending in many small writes) into one check
    QTimer m_poll;   // for file systems that send no events (network mounts)
    bool m_reported = false;
};

} // namespace tf::ui
