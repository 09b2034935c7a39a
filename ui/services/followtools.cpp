#include "ui/services/followtools.h"

#include "ui/panes/mainwindow.h"
#include "ui/services/followservice.h"
#include "ui/services/windowmenu.h"

#include "core/recording/run.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>

namespace tf::ui {

FollowTools::FollowTools(MainWindow *window)
    : QObject(window)
    , m_window(window)
    , m_service(new FollowService(this))
    , m_followAction(new QAction(tr("&Follow…"), this))
    , m_stopAction(new QAction(tr("S&top Following"), this))
    , m_latestAction(new QAction(tr("Follow &Latest Call"), this))
    , m_status(new QLabel(window))
{
    setObjectName(QStringLiteral("followTools"));
    m_followAction->setObjectName(QStringLiteral("followAction"));
    m_followAction->setToolTip(tr("Open a recording that is still being written and show its calls as they come"));
    m_followAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_stopAction->setObjectName(QStringLiteral("stopFollowingAction"));
    m_latestAction->setObjectName(QStringLiteral("followLatestAction"));
    m_latestAction->setCheckable(true);
    m_latestAction->setToolTip(tr("While following, select each new call as it comes"));
    connect(m_followAction, &QAction::triggered, this, &FollowTools::chooseAndFollow);
    connect(m_stopAction, &QAction::triggered, this, &FollowTools::stop);
    connect(m_latestAction, &QAction::toggled, this, [this](bool on) {
        if (on && isFollowing() && m_window->run() && !m_window->run()->calls.empty())
            m_window->showCall(int(m_window->run()->calls.size()) - 1);
    });

    if (QMenu *file = windowMenu(window, "&File")) {
        QAction *before = nullptr;
        for (QAction *a : file->actions())
            if (a->objectName() == QLatin1String("reloadAction"))
                before = a;
        file->insertActions(before, {m_followAction, m_stopAction, m_latestAction});
    } else {
        window->menuBar()->addMenu(tr("F&ollow"))->addActions({m_followAction, m_stopAction, m_latestAction});
    }

    m_status->setObjectName(QStringLiteral("followStatus"));
    m_status->setTextFormat(Qt::PlainText); // file names and reasons come from outside
    m_status->hide();
    window->statusBar()->addPermanentWidget(m_status);

    connect(m_service, &FollowService::updated, this, [this](const RunHandle &run, const QStringList &notices) {
        for (const QString &notice : notices)
            m_window->statusBar()->showMessage(notice, 15000);
        if (!run)
            return;
        const std::size_t awaiting = run->run->callsAwaitingResponse;
        QString text = tr("Following %1: %n call(s)", nullptr, int(run->calls.size()))
                           .arg(QFileInfo(m_service->path()).fileName());
        if (awaiting)
            text += tr(", %n awaiting the response", nullptr, int(awaiting));
        if (!run->run->live)
            text = tr("Followed %1 until stopped: %n call(s)", nullptr, int(run->calls.size()))
                       .arg(QFileInfo(m_service->path()).fileName());
        if (run->indexing)
            text = tr("Following %1: indexing, %2 of %n call(s)", nullptr, int(run->run->calls.size()))
                       .arg(QFileInfo(m_service->path()).fileName())
                       .arg(run->calls.size());
        m_status->setText(text);
        m_status->show();
        // After the status line: whoever the window tells of the snapshot reads the status that goes with it.
        m_window->showFollowedSnapshot(run, m_latestAction->isChecked());
    });
    connect(m_service, &FollowService::problem, this, [this](const QString &message, bool fatal) {
        m_window->statusBar()->showMessage(message, fatal ? 0 : 15000);
        if (fatal) {
            m_stoppedWithError = true;
            m_status->setText(tr("Following stopped: %1").arg(message));
            m_status->setToolTip(message);
            m_status->show();
        }
    });
    connect(m_service, &FollowService::stopped, this, &FollowTools::updateActions);
    // Opening or closing a recording ends following: the window shows something else now.
    connect(window, &MainWindow::loadStarted, this, [this] {
        m_service->abandon();
        m_status->hide();
    });
    connect(window, &MainWindow::runClosed, this, [this] {
        m_service->abandon();
        m_status->hide();
    });
    updateActions();
}

void FollowTools::follow(const QString &path)
{
    m_window->cancelLoading();
    m_stoppedWithError = false;
    m_status->setToolTip({});
    m_status->setText(tr("Following %1: waiting for the first call").arg(QFileInfo(path).fileName()));
    m_status->show();
    m_service->start(QFileInfo(path).absoluteFilePath());
    updateActions();
}

void FollowTools::stop()
{
    m_service->stop();
    updateActions();
}

bool FollowTools::isFollowing() const
{
    return m_service->isFollowing();
}

QString FollowTools::statusText() const
{
    return m_status->isVisible() || !m_status->isHidden() ? m_status->text() : QString();
}

void FollowTools::chooseAndFollow()
{
    const RunHandle &open = m_window->run();
    const QString dir = open && !open->bundled ? QFileInfo(open->path).absolutePath() : QString();
    const QString path =
        QFileDialog::getOpenFileName(m_window, tr("Follow a Recording"), dir,
                                     tr("Event logs and recordings (*.ndjson *.jsonl *.json);;All files (*)"));
    if (!path.isEmpty())
        follow(path);
}

void FollowTools::updateActions()
{
    m_stopAction->setEnabled(m_service->isFollowing());
}

} // namespace tf::ui
