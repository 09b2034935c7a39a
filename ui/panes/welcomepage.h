#pragma once

#include <QWidget>

class QLabel;
class QListWidget;

namespace tf::ui {

// What the window shows when no recording is open: open a file, one of the recent ones or the bundled sample, or
// drop a file anywhere on the window.
class WelcomePage : public QWidget
{
    Q_OBJECT

public:
    explicit WelcomePage(QWidget *parent = nullptr);

    void setRecentFiles(const QStringList &paths);
    // A line under the title, e.g. why the last open failed; plain text.
    void setMessage(const QString &message);

signals:
    void openRequested();
    void sampleRequested();
    void recentRequested(const QString &path);

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QLabel *m_message = nullptr;
    QLabel *m_recentTitle = nullptr;
    QListWidget *m_recent = nullptr;
};

} // namespace tf::ui
