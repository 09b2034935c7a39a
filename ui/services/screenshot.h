#pragma once

#include <QString>

namespace tf::ui {

// `tracefold --screenshot OUT.png [--call N] [FILE]`: the main window at 1400×900 with call N (1-based) selected,
// rendered with QWidget::grab(). No settings are read or written and no dialog is shown.
struct ScreenshotRequest
{
    QString output;
    int call = 1;
    QString file; // empty: the bundled sample
};

// Returns the process exit code: 0 when the PNG was written, 2 (with a message on stderr) when FILE cannot be
// loaded, the call does not exist or the PNG cannot be written.
int renderScreenshot(const ScreenshotRequest &request);

} // namespace tf::ui
