#include "ui/widgets/alignmentdelegate.h"

#include "ui/models/alignmentmodel.h"
#include "ui/widgets/theme.h"

namespace tf::ui {

void AlignmentDelegate::initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    const auto state = AlignmentModel::RowState(index.data(AlignmentModel::StateRole).toInt());
    if (index.data(AlignmentModel::DivergentRole).toBool())
        option->backgroundBrush = theme::tint(theme::Tone::Bad, option->palette);
    else if (state == AlignmentModel::RowState::NotComparable)
        option->backgroundBrush = theme::tint(theme::Tone::Neutral, option->palette);
}

} // namespace tf::ui
