#pragma once

#include "ui/models/alignmentmodel.h"

namespace tf::ui {

// The Calls list while a comparison is open: the calls of the open run (A) and of the baseline (B) side by side, one
// row per aligned pair (compare::RunDiff::aligned), a call one run made and the other did not beside a gap. What a
// call did is its signature (the tools it called, or that it answered). Rows, states and divergence are
// AlignmentModel's; only the columns differ.
class AlignedCallsModel : public AlignmentModel
{
    Q_OBJECT

public:
    enum Column
    {
        ThisCallColumn,
        ThisDidColumn,
        MarkColumn,
        BaselineCallColumn,
        BaselineDidColumn,
        ColumnCount
    };
    // Text in a cell with no call: the other run made one here.
    static QString gapText();

    using AlignmentModel::AlignmentModel;

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
};

} // namespace tf::ui
