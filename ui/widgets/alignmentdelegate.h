#pragma once

#include <QStyledItemDelegate>

namespace tf::ui {

// Rows of the alignment (AlignmentModel) tinted by their state: divergent rows in the "bad" tone, rows that could
// not be compared in the neutral one. The state is also the Served column's word, so colour is never the only cue.
class AlignmentDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;
};

} // namespace tf::ui
