#include "ui/widgets/calltableview.h"

#include <QKeyEvent>

namespace tf::ui {

CallTableView::CallTableView(QWidget *parent)
    : QTableView(parent)
{
}

QModelIndex CallTableView::moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers)
{
    if (!model() || model()->rowCount() == 0)
        return QTableView::moveCursor(cursorAction, modifiers);
    const int column = currentIndex().isValid() ? currentIndex().column() : 0;
    switch (cursorAction) {
    case MoveHome:
        return model()->index(0, column);
    case MoveEnd:
        return model()->index(model()->rowCount() - 1, column);
    default:
        return QTableView::moveCursor(cursorAction, modifiers);
    }
}

void CallTableView::keyPressEvent(QKeyEvent *event)
{
    if (event->modifiers() == Qt::NoModifier && (event->key() == Qt::Key_J || event->key() == Qt::Key_K)) {
        QKeyEvent arrow(event->type(), event->key() == Qt::Key_J ? Qt::Key_Down : Qt::Key_Up, Qt::NoModifier);
        QTableView::keyPressEvent(&arrow);
        event->setAccepted(arrow.isAccepted());
        return;
    }
    QTableView::keyPressEvent(event);
}

} // namespace tf::ui
