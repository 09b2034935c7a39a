#pragma once

class QApplication;

namespace tf::ui {

// Names, icon and desktop id shared by the app, its screenshot mode and the GUI tests.
void setupApplication(QApplication &app);

} // namespace tf::ui
