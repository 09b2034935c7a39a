#pragma once

#include <QWidget>

class QLabel;
class QTimer;

namespace tf::ui {

// A status-bar notice that a file was written, with the two things a user does next: open it, or show it in its
// folder. It stays until dismissed, replaced by the next notice, or a minute has passed.
class FileNotice : public QWidget
{
    Q_OBJECT

public:
    explicit FileNotice(QWidget *parent = nullptr);

    void show(const QString &message, const QString &path);
    QString path() const { return m_path; }

    // How a notice opens things; tests replace it so no application starts.
    using Opener = bool (*)(const QUrl &);
    static void setOpener(Opener opener);

public slots:
    void openFile();
    void showInFolder();

private:
    QLabel *m_label = nullptr;
    QTimer *m_timer = nullptr;
    QString m_path;
};

} // namespace tf::ui
