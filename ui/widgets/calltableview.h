#pragma once

#include <QTableView>

namespace tf::ui {

// The calls list's view: rows are calls, so Home and End go to the first and last call (not the first column), and
// J / K step down and up as Down / Up do.
class CallTableView : public QTableView
{
    Q_OBJECT

public:
    explicit CallTableView(QWidget *parent = nullptr);

protected:
    QModelIndex moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers) override;
    void keyPressEvent(QKeyEvent *event) override;
};

} // namespace tf::ui
