#pragma once

#include "ui/services/loadedcomparison.h"

#include <QAbstractTableModel>

namespace tf::ui {

// The calls of the open run and of the baseline lined up (compare::RunDiff::aligned): one row per aligned pair or
// gap, what differs there, divergent rows marked. Part names come from the recordings and are plain text.
class AlignmentModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        ThisRunColumn,
        BaselineColumn,
        ServedColumn,
        DiffersColumn,
        ColumnCount
    };
    enum Role
    {
        ThisCallRole = Qt::UserRole, // 0-based call of the open run; -1 for a call only the baseline made
        BaselineCallRole,            // 0-based call of the baseline; -1 for a call only the open run made
        DivergentRole,               // served differently, or a call one run made and the other did not
        StateRole,                   // RowState
    };
    enum class RowState
    {
        Same,          // served the same bytes (the response or a tool result may still differ)
        Differs,       // served differently
        OnlyThisRun,   // a call the baseline did not make
        OnlyBaseline,  // a call this run did not make
        NotComparable, // a served part is on record in one run only
    };
    RowState state(int row) const;

    explicit AlignmentModel(QObject *parent = nullptr);

    void setComparison(const ComparisonHandle &comparison);
    const ComparisonHandle &comparison() const { return m_comparison; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The row holding the open run's call `ordinal`; -1 when none does.
    int rowOfThisCall(int ordinal) const;
    // The nearest divergent row after (step 1) or before (step -1) `fromRow`; -1 when there is none.
    int divergentRow(int fromRow, int step) const;
    bool isDivergent(int row) const;

private:
    ComparisonHandle m_comparison;
};

} // namespace tf::ui
