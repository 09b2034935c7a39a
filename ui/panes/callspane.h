#pragma once

#include "ui/services/loadedrun.h"

#include <QWidget>

class QLabel;

namespace tf::ui {

class CallListModel;
class ElidedLabel;
class CallTableView;

// One row per LLM call; the current row is the call every other pane shows.
class CallsPane : public QWidget
{
    Q_OBJECT

public:
    explicit CallsPane(QWidget *parent = nullptr);

    void setRun(const RunHandle &run);
    CallListModel *model() const { return m_model; }
    CallTableView *view() const { return m_view; }
    int currentCall() const;

public slots:
    void setCurrentCall(int ordinal);

signals:
    void currentCallChanged(int ordinal);

private:
    CallListModel *m_model = nullptr;
    CallTableView *m_view = nullptr;
    ElidedLabel *m_footer = nullptr;
};

} // namespace tf::ui
