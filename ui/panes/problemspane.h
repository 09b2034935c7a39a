#pragma once

#include "ui/models/problemsmodel.h"
#include "ui/services/loadedrun.h"

#include <QWidget>

class QLabel;
class QTreeView;

namespace tf::ui {

class ColumnFitter;

// The run's problems (the core's audit), one row each: severity, rule, call, message. Activating a row (double-click
// or Enter) asks for its call in the pane that shows what the problem is about.
class ProblemsPane : public QWidget
{
    Q_OBJECT

public:
    explicit ProblemsPane(QWidget *parent = nullptr);

    void setRun(const RunHandle &run);
    ProblemsModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }

public slots:
    // Follows the call the window shows: its first problem becomes the current row (nothing is activated).
    void setCurrentCall(int ordinal);

signals:
    // ordinal: the call, 0-based, or -1 for a problem of the run as a whole.
    void problemActivated(int ordinal, tf::ui::ProblemPane pane);

private:
    ProblemsModel *m_model = nullptr;
    QTreeView *m_view = nullptr;
    ColumnFitter *m_fitter = nullptr;
    QLabel *m_counts = nullptr;
};

} // namespace tf::ui
