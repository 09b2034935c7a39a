// tracefold-bench-gui: what the window costs, measured on the real MainWindow (offscreen unless a display is set).
//
//   tracefold-bench-gui FILE [--switches N]
//
// 1. Event-loop responsiveness while FILE loads: a 2 ms timer records the longest gap between its ticks from the
//    moment the load starts until the run is shown and its first call is on screen. A gap is time the GUI thread
//    could not answer input.
// 2. Switching calls: for N random calls, the time from asking the window for the call until it announces the call
//    shown (the core per-call view on the worker, then every pane's model), as p50 / p99 / max.
// Not a test: it prints figures for docs/performance.md.

#include "ui/appsetup.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    tf::ui::setupApplication(app); // what the app sets up (fonts, names), so the figures are the shipped window's
    const QStringList args = QApplication::arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: tracefold-bench-gui FILE [--switches N]\n");
        return 2;
    }
    const QString file = args.at(1);
    int switches = 500;
    if (const qsizetype i = args.indexOf(QStringLiteral("--switches")); i > 0 && i + 1 < args.size())
        switches = args.at(i + 1).toInt();

    tf::ui::MainWindow::Options options;
    options.persistSettings = false; // the user's recent files and layout stay untouched
    tf::ui::MainWindow window(options);
    window.resize(1400, 900);
    window.show();

    QElapsedTimer clock;
    qint64 lastTick = 0, maxGap = 0;
    QTimer ticker;
    ticker.setInterval(2);
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        const qint64 now = clock.elapsed();
        maxGap = std::max(maxGap, now - lastTick);
        lastTick = now;
    });

    bool loaded = false, failed = false;
    int shown = -1;
    std::size_t calls = 0;
    QObject::connect(&window, &tf::ui::MainWindow::runLoaded, [&](const tf::ui::RunHandle &run) {
        loaded = true;
        calls = run ? run->run->calls.size() : 0;
    });
    QObject::connect(&window, &tf::ui::MainWindow::loadFailed, [&](const QString &, const QString &error) {
        failed = true;
        std::fprintf(stderr, "%s\n", qPrintable(error));
    });
    QObject::connect(&window, &tf::ui::MainWindow::callShown, [&](int ordinal) { shown = ordinal; });

    // Let the bundled sample (opened at start when no file is given) settle first.
    QElapsedTimer settle;
    settle.start();
    while (settle.elapsed() < 1500)
        QApplication::processEvents(QEventLoop::AllEvents, 50);

    loaded = false;
    shown = -1;
    clock.start();
    lastTick = 0;
    ticker.start();
    window.openFile(file);
    while (!failed && !(loaded && shown >= 0))
        QApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    const qint64 loadMs = clock.elapsed();
    ticker.stop();
    if (failed)
        return 1;
    std::printf("| file | calls | load to first call shown ms | longest event-loop gap ms |\n|---|---|---|---|\n");
    std::printf("| %s | %zu | %lld | %lld |\n", qPrintable(file.section(QLatin1Char('/'), -1)), calls,
                static_cast<long long>(loadMs), static_cast<long long>(maxGap));

    std::mt19937 rng(11);
    std::vector<double> times;
    for (int i = 0; i < switches && calls > 1; ++i) {
        int target = int(rng() % calls);
        if (target == shown)
            target = (target + 1) % int(calls);
        QElapsedTimer t;
        t.start();
        window.showCall(target);
        while (shown != target)
            QApplication::processEvents(QEventLoop::WaitForMoreEvents, 20);
        times.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    if (!times.empty()) {
        std::sort(times.begin(), times.end());
        const auto at = [&](double p) { return times[std::min(times.size() - 1, std::size_t(p * double(times.size())))]; };
        std::printf("\n| switches | GUI switch p50 ms | p99 ms | max ms |\n|---|---|---|---|\n| %zu | %.2f | %.2f | %.2f |\n",
                    times.size(), at(0.5), at(0.99), times.back());
    }
    return 0;
}
