#pragma once

#include "ui/services/loadedcomparison.h"

#include <QObject>
#include <QString>

class QAction;
class QDockWidget;

namespace tf::ui {

class ComparisonPane;
class MainWindow;

// Comparing the open run with another run of the same task (issue 19), installed into the main window through its
// public API only (menus, docks, runLoaded, callShown, showCall):
//   File > Compare With… (Ctrl+Alt+O): loads the baseline and compares on a worker (compare::compareRuns);
//   the "Comparison" dock (ComparisonPane), listed under View;
//   File > Swap With Baseline: opens the baseline and compares it with the run that was open (either run can be the
//   baseline);
//   Go > Next Divergence (F8) / Previous Divergence (Shift+F8).
// A comparison belongs to the run it was made for: opening another run drops it.
class ComparisonTools : public QObject
{
    Q_OBJECT

public:
    explicit ComparisonTools(MainWindow *window);
    ~ComparisonTools() override;

    ComparisonPane *pane() const { return m_pane; }
    QDockWidget *dock() const { return m_dock; }
    const ComparisonHandle &comparison() const { return m_comparison; }
    bool isComparing() const { return m_pending > 0; }

public slots:
    // Compares the open run with the recording at `path`; a newer request supersedes one still running.
    void compareWith(const QString &path);
    void showCompareDialog();
    bool stepDivergence(int step);
    void swapWithBaseline();

signals:
    void comparisonReady(const tf::ui::ComparisonHandle &comparison);
    void comparisonFailed(const QString &path, const QString &error);

private:
    struct Outcome
    {
        ComparisonHandle comparison;
        QString error;
    };
    static Outcome compareNow(std::shared_ptr<const recording::Run> run, const QString &path);
    void clear();

    MainWindow *m_window = nullptr;
    ComparisonPane *m_pane = nullptr;
    QDockWidget *m_dock = nullptr;
    QAction *m_compareAction = nullptr;
    QAction *m_swapAction = nullptr;
    QString m_compareOnLoad; // after a swap: the run to compare the newly opened one with
    QList<QAction *> m_divergenceActions;
    ComparisonHandle m_comparison;
    quint64 m_generation = 0;
    int m_pending = 0;
};

} // namespace tf::ui
