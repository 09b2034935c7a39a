#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace tf::ui {

class SelectableLabel;

// The bar across the top of the window that says the open file changed on disk, with Reload. Non-modal: the window
// keeps showing what it read until the user reloads, and nothing waits on it. The reason comes from the core and
// names the file, which is untrusted text: shown as plain text only.
class ChangedBanner : public QFrame
{
    Q_OBJECT

public:
    explicit ChangedBanner(QWidget *parent = nullptr);

    void showChange(const QString &reason);
    QString reason() const;

signals:
    void reloadRequested();
    void dismissed();

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QLabel *m_icon = nullptr;
    QLabel *m_title = nullptr;
    SelectableLabel *m_reason = nullptr;
    QPushButton *m_reload = nullptr;
};

} // namespace tf::ui
