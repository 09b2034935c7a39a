#include "ui/services/filewatch.h"

#include "ui/services/qtstrings.h"

#include <QFileInfo>
#include <QFileSystemWatcher>

namespace tf::ui {

namespace {

constexpr int kSettleMs = 150;
constexpr int kPollMs = 2000;

} // namespace

FileWatch::FileWatch(QObject *parent)
    : QObject(parent)
    , m_watcher(new QFileSystemWatcher(this))
{
    m_settle.setSingleShot(true);
    m_settle.setInterval(kSettleMs);
    m_poll.setInterval(kPollMs);
    connect(&m_settle, &QTimer::timeout, this, &FileWatch::check);
    connect(&m_poll, &QTimer::timeout, this, &FileWatch::check);
    const auto soon = [this] { m_settle.start(); };
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, soon);
    // The directory too: a file replaced by rename, or removed and written again, leaves the file watch behind.
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, soon);
}

FileWatch::~FileWatch() = default;

void FileWatch::watch(std::shared_ptr<const recording::Run> run, const QString &path)
{
    const QStringList watched = m_watcher->files() + m_watcher->directories();
    if (!watched.isEmpty())
        m_watcher->removePaths(watched);
    m_settle.stop();
    m_poll.stop();
    m_reported = false;
    m_run = std::move(run);
    m_path = path;
    // A resource (the bundled sample) or bytes in memory have no file to watch; their check is always clean.
    if (!m_run || path.isEmpty() || path.startsWith(QLatin1Char(':')))
        return;
    m_watcher->addPath(path);
    m_watcher->addPath(QFileInfo(path).absolutePath());
    m_poll.start();
}

void FileWatch::check()
{
    if (!m_run || m_reported)
        return;
    const std::string change = m_run->changedOnDisk();
    if (change.empty())
        return;
    m_reported = true;
    m_poll.stop();
    emit changed(toQString(change));
}

} // namespace tf::ui
