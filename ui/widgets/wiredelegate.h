#pragma once

#include "ui/widgets/itemdelegate.h"

namespace tf::ui {

// Wire rows: a collapsed tool result is tinted and badged (ticket glyph, "collapsed · standing"), an undeclared
// result badged with a dashed outline, a damaged part badged red; group rows are bold.
class WireDelegate : public ItemDelegate
{
    Q_OBJECT

public:
    using ItemDelegate::ItemDelegate;

    // The background a row gets (empty brush: none); the one rule for "highlighted", shared with tests.
    static QBrush rowBackground(const QModelIndex &index, const QPalette &palette);

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;
};

} // namespace tf::ui
