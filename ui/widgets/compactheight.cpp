#include "ui/widgets/compactheight.h"

#include <QHeaderView>
#include <QTableView>
#include <QTreeView>

namespace tf::ui {

void setCompactHeight(QAbstractScrollArea *view, int rows)
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
    view->setMinimumHeight(2 * view->frameWidth() + header + rows * rowHeight);
}

} // namespace tf::ui
