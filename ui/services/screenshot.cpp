#include "ui/services/screenshot.h"

#include "ui/panes/mainwindow.h"
#include "ui/services/comparisontools.h"
#include "ui/services/qtstrings.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QPixmap>
#include <QScopeGuard>
#include <QTimer>

#include <cstdio>
#include <functional>

namespace tf::ui {

namespace {

class ScreenshotText
{
    Q_DECLARE_TR_FUNCTIONS(tf::ui::Screenshot)

public:
    static QString noCall(int call, int calls)
    {
        return tr("--call %1: the recording has %n call(s)", nullptr, calls).arg(call);
    }
    static QString cannotWrite(const QString &path) { return tr("%1: cannot write the PNG").arg(path); }
    static QString timedOut() { return tr("timed out waiting for the window"); }
};

// Runs the event loop until `done` holds (checked after every event batch) or the time runs out.
bool spinUntil(const std::function<bool()> &done, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    QEventLoop loop;
    QTimer tick;
    QObject::connect(&tick, &QTimer::timeout, &loop, [&] {
        if (done() || timer.elapsed() > timeoutMs)
            loop.quit();
    });
    tick.start(5);
    if (!done())
        loop.exec();
    return done();
}

// The offscreen platform warns once per dock about a feature it does not have; that is not news on stderr, where the
// screenshot mode reports its own errors.
QtMessageHandler g_previousHandler = nullptr;
void quietOffscreen(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (message.contains(QLatin1String("does not support propagateSizeHints")))
        return;
    if (g_previousHandler)
        g_previousHandler(type, context, message);
}

void fail(const QString &message)
{
    std::fprintf(stderr, "tracefold: %s\n", message.toLocal8Bit().constData());
}

} // namespace

int renderScreenshot(const ScreenshotRequest &request, const QString &compareWith)
{
    g_previousHandler = qInstallMessageHandler(quietOffscreen);
    const auto restore = qScopeGuard([] { qInstallMessageHandler(g_previousHandler); });
    MainWindow::Options options;
    options.persistSettings = false;
    options.progressDialog = false;
    options.errorDialogs = false;
    MainWindow window(options);
    // A comparison shows two runs in every pane: it gets a larger window.
    window.resize(compareWith.isEmpty() ? QSize(1400, 900) : QSize(1600, 1000));
    window.show();
    QCoreApplication::processEvents();
    window.applyDefaultLayout();

    bool finished = false;
    QString error;
    QObject::connect(&window, &MainWindow::runLoaded, &window, [&] { finished = true; });
    // A large file's call N is drawn as soon as it is on screen, while the rest of the file is still being indexed.
    QObject::connect(&window, &MainWindow::runPreviewShown, &window, [&](const RunHandle &run) {
        if (compareWith.isEmpty() && request.call >= 1 && std::size_t(request.call) <= run->calls.size())
            finished = true;
    });
    QObject::connect(&window, &MainWindow::loadFailed, &window, [&](const QString &, const QString &e) {
        finished = true;
        error = e;
    });
    // A file that changes under the window is not waited on (no dialog, no bar to click): the shot fails with why.
    QString changed;
    QObject::connect(&window, &MainWindow::fileChanged, &window, [&](const QString &reason) { changed = reason; });
    window.setInitialCall(qMax(0, request.call - 1));
    if (request.file.isEmpty())
        window.openBundledSample();
    else
        window.openFile(request.file);
    if (!spinUntil([&] { return finished; }, 120000)) {
        fail(ScreenshotText::timedOut());
        return 2;
    }
    if (!error.isEmpty()) {
        fail(error);
        return 2;
    }
    const int calls = int(window.run()->calls.size());
    if (request.call < 1 || request.call > calls) {
        fail(ScreenshotText::noCall(request.call, calls));
        return 2;
    }
    if (!compareWith.isEmpty()) {
        auto *tools = window.findChild<ComparisonTools *>();
        bool compared = false;
        QString compareError;
        QObject::connect(tools, &ComparisonTools::comparisonReady, &window, [&] { compared = true; });
        QObject::connect(tools, &ComparisonTools::comparisonFailed, &window, [&](const QString &, const QString &e) {
            compared = true;
            compareError = e;
        });
        tools->compareWith(compareWith);
        if (!spinUntil([&] { return compared; }, 120000)) {
            fail(ScreenshotText::timedOut());
            return 2;
        }
        if (!compareError.isEmpty()) {
            fail(compareError);
            return 2;
        }
        // The comparison below the calls and the panes, as a user would place it to read both.
        window.resizeDocks({tools->dock()}, {window.height() * 25 / 100}, Qt::Vertical);
    }
    const int ordinal = request.call - 1;
    const bool shown = spinUntil(
        [&] {
            return !changed.isEmpty() || (window.currentBundle() && int(window.currentBundle()->ordinal) == ordinal);
        },
        60000);
    // With a comparison, the panes' sides of the pair at that call too.
    if (auto *tools = window.findChild<ComparisonTools *>(); shown && tools && tools->comparison())
        spinUntil([&] { return tools->shownPair() && tools->shownPair()->a == std::size_t(ordinal); }, 60000);
    // Let layouts and deferred updates settle before grabbing.
    for (int i = 0; shown && i < 5; ++i)
        QCoreApplication::processEvents();
    if (changed.isEmpty())
        changed = toQString(window.run()->run->changedOnDisk());
    if (!changed.isEmpty()) {
        fail(changed);
        return 2;
    }
    if (!shown) {
        fail(ScreenshotText::timedOut());
        return 2;
    }
    const QPixmap shot = window.grab();
    if (!shot.save(request.output, "PNG")) {
        fail(ScreenshotText::cannotWrite(request.output));
        return 2;
    }
    return 0;
}

} // namespace tf::ui
