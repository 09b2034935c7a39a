#pragma once

#include "ui/services/loadedcomparison.h"

#include <QObject>
#include <QString>

class QAction;
class QDockWidget;

namespace tf::ui {

class CallsPane;
class ComparisonPane;
class MainWindow;
class PairSidesView;

// Comparing the open run with another run of the same task (issue 19), installed into the main window through its
// public API only (menus, docks, runLoaded, callShown, showCall):
//   File > Compare With… (Ctrl+Alt+O): loads the baseline and compares on a worker (compare::compareRuns);
//   the "Comparison" dock (ComparisonPane), listed under View;
//   File > Swap With Baseline: opens the baseline and compares it with the run that was open (either run can be the
//   baseline); File > Close Comparison;
//   Go > Next Divergence (F8) / Previous Divergence (Shift+F8);
//   the Calls list shows both runs aligned (CallsPane::setComparison), and under the Wire, Response, Ledger,
//   Findings and Since Previous Call panes a PairSidesView shows that pane's subject for the chosen aligned pair,
//   A beside B with what differs marked (compare::pairPanes, built with the pair on a worker).
// The chosen aligned row is the Comparison pane's; the Calls list and the panes follow it.
// A comparison belongs to the run it was made for: opening another run, or closing it, drops it.
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
    // The views under the panes, in the order Wire, Response, Ledger, Findings, Since Previous Call.
    QList<PairSidesView *> sidesViews() const;
    const ComparedPairHandle &shownPair() const { return m_pair; }

public slots:
    // Compares the open run with the recording at `path`; a newer request supersedes one still running.
    void compareWith(const QString &path);
    void showCompareDialog();
    bool stepDivergence(int step);
    void swapWithBaseline();
    // Drops the comparison: the Calls list is the plain list again and the panes show this run only.
    void closeComparison();

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
    void showPair(const ComparedPairHandle &pair);
    void addSidesView(const char *paneName, const char *viewName, const QString &subject,
                      compare::PairSides compare::PairPanes::*sides, bool lineOnly);

    MainWindow *m_window = nullptr;
    ComparisonPane *m_pane = nullptr;
    QDockWidget *m_dock = nullptr;
    QAction *m_compareAction = nullptr;
    QAction *m_swapAction = nullptr;
    QAction *m_closeAction = nullptr;
    QString m_compareOnLoad; // after a swap: the run to compare the newly opened one with
    QList<QAction *> m_divergenceActions;
    ComparisonHandle m_comparison;
    ComparedPairHandle m_pair;
    bool m_dockPlaced = false;
    CallsPane *m_calls = nullptr;
    struct Sides
    {
        PairSidesView *view = nullptr;
        compare::PairSides compare::PairPanes::*sides = nullptr;
    };
    QList<Sides> m_sides;
    quint64 m_generation = 0;
    int m_pending = 0;
};

} // namespace tf::ui
