// The run timeline (core/recording/timelineview.h) against the real agentfootprint 9.62.0 recordings: every span's
// times are checked against the events' meta.wallClockMs read with Qt's JSON reader, so the expectations never pass
// through the core's own reader; the tool errors, the pause, the limits and the turns of the samples that hold them;
// the visible-range search against a brute force on a generated run of 3,000 calls.

#include "core/generate/recordinggenerator.h"
#include "core/recording/callview.h"
#include "core/recording/recordingloader.h"
#include "core/recording/timelineview.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

#include <map>

using namespace tf;
using recording::TimelineMarker;
using recording::TimelineSpan;
using recording::TimelineView;

namespace {

const QString kDir = QStringLiteral(TRACEFOLD_TEST_DATA "/samples/real-9.62/");

struct Loaded
{
    std::shared_ptr<const recording::Run> run;
    std::vector<recording::CallSummary> summaries;
    TimelineView view;
};

Loaded load(const QString &file)
{
    Loaded out;
    auto result = recording::loadRecording((kDir + file).toStdString());
    if (!result.run)
        qFatal("%s did not load: %s", qPrintable(file), result.error.c_str());
    out.run = result.run;
    out.summaries = recording::summarizeCalls(*out.run);
    out.view = recording::timelineView(*out.run, out.summaries);
    return out;
}

QJsonArray eventsOf(const QString &file)
{
    QFile f(kDir + file);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("%s is missing", qPrintable(file));
    return QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("events")).toArray();
}

QString typeTail(const QJsonObject &event)
{
    return event.value(QStringLiteral("type")).toString().section(QLatin1Char('.'), -1);
}

double wallClock(const QJsonObject &event)
{
    return event.value(QStringLiteral("meta")).toObject().value(QStringLiteral("wallClockMs")).toDouble();
}

QString payloadString(const QJsonObject &event, const char *key)
{
    return event.value(QStringLiteral("payload")).toObject().value(QLatin1String(key)).toString();
}

std::vector<TimelineMarker> markersOf(const TimelineView &view, TimelineMarker::Kind kind)
{
    std::vector<TimelineMarker> out;
    for (const TimelineMarker &m : view.markers)
        if (m.kind == kind)
            out.push_back(m);
    return out;
}

std::shared_ptr<const recording::Run> generated(int calls, std::uint64_t seed, bool stripClock = false)
{
    generate::GeneratorOptions options;
    options.calls = calls;
    options.seed = seed;
    if (calls > 100) { // a long run as the benchmark makes one: short results, a history window, turns of 25 calls
        options.resultBytes = 300;
        options.historyInIterationEnd = false;
        options.historyWindow = 8;
        options.turnCalls = 25;
    }
    std::string text = generate::generateRecording(options);
    if (stripClock) // the same recording with no timestamp on record
        for (std::size_t at = text.find("\"wallClockMs\""); at != std::string::npos; at = text.find("\"wallClockMs\""))
            text.replace(at, 13, "\"wallClockMx\"");
    auto result = recording::loadRecordingFromBytes(std::move(text), "generated.json");
    if (!result.run)
        qFatal("generated recording failed to load: %s", result.error.c_str());
    return result.run;
}

} // namespace

class TestTimelineView : public QObject
{
    Q_OBJECT

private slots:
    void spansAreTheEventsTimes_data();
    void spansAreTheEventsTimes();
    void toolErrorsAreMarked();
    void pauseWithoutResumeIsOpen();
    void resumedPauseCloses();
    void limitHitsAreMarkers();
    void turnsAndIterationsBandTheirCalls();
    void cacheVerdictsAreTheSummaries();
    void noTimestampsPlaceNothing();
    void visibleRangeMatchesBruteForce();
};

void TestTimelineView::spansAreTheEventsTimes_data()
{
    QTest::addColumn<QString>("file");
    for (const char *name :
         {"dev-1-research.json", "dev-2-conversation.json", "dev-3-tool-errors.json", "dev-4-crash.json",
          "dev-7-paused-or-limited.json", "dev-7b-resumed.json", "dev-8-max-iterations.json"})
        QTest::newRow(name) << QString::fromLatin1(name);
}

void TestTimelineView::spansAreTheEventsTimes()
{
    QFETCH(QString, file);
    const Loaded loaded = load(file);
    const QJsonArray events = eventsOf(file);
    QVERIFY(loaded.view.timed);
    QCOMPARE(loaded.view.untimedCalls, std::size_t(0));
    const double origin = wallClock(events.first().toObject());
    QCOMPARE(loaded.view.originWallClockMs, origin);

    // Every llm_start is a call span starting at its timestamp; each llm_end that follows it ends it.
    std::vector<double> starts, ends;
    std::map<QString, std::pair<double, double>> tools; // id -> (start, end or -1)
    std::map<QString, bool> toolErrors;
    double last = 0;
    for (const QJsonValue &v : events) {
        const QJsonObject e = v.toObject();
        const double t = wallClock(e) - origin;
        last = std::max(last, t);
        const QString type = typeTail(e);
        if (type == QLatin1String("llm_start")) {
            starts.push_back(t);
            ends.push_back(-1);
        } else if (type == QLatin1String("llm_end")) {
            ends.back() = t;
        } else if (type == QLatin1String("tool_start")) {
            tools[payloadString(e, "toolCallId")] = {t, -1};
        } else if (type == QLatin1String("tool_end")) {
            tools[payloadString(e, "toolCallId")].second = t;
            toolErrors[payloadString(e, "toolCallId")] =
                e.value(QStringLiteral("payload")).toObject().value(QStringLiteral("error")).toBool();
        }
    }
    QCOMPARE(loaded.view.endMs, last);
    QCOMPARE(loaded.view.calls.size(), starts.size());
    for (std::size_t i = 0; i < starts.size(); ++i) {
        const TimelineSpan &span = loaded.view.calls[i];
        QCOMPARE(span.call, std::optional<std::size_t>(i));
        QCOMPARE(span.startMs, starts[i]);
        QCOMPARE(span.endOnRecord, ends[i] >= 0);
        if (ends[i] >= 0)
            QCOMPARE(span.endMs, ends[i]);
        else
            QVERIFY(span.endMs >= span.startMs && span.endMs <= last);
        QCOMPARE(span.turn, loaded.run->calls[i].turn);
    }
    QCOMPARE(loaded.view.tools.size(), tools.size());
    for (const TimelineSpan &tool : loaded.view.tools) {
        const QString id = QString::fromUtf8(tool.toolId.data(), qsizetype(tool.toolId.size()));
        QVERIFY2(tools.count(id), qPrintable(id));
        QCOMPARE(tool.startMs, tools[id].first);
        QCOMPARE(tool.endOnRecord, tools[id].second >= 0);
        if (tool.endOnRecord)
            QCOMPARE(tool.endMs, tools[id].second);
        QCOMPARE(tool.error, toolErrors[id]);
        QVERIFY(!tool.toolName.empty());
        QVERIFY(tool.lane < loaded.view.toolLanes);
    }
    // Every list is ordered by start, with its running maximum of ends.
    for (const auto *spans : {&loaded.view.calls, &loaded.view.tools, &loaded.view.iterations, &loaded.view.turns})
        for (std::size_t i = 1; i < spans->size(); ++i) {
            QVERIFY((*spans)[i - 1].startMs <= (*spans)[i].startMs);
            QCOMPARE((*spans)[i].maxEndMs, std::max((*spans)[i - 1].maxEndMs, (*spans)[i].endMs));
        }
}

void TestTimelineView::toolErrorsAreMarked()
{
    const Loaded loaded = load(QStringLiteral("dev-3-tool-errors.json"));
    QStringList failed, all;
    for (const TimelineSpan &tool : loaded.view.tools) {
        all << QString::fromUtf8(tool.toolId.data(), qsizetype(tool.toolId.size()));
        if (tool.error)
            failed << QString::fromUtf8(tool.toolId.data(), qsizetype(tool.toolId.size()));
    }
    QCOMPARE(all, QStringList({QStringLiteral("ci-1"), QStringLiteral("ci-2"), QStringLiteral("ci-3"),
                               QStringLiteral("ci-4")}));
    QCOMPARE(failed, QStringList({QStringLiteral("ci-1"), QStringLiteral("ci-4")}));
    QCOMPARE(loaded.view.tools[0].call, std::optional<std::size_t>(0));
    QCOMPARE(loaded.view.tools[3].call, std::optional<std::size_t>(2));
    QCOMPARE(loaded.view.openSpans, std::size_t(0)); // a completed run: every end is on record
    QVERIFY(loaded.view.markers.empty());
}

void TestTimelineView::pauseWithoutResumeIsOpen()
{
    const Loaded loaded = load(QStringLiteral("dev-7-paused-or-limited.json"));
    QCOMPARE(loaded.view.pauses.size(), std::size_t(1));
    const TimelineSpan &pause = loaded.view.pauses.front();
    QVERIFY(!pause.endOnRecord);
    QCOMPARE(pause.startMs, 348.0); // pause.request's wallClockMs, not its runOffsetMs (consumer scope: 0)
    QCOMPARE(pause.endMs, loaded.view.endMs);
    QCOMPARE(pause.call, std::optional<std::size_t>(1));
    const auto pauses = markersOf(loaded.view, TimelineMarker::Kind::Pause);
    QCOMPARE(pauses.size(), std::size_t(1));
    QVERIFY(QString::fromStdString(pauses.front().label)
                .startsWith(QStringLiteral("paused: Approve read-only access to prod-orders-db")));
    // The tool that asked never returned: its span is open, drawn no further than the recording goes.
    QCOMPARE(loaded.view.tools.size(), std::size_t(2));
    QVERIFY(!loaded.view.tools[1].endOnRecord);
    QCOMPARE(loaded.view.tools[1].toolId, std::string_view("acc-2"));
    QVERIFY(loaded.view.tools[1].endMs <= loaded.view.endMs);
    QVERIFY(loaded.view.openSpans >= 3); // the tool, its iteration and turn, the pause
}

void TestTimelineView::resumedPauseCloses()
{
    const Loaded loaded = load(QStringLiteral("dev-7b-resumed.json"));
    QCOMPARE(loaded.view.pauses.size(), std::size_t(1));
    const TimelineSpan &pause = loaded.view.pauses.front();
    QVERIFY(pause.endOnRecord);
    QCOMPARE(pause.startMs, 348.0);
    QCOMPARE(pause.endMs, 361.0);
    QCOMPARE(markersOf(loaded.view, TimelineMarker::Kind::Resume).size(), std::size_t(1));
    // acc-2 returned in the resumed run: the tool span reaches over the pause.
    QCOMPARE(loaded.view.tools[1].toolId, std::string_view("acc-2"));
    QVERIFY(loaded.view.tools[1].endOnRecord);
    QVERIFY(loaded.view.tools[1].endMs > pause.endMs);
    QCOMPARE(loaded.view.turns.size(), std::size_t(1)); // a resumed run continues its turn
    QVERIFY(loaded.view.turns.front().endOnRecord);
}

void TestTimelineView::limitHitsAreMarkers()
{
    const Loaded loaded = load(QStringLiteral("dev-8-max-iterations.json"));
    const auto limits = markersOf(loaded.view, TimelineMarker::Kind::Limit);
    QStringList labels;
    for (const TimelineMarker &m : limits) {
        QCOMPARE(m.atMs, 44.0);
        QCOMPARE(m.call, std::optional<std::size_t>(2));
        labels << QString::fromStdString(m.label).section(QLatin1Char(':'), 0, 0);
    }
    QCOMPARE(labels, QStringList({QStringLiteral("wrap-up"), QStringLiteral("cost.limit_hit"),
                                  QStringLiteral("budget_exhausted")}));
    QVERIFY(loaded.view.pauses.empty());
    QCOMPARE(loaded.view.calls.size(), std::size_t(4));
    QCOMPARE(loaded.view.calls[3].endMs - loaded.view.calls[3].startMs, 918.0); // the wrap-up call's latency
}

void TestTimelineView::turnsAndIterationsBandTheirCalls()
{
    const Loaded loaded = load(QStringLiteral("dev-2-conversation.json"));
    const QJsonArray events = eventsOf(QStringLiteral("dev-2-conversation.json"));
    const double origin = wallClock(events.first().toObject());
    std::vector<std::pair<double, double>> turns;
    for (const QJsonValue &v : events) {
        const QJsonObject e = v.toObject();
        if (typeTail(e) == QLatin1String("turn_start"))
            turns.emplace_back(wallClock(e) - origin, -1);
        else if (typeTail(e) == QLatin1String("turn_end"))
            turns.back().second = wallClock(e) - origin;
    }
    QCOMPARE(turns.size(), std::size_t(4));
    QCOMPARE(loaded.view.turns.size(), turns.size());
    for (std::size_t t = 0; t < turns.size(); ++t) {
        QCOMPARE(loaded.view.turns[t].turn, t);
        QCOMPARE(loaded.view.turns[t].startMs, turns[t].first);
        QCOMPARE(loaded.view.turns[t].endMs, turns[t].second);
    }
    QCOMPARE(loaded.view.iterations.size(), loaded.view.calls.size());
    for (std::size_t i = 0; i < loaded.view.calls.size(); ++i) {
        const TimelineSpan &call = loaded.view.calls[i], &iteration = loaded.view.iterations[i];
        const TimelineSpan &turn = loaded.view.turns[call.turn];
        QVERIFY(iteration.startMs <= call.startMs && call.endMs <= iteration.endMs);
        QVERIFY(turn.startMs <= iteration.startMs && iteration.endMs <= turn.endMs);
        QCOMPARE(call.iteration, iteration.iteration);
    }
    QCOMPARE(loaded.view.iterations[1].iteration, std::optional<int>(2));
    QCOMPARE(loaded.view.iterations[2].iteration, std::optional<int>(1)); // turn 2 starts its iterations again
}

void TestTimelineView::cacheVerdictsAreTheSummaries()
{
    const auto run = generated(60, 7);
    const auto summaries = recording::summarizeCalls(*run);
    const TimelineView view = recording::timelineView(*run, summaries);
    QCOMPARE(view.calls.size(), summaries.size());
    std::map<recording::CacheVerdict, int> seen;
    for (const TimelineSpan &span : view.calls) {
        QCOMPARE(span.verdict, summaries[*span.call].verdict);
        ++seen[span.verdict];
    }
    QVERIFY2(seen.size() >= 2, "the generated run has hits and misses"); // else the comparison above is vacuous
}

void TestTimelineView::noTimestampsPlaceNothing()
{
    const auto run = generated(20, 3, true);
    const TimelineView view = recording::timelineView(*run, recording::summarizeCalls(*run));
    QVERIFY(!view.timed);
    QCOMPARE(view.untimedCalls, run->calls.size());
    QVERIFY(view.calls.empty() && view.tools.empty() && view.turns.empty() && view.markers.empty());
}

void TestTimelineView::visibleRangeMatchesBruteForce()
{
    const auto run = generated(3000, 11);
    const auto summaries = recording::summarizeCalls(*run);
    QElapsedTimer timer;
    timer.start();
    const TimelineView view = recording::timelineView(*run, summaries);
    qInfo("timelineView of %zu calls, %zu tools: %lld ms", view.calls.size(), view.tools.size(), timer.elapsed());
    QCOMPARE(view.calls.size(), std::size_t(3000));
    QCOMPARE(view.turns.size(), run->turns.size());
    QVERIFY(view.endMs > 0);
    QRandomGenerator random(5);
    for (const auto *spans : {&view.calls, &view.tools, &view.iterations}) {
        for (int round = 0; round < 200; ++round) {
            const double a = random.bounded(view.endMs), b = a + random.bounded(view.endMs / 50);
            const auto [first, last] = recording::spansIn(*spans, a, b);
            for (std::size_t i = 0; i < spans->size(); ++i) {
                const bool reaches = (*spans)[i].endMs >= a && (*spans)[i].startMs <= b;
                if (reaches)
                    QVERIFY2(i >= first && i < last, "a visible span was left out");
            }
            QVERIFY(last - first < spans->size() / 4); // and the range is a small part of the run
        }
    }
    // spanAt finds the call under a time inside it.
    std::size_t middle = 1500;
    while (view.calls[middle].endMs - view.calls[middle].startMs < 2)
        ++middle;
    QCOMPARE(recording::spanAt(view.calls, (view.calls[middle].startMs + view.calls[middle].endMs) / 2),
             std::optional<std::size_t>(middle));
}

QTEST_APPLESS_MAIN(TestTimelineView)
#include "tst_timelineview.moc"
