#pragma once

#include "ui/services/loadedrun.h"

#include <QWidget>

#include <optional>
#include <utility>

class QLabel;
class QToolButton;

namespace tf::ui {

class CallListModel;
class ColumnFitter;
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
    // The width that shows every visible column whole (the stretching one at its fitted width) and the scroll bar.
    int neededWidth() const;
    int currentCall() const;
    // The calls a timeline range reaches, when the list shows only those (0-based, inclusive).
    std::optional<std::pair<int, int>> callRange() const { return m_range; }

public slots:
    void setCurrentCall(int ordinal);
    // Shows only calls [first, last]; the other rows come back with clearCallRange, or when a hidden call is chosen.
    void setCallRange(int first, int last);
    void clearCallRange();

signals:
    void currentCallChanged(int ordinal);
    void callRangeCleared();

private:
    void updateFooter();

    CallListModel *m_model = nullptr;
    CallTableView *m_view = nullptr;
    ColumnFitter *m_fitter = nullptr;
    ElidedLabel *m_footer = nullptr;
    QToolButton *m_showAll = nullptr;
    QString m_footerText;
    std::optional<std::pair<int, int>> m_range;
};

} // namespace tf::ui
