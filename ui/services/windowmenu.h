#pragma once

class QMenu;

namespace tf::ui {

class MainWindow;

// A menu of the main window by its title, as the window itself translates it ("&File", "&Edit", "&Go", "&View");
// nullptr when it has none. Tools installed into the window find their menus this way.
QMenu *windowMenu(MainWindow *window, const char *title);

} // namespace tf::ui
