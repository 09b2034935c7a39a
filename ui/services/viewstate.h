#pragma once

class QSettings;
class QWidget;

namespace tf::ui {

// What QMainWindow::saveState leaves out: the columns of each named item view (order, widths, which are shown) and
// the sizes of each named splitter inside the panes. Kept under "views/" and "splitters/" by object name, so a pane
// added later, or one renamed, starts from its defaults instead of from another's state.
void saveViewStates(const QWidget *window, QSettings &settings);
void restoreViewStates(QWidget *window, const QSettings &settings);

} // namespace tf::ui
