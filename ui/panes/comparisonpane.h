#pragma once

#include "ui/services/loadedcomparison.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QTableView;

namespace tf::ui {

class AlignmentModel;
class SelectableLabel;

// The open run against a baseline run (File > Compare With…): where the two first went apart, the calls of both runs
// lined up with divergent rows marked and what differs at each, and for the chosen row what differs there in words
// (report::pairText of compare::comparePair, built on a worker with the panes' sides, compare::pairPanes, which
// pairReady hands to the views under the panes). Choosing a row shows this run's call in every other pane.
class ComparisonPane : public QWidget
{
    Q_OBJECT

public:
    explicit ComparisonPane(QWidget *parent = nullptr);

    void setComparison(const ComparisonHandle &comparison);
    // What to show instead of a comparison (none yet, one being made, one that failed).
    void setMessage(const QString &message);
    AlignmentModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    int currentRow() const;

public slots:
    // Selects the row of this run's call `ordinal`, without emitting callActivated (the call is already shown).
    void showThisCall(int ordinal);
    // Selects aligned row `row` as if it were clicked: emits callActivated when it has a call of this run.
    void chooseRow(int row);
    // Selects the next (step 1) or previous (step -1) divergent row from the current one; returns false when there
    // is none. Emits callActivated when that row has a call of this run.
    bool stepDivergence(int step);

signals:
    void callActivated(int ordinal);
    // The chosen row changed (by a click, a key, a divergence step or the call shown).
    void rowChosen(int row);
    // The chosen row's pair is shown (its details are built); `pair` is what was built, for the other panes.
    void pairShown(int row);
    void pairReady(const tf::ui::ComparedPairHandle &pair);

private:
    void selectRow(int row, bool activate);
    void showPair(int row);

    AlignmentModel *m_model = nullptr;
    SelectableLabel *m_verdict = nullptr;
    QLabel *m_pairTitle = nullptr;
    QPlainTextEdit *m_pairDetail = nullptr;
    QTableView *m_view = nullptr;
    bool m_selecting = false;
    quint64 m_pairGeneration = 0; // a pair built for an earlier choice is dropped
};

} // namespace tf::ui
