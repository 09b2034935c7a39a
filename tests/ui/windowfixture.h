#pragma once

// The main window as the GUI tests drive it: an application set up as the app does (names, style, plurals) with
// settings kept out of the user's, a shown window that reads and writes no settings, and waits that return when a
// recording is open or a call's bundle is on screen.

#include "ui/panes/mainwindow.h"
#include "ui/services/appsetup.h"

#include <QApplication>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <memory>

namespace tf::ui::test {

inline void setUpGuiTestApplication()
{
    QStandardPaths::setTestModeEnabled(true);
    setupApplication(*static_cast<QApplication *>(QCoreApplication::instance()));
    QSettings().clear();
}

// A window of `size` (1400×900 unless said), shown and exposed; no settings, no error dialogs (loadFailed is emitted
// instead).
inline std::unique_ptr<MainWindow> shownTestWindow(bool progressDialog = true, QSize size = QSize(1400, 900))
{
    MainWindow::Options options;
    options.persistSettings = false;
    options.errorDialogs = false;
    options.progressDialog = progressDialog;
    auto window = std::make_unique<MainWindow>(options);
    window->resize(size);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        return nullptr;
    return window;
}

// Shows call `ordinal` (0-based) and waits until its bundle is the one on screen.
inline bool showCallAndWait(MainWindow &window, int ordinal)
{
    window.showCall(ordinal);
    return QTest::qWaitFor([&] { return window.currentBundle() && int(window.currentBundle()->ordinal) == ordinal; },
                           10000);
}

// Opens `path` and waits until it is loaded and its first call is on screen. The wait ends as soon as the run is
// loaded; its limit is for the sanitizer build on a busy 2-core machine, where a 3,000-call run took over a minute.
inline bool openAndShowFirstCall(MainWindow &window, const QString &path)
{
    QSignalSpy loaded(&window, &MainWindow::runLoaded);
    window.openFile(path);
    return loaded.wait(300000) && showCallAndWait(window, 0);
}

} // namespace tf::ui::test
