#include "ui/widgets/compactheight.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QStyle>
#include <QTableView>
#include <QTreeView>

namespace tf::ui {

namespace {

constexpr const char *kRowsProperty = "tfCompactRows";

void applyCompactHeight(QAbstractScrollArea *view, int rows)
{
    const QFontMetrics fm = view->fontMetrics();
    int rowHeight = fm.lineSpacing();
    int header = 4; // a text document's margin
    if (auto *table = qobject_cast<QTableView *>(view)) {
        rowHeight = table->verticalHeader()->defaultSectionSize();
        header = table->horizontalHeader()->isHidden() ? 0 : table->horizontalHeader()->sizeHint().height();
    } else if (auto *tree = qobject_cast<QTreeView *>(view)) {
        rowHeight = fm.height() + 8;
        header = tree->isHeaderHidden() ? 0 : tree->header()->sizeHint().height();
    }
    // A sideways scroll bar takes its height from the rows: while one is shown (columns wider than the view, a large
    // font), the view is that much taller, so that its rows stay whole above it.
    const int scrollBar =
        view->horizontalScrollBar()->maximum() > 0 && view->horizontalScrollBarPolicy() != Qt::ScrollBarAlwaysOff
            ? view->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, view)
            : 0;
    view->setMinimumHeight(2 * view->frameWidth() + header + rows * rowHeight + scrollBar);
}

} // namespace

void setCompactHeight(QAbstractScrollArea *view, int rows)
{
    const bool following = view->property(kRowsProperty).isValid();
    view->setProperty(kRowsProperty, rows);
    applyCompactHeight(view, rows);
    if (!following)
        QObject::connect(view->horizontalScrollBar(), &QScrollBar::rangeChanged, view,
                         [view] { applyCompactHeight(view, view->property(kRowsProperty).toInt()); });
}

} // namespace tf::ui
