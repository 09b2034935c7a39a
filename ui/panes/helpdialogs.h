#pragma once

class QDialog;
class QMainWindow;
class QWidget;

namespace tf::ui {

// Help > Keyboard Shortcuts: every action of the window that has a shortcut, under the menu it lives in, read from
// the menus themselves so the list cannot drift from what the keys do.
QDialog *createShortcutsDialog(QMainWindow *window);

// Help > Legend: every glyph, with its name and what it means, and the colours of the states.
QDialog *createLegendDialog(QWidget *parent);

} // namespace tf::ui
