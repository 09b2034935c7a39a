#include "ui/services/viewstate.h"

#include <QAbstractItemView>
#include <QHeaderView>
#include <QSettings>
#include <QSplitter>
#include <QTableView>
#include <QTreeView>

namespace tf::ui {

namespace {

// The header whose columns the user arranges: a table's top header, a tree's header.
QHeaderView *columnHeader(QAbstractItemView *view)
{
    if (auto *table = qobject_cast<QTableView *>(view))
        return table->horizontalHeader();
    if (auto *tree = qobject_cast<QTreeView *>(view))
        return tree->header();
    return nullptr;
}

QString headerKey(const QWidget *view)
{
    return QStringLiteral("views/%1/header").arg(view->objectName());
}

QString splitterKey(const QWidget *splitter)
{
    return QStringLiteral("splitters/%1").arg(splitter->objectName());
}

} // namespace

void saveViewStates(const QWidget *window, QSettings &settings)
{
    const QList<QAbstractItemView *> views = window->findChildren<QAbstractItemView *>();
    for (QAbstractItemView *view : views)
        if (QHeaderView *header = columnHeader(view); header && !view->objectName().isEmpty())
            settings.setValue(headerKey(view), header->saveState());
    const QList<QSplitter *> splitters = window->findChildren<QSplitter *>();
    for (const QSplitter *splitter : splitters)
        if (!splitter->objectName().isEmpty())
            settings.setValue(splitterKey(splitter), splitter->saveState());
}

void restoreViewStates(QWidget *window, const QSettings &settings)
{
    const QList<QAbstractItemView *> views = window->findChildren<QAbstractItemView *>();
    for (QAbstractItemView *view : views) {
        QHeaderView *header = columnHeader(view);
        const QVariant state = header && !view->objectName().isEmpty() ? settings.value(headerKey(view)) : QVariant();
        // A state from a build with other columns is refused by QHeaderView (its section count differs).
        if (state.isValid())
            header->restoreState(state.toByteArray());
    }
    const QList<QSplitter *> splitters = window->findChildren<QSplitter *>();
    for (QSplitter *splitter : splitters)
        if (!splitter->objectName().isEmpty())
            if (const QVariant state = settings.value(splitterKey(splitter)); state.isValid())
                splitter->restoreState(state.toByteArray());
}

} // namespace tf::ui
