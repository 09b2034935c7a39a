#pragma once

#include "ui/widgets/itemdelegate.h"

namespace tf::ui {

// Ledger rows: rows filed at this call tinted with an accent bar, superseded standings dimmed, and the marks column
// drawn as chips (new, conflict, contingent, unsettled, superseded, malformed).
class LedgerDelegate : public ItemDelegate
{
    Q_OBJECT

public:
    using ItemDelegate::ItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;
};

} // namespace tf::ui
