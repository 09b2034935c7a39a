#pragma once

#include <QObject>
#include <QString>

class QAction;
class QLabel;

namespace tf::ui {

class FollowService;
class MainWindow;

// File > Follow…, Stop Following and Follow Latest Call, and the status bar's account of a followed run (calls,
// those awaiting their response, bytes read, what happened to the file). Installed into the window like the other
// tools; the window shows each snapshot (MainWindow::showFollowedSnapshot).
class FollowTools : public QObject
{
    Q_OBJECT

public:
    explicit FollowTools(MainWindow *window);

    // Starts following `path` (File > Follow…, `tracefold --follow FILE`).
    void follow(const QString &path);
    void stop();
    bool isFollowing() const;
    QString statusText() const;
    FollowService *service() const { return m_service; }

private:
    void chooseAndFollow();
    void updateActions();

    MainWindow *m_window;
    FollowService *m_service;
    QAction *m_followAction;
    QAction *m_stopAction;
    QAction *m_latestAction;
    QLabel *m_status;
    bool m_stoppedWithError = false;
};

} // namespace tf::ui
