#include "ui/services/windowmenu.h"

#include "ui/panes/mainwindow.h"

#include <QCoreApplication>
#include <QMenu>
#include <QMenuBar>

namespace tf::ui {

QMenu *windowMenu(MainWindow *window, const char *title)
{
    const QString wanted = QCoreApplication::translate("tf::ui::MainWindow", title);
    for (QAction *a : window->menuBar()->actions())
        if (a->menu() && a->text() == wanted)
            return a->menu();
    return nullptr;
}

} // namespace tf::ui
