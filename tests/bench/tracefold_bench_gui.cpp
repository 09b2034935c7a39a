// tracefold-bench-gui: what the window costs, measured on the real MainWindow (offscreen unless a display is set).
//
//   tracefold-bench-gui FILE [--switches N] [--stepping] [--no-node]
//   valgrind --tool=callgrind --instr-atstart=no tracefold-bench-gui FILE --switches N   (instructions per switch)
//
// 0. Node side by side: `JSON.parse` of the same file in a child process, timed first (the file is then warm for
//    both), so "first call shown" compares with what a JavaScript viewer must do before it can show anything.
// 1. Event-loop responsiveness while FILE loads: a 2 ms timer records the longest gap between its ticks from the
//    moment the load starts until the run is shown and its first call is on screen. A gap is time the GUI thread
//    could not answer input. "First call shown" is the first callShown after openFile, whether or not the whole
//    run is indexed by then (a progressive open shows call 1 before it is); "indexed" is runLoaded.
// 2. Switching calls: for N random calls (with --stepping, N calls one after the other from a random one, as a reader
//    steps through a run), the time from asking the window for the call until it announces the call
//    shown (the core per-call view on the worker, then every pane's model), and until the window has painted it,
//    as p50 / p99 / max; the CPU the switches took (every thread, and the GUI thread alone) and the worker's build.
// 3. Where the switches' time went on the GUI thread: the events it handled while switching, summed by kind
//    (painting, layout, the worker's result and the models' resets, timers, the rest), as ms per switch.
// 4. Memory: the process's peak resident set (VmHWM) once the empty window settled, once FILE is loaded and after
//    the switches, against the file's size.
// Not a test: it prints figures for docs/performance.md.

#include "ui/panes/mainwindow.h"
#include "ui/services/appsetup.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QPropertyAnimation>
#include <QTimer>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#endif

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

// Handles events until `done`, sleeping while there are none. Not processEvents(flags, maxTime): that form drops
// WaitForMoreEvents and returns at once when nothing is pending, so a loop around it spins the GUI thread on a core the
// worker building the call needs (on two cores it made switches look slower than the window makes them).
void waitUntil(const std::function<bool()> &done)
{
    while (!done())
        QApplication::processEvents(QEventLoop::WaitForMoreEvents);
}

// Times every event the GUI thread handles at the outermost level, by kind, while `recording` is set.
class TimedApplication : public QApplication
{
public:
    using QApplication::QApplication;

    bool notify(QObject *receiver, QEvent *event) override
    {
        if (recording && m_depth > 0 && event->type() == QEvent::Paint) {
            // Paint events are sent inside the window's update request, one per widget repainted: who paints what.
            QElapsedTimer t;
            t.start();
            const bool result = QApplication::notify(receiver, event);
            if (trace)
                std::fprintf(stderr, "   paint %s\n", qPrintable(paintKey(receiver)));
            PaintStat &stat = paints[paintKey(receiver)];
            stat.ns += t.nsecsElapsed();
            ++stat.count;
            return result;
        }
        if (watchLongest && m_depth == 0) {
            // While a file loads: the longest single event the GUI thread handled, and what it was.
            ++m_depth;
            QElapsedTimer t;
            t.start();
            // Taken before the event, which may delete its receiver; the text is made only for a new longest.
            const int type = int(event->type());
            const char *className = receiver->metaObject()->className();
            const QString name = receiver->objectName();
            const bool result = QApplication::notify(receiver, event);
            --m_depth;
            if (t.nsecsElapsed() > longestNs) {
                longestNs = t.nsecsElapsed();
                longest = QStringLiteral("event %1 to %2 %3").arg(type).arg(QLatin1String(className), name);
            }
            return result;
        }
        if (!recording || m_depth > 0)
            return QApplication::notify(receiver, event);
        if (trace) {
            std::fprintf(stderr, "event %d to %s %s\n", int(event->type()), receiver->metaObject()->className(),
                         qPrintable(receiver->objectName()));
            if (auto *a = qobject_cast<QPropertyAnimation *>(receiver); a && a->targetObject())
                std::fprintf(stderr, "    animates %s %s.%s\n", a->targetObject()->metaObject()->className(),
                             qPrintable(a->targetObject()->objectName()), a->propertyName().constData());
        }
        ++m_depth;
        QElapsedTimer t;
        t.start();
        const bool result = QApplication::notify(receiver, event);
        --m_depth;
        spent[kindOf(event->type())] += t.nsecsElapsed();
        return result;
    }

    enum Kind
    {
        Paint,
        Layout,
        Results,
        Timers,
        Other,
        KindCount
    };
    static constexpr const char *kKindNames[KindCount] = {"painting", "layout", "worker results and model resets",
                                                          "timers", "other events"};
    bool recording = false;
    bool trace = false;
    bool watchLongest = false;
    qint64 longestNs = 0;
    QString longest;
    qint64 spent[KindCount] = {};
    struct PaintStat
    {
        qint64 ns = 0;
        int count = 0;
    };
    std::map<QString, PaintStat> paints; // by widget: class, and the object name of the nearest named ancestor

private:
    static QString paintKey(QObject *receiver)
    {
        QString named; // Qt names its own parts qt_…: the pane is further up
        for (QObject *o = receiver; o && (named.isEmpty() || named.startsWith(QLatin1String("qt_"))); o = o->parent())
            named = o->objectName();
        QString what = QString::fromLatin1(receiver->metaObject()->className());
        if (receiver->objectName() == QLatin1String("qt_scrollarea_viewport") && receiver->parent())
            what = QString::fromLatin1(receiver->parent()->metaObject()->className()) + QLatin1String(" viewport");
        return what + QLatin1String(" in ") + (named.isEmpty() ? QStringLiteral("?") : named);
    }

public:
private:
    static Kind kindOf(QEvent::Type type)
    {
        switch (type) {
        case QEvent::UpdateRequest:
        case QEvent::Paint:
            return Paint;
        case QEvent::LayoutRequest:
            return Layout;
        case QEvent::MetaCall:
        case QEvent::FutureCallOut:
            return Results;
        case QEvent::Timer:
            return Timers;
        default:
            return Other;
        }
    }

    int m_depth = 0;
};

// A field of /proc/self/status in MB: VmHWM (the peak resident set so far), RssAnon (heap and stacks), RssFile
// (mapped files: the recording's pages the kernel still holds, the libraries and fonts).
double statusMb(const char *field)
{
    std::ifstream status("/proc/self/status");
    std::string line;
    const std::string prefix = std::string(field) + ":";
    while (std::getline(status, line))
        if (line.rfind(prefix, 0) == 0)
            return std::stod(line.substr(prefix.size())) / 1024.0;
    return 0;
}

double peakRssMb()
{
    return statusMb("VmHWM");
}

struct NodeParse
{
    double wallMs = 0;
    bool ok = false;
};

// Node's JSON.parse of the file in a child process (stdout and stderr dropped).
NodeParse nodeParse(const QString &file)
{
    NodeParse r;
    const std::string path = file.toStdString();
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        const int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 1);
        dup2(devnull, 2);
        execlp("node", "node", "--max-old-space-size=16000", "-e",
               "JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8'))", path.c_str(), nullptr);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    r.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    r.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    return r;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    TimedApplication app(argc, argv);
    tf::ui::setupApplication(app); // what the app sets up (names, icon), so the figures are the shipped window's
    const QStringList args = QApplication::arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: tracefold-bench-gui FILE [--switches N] [--stepping] [--pause MS] [--no-node]\n");
        return 2;
    }
    const QString file = args.at(1);
    int switches = 500;
    if (const qsizetype i = args.indexOf(QStringLiteral("--switches")); i > 0 && i + 1 < args.size())
        switches = args.at(i + 1).toInt();
    const bool withNode = !args.contains(QStringLiteral("--no-node"));
    const bool stepping = args.contains(QStringLiteral("--stepping"));
    // A reader's pace: this long on each call before the next switch (what the window does while one reads, such as
    // building the next call ahead, then has its time).
    int pauseMs = 0;
    if (const qsizetype i = args.indexOf(QStringLiteral("--pause")); i > 0 && i + 1 < args.size())
        pauseMs = args.at(i + 1).toInt();
    struct stat fileStat
    {
    };
    const double fileMb = stat(file.toLocal8Bit().constData(), &fileStat) == 0 ? double(fileStat.st_size) / 1e6 : 0;
    // Before the window exists, so that Node's memory and time do not count against the window's.
    const NodeParse node = withNode ? nodeParse(file) : NodeParse{};

    tf::ui::MainWindow::Options options;
    options.persistSettings = false; // the user's recent files and layout stay untouched
    tf::ui::MainWindow window(options);
    window.resize(1400, 900);
    window.show();

    QElapsedTimer clock;
    qint64 lastTick = 0, maxGap = 0;
    QTimer ticker;
    ticker.setInterval(2);
    // What the resident set is made of while loading, sampled every 50 ms: anonymous memory (heap, and what the
    // allocator keeps of freed memory) and file-backed pages (the recording's mapping, libraries, fonts).
    double loadAnonMaxMb = 0, loadFileMaxMb = 0;
    qint64 lastSample = -50;
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        const qint64 now = clock.elapsed();
        maxGap = std::max(maxGap, now - lastTick);
        lastTick = now;
        if (now - lastSample >= 50) {
            lastSample = now;
            loadAnonMaxMb = std::max(loadAnonMaxMb, statusMb("RssAnon"));
            loadFileMaxMb = std::max(loadFileMaxMb, statusMb("RssFile"));
        }
    });

    bool loaded = false, failed = false;
    int shown = -1;
    std::size_t calls = 0;
    qint64 indexedMs = -1, firstShownMs = -1; // since openFile
    QObject::connect(&window, &tf::ui::MainWindow::runLoaded, [&](const tf::ui::RunHandle &run) {
        loaded = true;
        calls = run ? run->run->calls.size() : 0;
        if (indexedMs < 0 && clock.isValid())
            indexedMs = clock.elapsed();
    });
    QObject::connect(&window, &tf::ui::MainWindow::loadFailed, [&](const QString &, const QString &error) {
        failed = true;
        std::fprintf(stderr, "%s\n", qPrintable(error));
    });
    QElapsedTimer sinceSwitch;
    double shownAfterMs = 0; // stamped when the window announces the call: its paint is still to come
    QObject::connect(&window, &tf::ui::MainWindow::callShown, [&](int ordinal) {
        shown = ordinal;
        // The first call on screen after openFile: with a progressive open, before the run is indexed.
        if (firstShownMs < 0 && clock.isValid() && !app.recording)
            firstShownMs = clock.elapsed();
        shownAfterMs = sinceSwitch.isValid() ? double(sinceSwitch.nsecsElapsed()) / 1e6 : 0;
    });

    // Let the empty window settle first (the welcome page: like `tracefold FILE`, the bench opens no sample).
    bool settled = false;
    QTimer::singleShot(1500, [&] { settled = true; });
    waitUntil([&] { return settled; });

    loaded = false;
    shown = -1;
    const double rssBeforeMb = peakRssMb();
    clock.start();
    lastTick = 0;
    ticker.start();
    app.watchLongest = true;
    window.openFile(file);
    waitUntil([&] { return failed || (loaded && shown >= 0); });
    const qint64 loadMs = clock.elapsed();
    ticker.stop();
    app.watchLongest = false;
    std::fprintf(stderr, "longest GUI-thread event while loading: %.1f ms (%s)\n", double(app.longestNs) / 1e6,
                 qPrintable(app.longest));
    if (failed)
        return 1;
    const double rssLoadedMb = peakRssMb();
    const double anonLoadedMb = statusMb("RssAnon"), fileLoadedMb = statusMb("RssFile");
    std::printf(
        "| file | size MB | calls | node JSON.parse ms | first call shown ms | first shown / node | indexed ms | "
        "load until indexed and shown ms | longest event-loop gap ms |\n|---|---|---|---|---|---|---|---|---|\n");
    std::printf("| %s | %.1f | %zu | %s | %lld | %s | %lld | %lld | %lld |\n",
                qPrintable(file.section(QLatin1Char('/'), -1)), fileMb, calls,
                !withNode ? "-"
                : node.ok ? qPrintable(QString::number(node.wallMs, 'f', 0))
                          : "fails",
                static_cast<long long>(firstShownMs),
                node.ok ? qPrintable(QString::number(double(firstShownMs) / node.wallMs, 'f', 2)) : "-",
                static_cast<long long>(indexedMs), static_cast<long long>(loadMs), static_cast<long long>(maxGap));

    if (qEnvironmentVariableIsSet("FULLREPAINT")) {
        QElapsedTimer t;
        t.start();
        for (int i = 0; i < 50; ++i)
            window.repaint();
        std::printf("full window repaint: %.2f ms\n", double(t.nsecsElapsed()) / 1e6 / 50);
    }
    std::mt19937 rng(11);
    std::vector<double> times;      // until painted
    std::vector<double> modelTimes; // until the window's models hold the call (the core view, then the models)
    std::vector<int> targets;
    std::vector<std::array<qint64, TimedApplication::KindCount>> spentPerSwitch;
    std::vector<double> buildTimes; // the worker's build of each bundle (CallBundle::buildMs)
    // CPU spent while switching, of every thread (the worker's and the GUI's) and of the GUI thread alone: on a shared
    // machine the wall clock says as much about the other processes as about the code.
    const auto processCpuMs = [] {
        rusage u{};
        getrusage(RUSAGE_SELF, &u);
        return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 +
               double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
    };
    const auto threadCpuMs = [] {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
    };
    const double processCpuBefore = processCpuMs(), guiCpuBefore = threadCpuMs();
    app.recording = true;
    // Under `valgrind --tool=callgrind --instr-atstart=no`, only the switches are counted: instructions per switch
    // compare two builds on a machine whose clock is too noisy for it.
    CALLGRIND_START_INSTRUMENTATION;
    for (int i = 0; i < switches && calls > 1; ++i) {
        if (pauseMs > 0 && i > 0) {
            bool paused = false;
            QTimer::singleShot(pauseMs, [&paused] { paused = true; });
            app.recording = false; // the pause's own events are not the switch's
            waitUntil([&paused] { return paused; });
            app.recording = true;
        }
        int target = stepping && i > 0 ? (shown + 1) % int(calls) : int(rng() % calls);
        if (target == shown)
            target = (target + 1) % int(calls);
        app.trace = i >= switches - 4 && qEnvironmentVariableIsSet("TRACEFOLD_TRACE_SWITCH");
        if (app.trace)
            std::fprintf(stderr, "--- switch to %d\n", target);
        std::array<qint64, TimedApplication::KindCount> before;
        std::copy(std::begin(app.spent), std::end(app.spent), before.begin());
        QElapsedTimer &t = sinceSwitch;
        t.start();
        window.showCall(target);
        // The call is on screen once the update request its models posted has been handled, which the event loop
        // does right after the worker's result: wait for both.
        waitUntil([&] { return shown == target; });
        QCoreApplication::sendPostedEvents(nullptr, QEvent::UpdateRequest);
        modelTimes.push_back(shownAfterMs);
        times.push_back(double(t.nsecsElapsed()) / 1e6);
        targets.push_back(target);
        if (const tf::ui::BundleHandle bundle = window.currentBundle())
            buildTimes.push_back(bundle->buildMs);
        for (int k = 0; k < TimedApplication::KindCount; ++k)
            before[std::size_t(k)] = app.spent[k] - before[std::size_t(k)];
        spentPerSwitch.push_back(before);
    }
    CALLGRIND_STOP_INSTRUMENTATION;
    const double processCpu = processCpuMs() - processCpuBefore, guiCpu = threadCpuMs() - guiCpuBefore;
    if (qEnvironmentVariableIsSet("TRACEFOLD_SLOWEST")) {
        std::vector<std::size_t> order(times.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return times[a] > times[b]; });
        for (std::size_t i = 0; i < std::min<std::size_t>(8, order.size()); ++i) {
            std::fprintf(stderr, "slow switch #%zu to call %d: %.2f ms (", order[i], targets[order[i]],
                         times[order[i]]);
            for (int k = 0; k < TimedApplication::KindCount; ++k)
                std::fprintf(stderr, "%s%s %.2f", k ? ", " : "", TimedApplication::kKindNames[k],
                             double(spentPerSwitch[order[i]][std::size_t(k)]) / 1e6);
            std::fprintf(stderr, ")\n");
        }
    }
    app.recording = false;
    if (!times.empty()) {
        std::sort(times.begin(), times.end());
        std::sort(modelTimes.begin(), modelTimes.end());
        const QByteArray mode = !stepping     ? QByteArray()
                                : pauseMs > 0 ? " stepping, " + QByteArray::number(pauseMs) + " ms on each"
                                              : QByteArray(" stepping");
        const auto at = [](const std::vector<double> &sorted, double p) {
            return sorted[std::min(sorted.size() - 1, std::size_t(p * double(sorted.size())))];
        };
        std::printf(
            "\n| switches | until the models hold the call: p50 ms | p99 ms | max ms | until painted: p50 ms | "
            "p99 ms | max ms |\n|---|---|---|---|---|---|---|\n| %zu%s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n",
            times.size(), mode.constData(), at(modelTimes, 0.5), at(modelTimes, 0.99), modelTimes.back(),
            at(times, 0.5), at(times, 0.99), times.back());
        std::sort(buildTimes.begin(), buildTimes.end());
        std::printf("\n| CPU ms per switch: every thread | GUI thread | worker's build (wall): p50 ms | p99 ms |\n"
                    "|---|---|---|---|\n| %.2f | %.2f | %.2f | %.2f |\n",
                    processCpu / double(times.size()), guiCpu / double(times.size()),
                    buildTimes.empty() ? 0.0 : at(buildTimes, 0.5), buildTimes.empty() ? 0.0 : at(buildTimes, 0.99));
        std::printf("\n| GUI thread, ms per switch | |\n|---|---|\n");
        for (int k = 0; k < TimedApplication::KindCount; ++k)
            std::printf("| %s | %.2f |\n", TimedApplication::kKindNames[k],
                        double(app.spent[k]) / 1e6 / double(times.size()));
        const double rssEndMb = peakRssMb();
        std::printf(
            "\n| peak RSS MB: window settled | file loaded | after the switches | peak RSS / file | while loading, "
            "most anonymous MB | most file-backed MB | once loaded: anonymous MB | file-backed MB | after the "
            "switches: anonymous MB | file-backed MB |\n"
            "|---|---|---|---|---|---|---|---|---|---|\n"
            "| %.0f | %.0f | %.0f | %.2f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f |\n",
            rssBeforeMb, rssLoadedMb, rssEndMb, fileMb > 0 ? rssEndMb / (fileMb / 1.048576) : 0.0, loadAnonMaxMb,
            loadFileMaxMb, anonLoadedMb, fileLoadedMb, statusMb("RssAnon"), statusMb("RssFile"));
        std::printf("\n| painted widget | paints per switch | ms per switch |\n|---|---|---|\n");
        std::vector<std::pair<QString, TimedApplication::PaintStat>> byTime(app.paints.begin(), app.paints.end());
        std::sort(byTime.begin(), byTime.end(), [](const auto &a, const auto &b) { return a.second.ns > b.second.ns; });
        for (const auto &[widget, stat] : byTime)
            if (double(stat.ns) / 1e6 / double(times.size()) >= 0.05)
                std::printf("| %s | %.1f | %.2f |\n", qPrintable(widget), double(stat.count) / double(times.size()),
                            double(stat.ns) / 1e6 / double(times.size()));
    }
    return 0;
}
