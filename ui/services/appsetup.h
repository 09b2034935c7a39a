#pragma once

class QApplication;

namespace tf::ui {

// Names, version and desktop id; needs only a QCoreApplication (--version and --help run without a display).
void setApplicationNames();
// The names plus the window icon, shared by the app, its screenshot mode and the GUI tests.
void setupApplication(QApplication &app);

} // namespace tf::ui
