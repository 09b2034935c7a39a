// Following a run in progress (issue 17, item 3): recording::LogFollower reads an NDJSON event log as it grows — only
// complete lines, a torn last line waiting for its newline — and follows its path across a rotation (renamed away
// with a fresh file in its place, or truncated in place), keeping what was read. Whatever order the bytes arrive in,
// the last snapshot must be what loading the whole log at once gives: the same calls, the same inspect objects.
// A recording written whole is read again when the path names a new version of it.

#include "core/audit/runaudit.h"
#include "core/json/parser.h"
#include "core/json/writer.h"
#include "core/recording/logfollower.h"
#include "core/recording/recordingloader.h"
#include "core/report/inspectreport.h"

#include "tests/core/recordingfile.h"

#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace tf;
using recording::LogFollower;

namespace {

const QString kRealLog = QStringLiteral(TRACEFOLD_TEST_DATA "/samples/real-9.62/dev-6-events.ndjson");

QString sample(const char *name)
{
    return QStringLiteral(TRACEFOLD_TEST_DATA "/samples/real-9.62/") + QLatin1String(name);
}

std::string eventsAsLog(const QString &recordingPath)
{
    return testsupport::eventsOf(testsupport::readFile(recordingPath), qPrintable(recordingPath));
}

void append(const std::string &path, std::string_view bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::app);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

void writeWhole(const std::string &path, std::string_view bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

std::size_t llmEndsIn(std::string_view text)
{
    std::size_t n = 0;
    for (std::size_t at = text.find("\"agentfootprint.stream.llm_end\""); at != std::string_view::npos;
         at = text.find("\"agentfootprint.stream.llm_end\"", at + 1))
        ++n;
    return n;
}

// What `inspect --json` says of each call of the whole log, loaded at once.
std::vector<std::string> inspectedCalls(const std::string &log)
{
    const auto run = testsupport::load(log, "whole.ndjson");
    std::vector<std::string> out;
    for (const recording::CallSummary &c : recording::summarizeCalls(*run))
        out.push_back(json::stringify(report::inspectCallJson(c)));
    return out;
}

std::vector<std::string> inspectedCalls(const LogFollower::Update &u)
{
    std::vector<std::string> out;
    for (const recording::CallSummary &c : u.calls)
        out.push_back(json::stringify(report::inspectCallJson(c)));
    return out;
}

// Splits a log into pieces of `step` bytes wherever they fall: mid-line, mid-string, mid-escape.
std::vector<std::string_view> piecesOf(std::string_view log, std::size_t step)
{
    std::vector<std::string_view> out;
    for (std::size_t at = 0; at < log.size(); at += step)
        out.push_back(log.substr(at, step));
    return out;
}

bool anyContains(const std::vector<std::string> &lines, const char *what)
{
    for (const std::string &l : lines)
        if (l.find(what) != std::string::npos)
            return true;
    return false;
}

std::string optionalText(const std::optional<std::size_t> &v)
{
    return v ? std::to_string(*v) : "-";
}

std::string optionalText(const std::optional<std::string> &v)
{
    return v ? "\"" + *v + "\"" : "-";
}

std::string optionalText(const std::optional<double> &v)
{
    return v ? std::to_string(*v) : "-";
}

// Everything a snapshot's index says of its run, one fact a line: what a snapshot published from events read over
// many polls must say exactly as one from the same events read at once.
std::string indexAsText(const recording::Run &run)
{
    std::ostringstream out;
    out << "live " << run.live << " awaiting " << run.callsAwaitingResponse << " basis " << int(run.basis) << "\n";
    out << "run " << run.runId << " model " << run.model << " provider " << run.provider << " mode " << run.reactMode
        << "\n";
    for (const std::string &id : run.runIds)
        out << "runId " << id << "\n";
    out << "answer " << optionalText(run.finalAnswer) << " in " << optionalText(run.totalInputTokens) << " out "
        << optionalText(run.totalOutputTokens) << " ms " << optionalText(run.durationMs) << "\n";
    for (const auto &[type, n] : run.unknownEventTypes)
        out << "unknown " << type << " " << n << "\n";
    for (const recording::CallRecord &c : run.calls) {
        out << "call " << c.ordinal << " epoch " << c.epoch << (c.epochByPosition ? " by position" : "")
            << (c.duplicateEpoch ? " duplicate" : "") << " stage " << c.callRuntimeStageId << " run " << c.runId
            << " turn " << c.turn << " log " << c.logName << " start " << optionalText(c.llmStartEvent) << " end "
            << optionalText(c.llmEndEvent) << " turnStart " << optionalText(c.turnStartEvent) << " history "
            << optionalText(c.historyEvent) << " route " << optionalText(c.routeEvent) << " iterationEnd "
            << optionalText(c.iterationEndEvent) << " injected";
        for (std::size_t i : c.injectedEvents)
            out << " " << i;
        out << " tools";
        for (std::size_t i : c.toolEvents)
            out << " " << i;
        out << "\n";
    }
    for (const recording::Turn &t : run.turns) {
        out << "turn " << t.number << " run " << t.runId << " prompt " << optionalText(t.userPrompt) << " answer "
            << optionalText(t.finalAnswer) << " ended " << t.ended << " calls";
        for (std::size_t c : t.calls)
            out << " " << c;
        out << "\n";
    }
    out << "outcome " << recording::outcomeStatusId(run.outcome.status) << " " << optionalText(run.outcome.message)
        << " call " << optionalText(run.outcome.call) << " event " << optionalText(run.outcome.event) << "\n";
    for (const recording::RunLimit &l : run.limits)
        out << "limit " << l.kind << " " << l.message << " call " << optionalText(l.call) << " event " << l.event
            << "\n";
    for (const auto *map : {&run.toolEndByCallId, &run.toolStartByCallId}) {
        std::map<std::string_view, std::size_t> sorted(map->begin(), map->end());
        for (const auto &[id, event] : sorted)
            out << (map == &run.toolEndByCallId ? "toolEnd " : "toolStart ") << id << " " << event << "\n";
    }
    for (const recording::Gap &g : run.gaps)
        out << "gap " << g.name << "\n";
    for (const std::string &w : run.warnings)
        out << "warning " << w << "\n";
    return out.str();
}

} // namespace

class TestLogFollower : public QObject
{
    Q_OBJECT

private slots:
    void appendedInPieces_data();
    void appendedInPieces();
    void snapshotsMatchOneReading_data();
    void snapshotsMatchOneReading();
    void tornLineWaitsForItsNewline();
    void readsOnlyWhatWasAppended();
    void rotationByRename();
    void truncationInPlace();
    void rewrittenInPlaceBetweenPolls();
    void badLineStopsWithItsPosition();
    void callsAwaitResponseUntilTheRunEnds();
    void recordingWrittenWhole();
    void liveRunIsNotCutShort();
    void missingFileIsSaid();
    void indexGrowsAsWhenOpened();
    void pollsArePacedByTheirRebuild();
};

void TestLogFollower::appendedInPieces_data()
{
    QTest::addColumn<QString>("source"); // empty: the real sink-written log
    QTest::addColumn<int>("step");
    QTest::newRow("real sink log, 700-byte pieces") << QString() << 700;
    QTest::newRow("real sink log, 1-line-ish pieces") << QString() << 97;
    QTest::newRow("conversation (4 turns), 4 KB pieces") << sample("dev-2-conversation.json") << 4096;
    QTest::newRow("tool errors, 2 KB pieces") << sample("dev-3-tool-errors.json") << 2048;
    QTest::newRow("crash, 3 KB pieces") << sample("dev-4-crash.json") << 3000;
    QTest::newRow("paused, 5 KB pieces") << sample("dev-7-paused-or-limited.json") << 5000;
}

void TestLogFollower::appendedInPieces()
{
    QFETCH(QString, source);
    QFETCH(int, step);
    const std::string log = source.isEmpty() ? testsupport::readFile(kRealLog) : eventsAsLog(source);
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/run.ndjson").toStdString();
    writeWhole(path, "");
    LogFollower follower(path);
    std::size_t written = 0;
    std::size_t lastCalls = 0;
    int snapshots = 0;
    for (std::string_view piece : piecesOf(log, std::size_t(step))) {
        append(path, piece);
        written += piece.size();
        const LogFollower::Update u = follower.poll();
        QVERIFY2(u.error.empty(), u.error.c_str());
        if (!u.run)
            continue;
        ++snapshots;
        QVERIFY(follower.isEventLog());
        QVERIFY(u.run->live);
        // Only complete lines count: the calls are those whose llm_end is on a complete line (or, held back, not).
        const std::string_view complete = std::string_view(log)
                                              .substr(0, written)
                                              .substr(0, std::string_view(log).substr(0, written).rfind('\n') + 1);
        QCOMPARE(u.run->calls.size() + u.run->callsAwaitingResponse >= llmEndsIn(complete), true);
        QVERIFY(u.calls.size() >= lastCalls);
        QCOMPARE(u.calls.size(), u.run->calls.size());
        QVERIFY(u.unchangedCalls <= lastCalls);
        lastCalls = u.calls.size();
    }
    QVERIFY(snapshots > 1);
    const LogFollower::Update last = follower.poll(true);
    QVERIFY(last.run);
    QVERIFY(!last.run->live);
    QCOMPARE(last.run->callsAwaitingResponse, std::size_t(0));
    // Read in pieces or at once, the run is the same.
    QCOMPARE(inspectedCalls(last), inspectedCalls(log));
    const auto whole = testsupport::load(log, "whole.ndjson");
    QCOMPARE(report::outcomeText(last.run->outcome), report::outcomeText(whole->outcome));
    QCOMPARE(last.run->turns.size(), whole->turns.size());
    QCOMPARE(follower.bytesRead(), std::uint64_t(log.size()));
}

void TestLogFollower::snapshotsMatchOneReading_data()
{
    QTest::addColumn<QString>("source"); // empty: a generated run
    QTest::addColumn<int>("linesPerPoll");
    QTest::addColumn<bool>("reordered");
    QTest::newRow("real sink log") << kRealLog << 1 << false;
    QTest::newRow("real sink log, reordered") << kRealLog << 1 << true;
    QTest::newRow("conversation (4 turns)") << sample("dev-2-conversation.json") << 1 << false;
    QTest::newRow("tool errors") << sample("dev-3-tool-errors.json") << 1 << false;
    QTest::newRow("crash") << sample("dev-4-crash.json") << 1 << false;
    QTest::newRow("paused") << sample("dev-7-paused-or-limited.json") << 1 << false;
    QTest::newRow("resumed (two runs)") << sample("dev-7b-resumed.json") << 1 << false;
    QTest::newRow("max iterations") << sample("dev-8-max-iterations.json") << 1 << false;
    QTest::newRow("generated, 3 turns") << QString() << 3 << false;
}

void TestLogFollower::snapshotsMatchOneReading()
{
    // The index of a followed log (detail::EventRunIndex) reads each event once, as it arrives, and publishes each
    // snapshot from what it read: after every poll the snapshot must say what reading the same lines at once says,
    // and the last one what loading the whole file says.
    QFETCH(QString, source);
    QFETCH(int, linesPerPoll);
    QFETCH(bool, reordered);
    std::string log = source.isEmpty()             ? testsupport::generatedEventLog(45, 3, 15)
                      : source.endsWith(".ndjson") ? testsupport::readFile(source)
                                                   : eventsAsLog(source);
    if (reordered) {
        // The cases a log in event order does not reach: a call before any turn_start (it gets the first one to come,
        // and the turns read so far are read again), and a response after the next call's llm_start (outside its
        // window: the call gets it from its stage, and its brackets with it).
        std::vector<std::string> lines;
        for (std::size_t at = 0; at < log.size();) {
            const std::size_t next = log.find('\n', at) + 1;
            lines.push_back(log.substr(at, next - at));
            at = next;
        }
        const auto nth = [&](const char *type, int n) {
            for (std::size_t i = 0; i < lines.size(); ++i)
                if (lines[i].find(type) != std::string::npos && --n == 0)
                    return i;
            return lines.size();
        };
        const auto moveAfter = [&](std::size_t from, std::size_t to) {
            const std::string line = lines[from];
            lines.insert(lines.begin() + std::ptrdiff_t(to + 1), line);
            lines.erase(lines.begin() + std::ptrdiff_t(from));
        };
        moveAfter(nth("\"agentfootprint.agent.turn_start\"", 1), nth("\"agentfootprint.stream.llm_start\"", 1));
        moveAfter(nth("\"agentfootprint.stream.llm_end\"", 2), nth("\"agentfootprint.stream.llm_start\"", 3));
        log.clear();
        for (const std::string &line : lines)
            log += line;
    }
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/run.ndjson").toStdString();
    const std::string prefixPath = (dir.path() + "/prefix.ndjson").toStdString();
    writeWhole(path, "");
    LogFollower follower(path);
    std::size_t at = 0;
    int compared = 0;
    while (at < log.size()) {
        for (int k = 0; k < linesPerPoll && at < log.size(); ++k)
            at = log.find('\n', at) + 1;
        writeWhole(path, std::string_view(log).substr(0, at)); // the same file, grown
        const LogFollower::Update u = follower.poll();
        QVERIFY2(u.error.empty(), u.error.c_str());
        if (!u.run)
            continue;
        writeWhole(prefixPath, std::string_view(log).substr(0, at));
        LogFollower once(prefixPath);
        const LogFollower::Update v = once.poll();
        QVERIFY(v.run);
        QCOMPARE(indexAsText(*u.run), indexAsText(*v.run));
        ++compared;
    }
    QVERIFY(compared > 10);
    const LogFollower::Update last = follower.poll(true);
    QVERIFY(last.run);
    QCOMPARE(indexAsText(*last.run), indexAsText(*testsupport::load(log, "whole.ndjson")));
}

void TestLogFollower::tornLineWaitsForItsNewline()
{
    const std::string log = testsupport::readFile(kRealLog);
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/run.ndjson").toStdString();
    // Everything up to the first llm_end line, and half of that line.
    const std::size_t llmEnd = log.find("\"agentfootprint.stream.llm_end\"");
    const std::size_t lineStart = log.rfind('\n', llmEnd) + 1;
    const std::size_t lineEnd = log.find('\n', llmEnd) + 1;
    writeWhole(path, std::string_view(log).substr(0, lineStart + (lineEnd - lineStart) / 2));
    LogFollower follower(path);
    LogFollower::Update u = follower.poll();
    QVERIFY2(u.error.empty(), u.error.c_str());
    QVERIFY(u.run);
    QCOMPARE(u.run->calls.size(), std::size_t(0)); // the response is on a line not yet complete
    QCOMPARE(u.run->callsAwaitingResponse, std::size_t(1));
    QCOMPARE(follower.bytesRead(), std::uint64_t(lineStart));
    u = follower.poll();
    QVERIFY(!u.run); // nothing new
    append(path, std::string_view(log).substr(lineStart + (lineEnd - lineStart) / 2,
                                              lineEnd - lineStart - (lineEnd - lineStart) / 2));
    u = follower.poll();
    QVERIFY(u.run);
    QCOMPARE(u.run->calls.size(), std::size_t(1));
    QVERIFY(u.calls[0].response.has_value());
    QCOMPARE(follower.bytesRead(), std::uint64_t(lineEnd));
}

void TestLogFollower::readsOnlyWhatWasAppended()
{
    // A long log: the real one's lines repeated as a conversation of many runs would be.
    const std::string one = testsupport::readFile(kRealLog);
    std::string log;
    while (log.size() < (4u << 20))
        log += one;
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/run.ndjson").toStdString();
    writeWhole(path, log);
    LogFollower follower(path);
    QVERIFY(follower.poll().run);
    QCOMPARE(follower.bytesRead(), std::uint64_t(log.size()));
    // Each poll reads exactly the bytes appended since the one before, not the file again, and its snapshot holds the
    // events read before (every full chunk of them) with the snapshot before it rather than a copy of them.
    const std::size_t firstLine = one.find('\n') + 1;
    std::shared_ptr<const recording::Run> previous;
    for (int i = 0; i < 5; ++i) {
        const std::uint64_t before = follower.bytesRead();
        append(path, std::string_view(one).substr(0, firstLine));
        const LogFollower::Update u = follower.poll();
        QVERIFY(u.run);
        QCOMPARE(follower.bytesRead() - before, std::uint64_t(firstLine));
        QVERIFY(u.unchangedCalls + 1 >= u.calls.size()); // the summaries of the calls before were kept
        if (previous) {
            const std::size_t fullChunks = previous->events.size() / recording::EventList::kChunkEvents;
            QVERIFY(fullChunks > 0);
            QCOMPARE(u.run->events.chunksSharedWith(previous->events), fullChunks);
            QCOMPARE(u.run->events.size(), previous->events.size() + 1);
        }
        previous = u.run;
    }
}

void TestLogFollower::pollsArePacedByTheirRebuild()
{
    // The floor while a rebuild is cheap, four times the rebuild once it is dear.
    static_assert(LogFollower::nextPollDelayMs(200, 0) == 200);
    QCOMPARE(LogFollower::nextPollDelayMs(200, 49.9), 200);
    QCOMPARE(LogFollower::nextPollDelayMs(200, 100), 400);
    QCOMPARE(LogFollower::nextPollDelayMs(100, 1000), 4000);
    // A poll that publishes says what its rebuild cost; one that found nothing new rebuilt nothing.
    const std::string log = testsupport::generatedEventLog(60, 3, 20);
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/run.ndjson").toStdString();
    writeWhole(path, log);
    LogFollower follower(path);
    const LogFollower::Update first = follower.poll();
    QVERIFY(first.run);
    QVERIFY(first.rebuildMs > 0);
    const LogFollower::Update nothing = follower.poll();
    QVERIFY(!nothing.run);
    QCOMPARE(nothing.rebuildMs, 0.0);
}

void TestLogFollower::rotationByRename()
{
    const std::string log = eventsAsLog(sample("dev-2-conversation.json"));
    const std::size_t half = log.rfind('\n', log.size() / 2) + 1;
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/run.ndjson").toStdString();
    writeWhole(path, std::string_view(log).substr(0, half - 40)); // the old file's last line still being written
    LogFollower follower(path);
    QVERIFY(follower.poll().run);
    append(path, std::string_view(log).substr(half - 40, 40)); // completed before the rotation
    // The sink's maxBytes: the file is renamed to <path>.1 and a fresh one starts.
    QCOMPARE(std::rename(path.c_str(), (path + ".1").c_str()), 0);
    writeWhole(path, std::string_view(log).substr(half));
    LogFollower::Update u = follower.poll();
    QVERIFY2(u.error.empty(), u.error.c_str());
    QVERIFY(anyContains(u.notices, "was rotated"));
    QVERIFY(u.run);
    u = follower.poll(true);
    QVERIFY(u.run);
    QCOMPARE(inspectedCalls(u), inspectedCalls(log));
    QCOMPARE(follower.bytesRead(), std::uint64_t(log.size()));
    QCOMPARE(testsupport::readFile(QString::fromStdString(path + ".1")), log.substr(0, half)); // never written to
}

void TestLogFollower::truncationInPlace()
{
    const std::string log = eventsAsLog(sample("dev-3-tool-errors.json"));
    const std::size_t half = log.rfind('\n', log.size() / 2) + 1;
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/run.ndjson").toStdString();
    writeWhole(path, std::string_view(log).substr(0, half));
    LogFollower follower(path);
    const LogFollower::Update first = follower.poll();
    QVERIFY(first.run);
    struct stat before
    {
    };
    ::stat(path.c_str(), &before);
    // logrotate's copytruncate: the same file, cut to nothing, then written on.
    QCOMPARE(::truncate(path.c_str(), 0), 0);
    append(path, std::string_view(log).substr(half, 100)); // shorter than what was read
    LogFollower::Update u = follower.poll();
    QVERIFY(anyContains(u.notices, "truncated"));
    append(path, std::string_view(log).substr(half + 100));
    u = follower.poll(true);
    QVERIFY(u.run);
    QCOMPARE(inspectedCalls(u), inspectedCalls(log));
    struct stat after
    {
    };
    ::stat(path.c_str(), &after);
    QCOMPARE(after.st_ino, before.st_ino);
}

void TestLogFollower::rewrittenInPlaceBetweenPolls()
{
    // `> run.ndjson` by a re-run: between two polls the file is cut and written again past the size already read.
    const std::string first = testsupport::readFile(kRealLog);
    const std::string second = eventsAsLog(sample("dev-3-tool-errors.json"));
    QVERIFY(second.size() > first.size());
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/run.ndjson").toStdString();
    writeWhole(path, first);
    LogFollower follower(path);
    QVERIFY(follower.poll().run);
    {
        std::ofstream out(path, std::ios::binary | std::ios::in | std::ios::out);
        out.write(second.data(), std::streamsize(second.size()));
    }
    LogFollower::Update u = follower.poll(true);
    QVERIFY(anyContains(u.notices, "rewritten in place"));
    QVERIFY(u.run);
    // What was read is kept, and the new run follows it.
    QCOMPARE(u.run->runIds.size(), std::size_t(2));
    QCOMPARE(u.calls.size(), inspectedCalls(first).size() + inspectedCalls(second).size());
}

void TestLogFollower::badLineStopsWithItsPosition()
{
    const std::string log = testsupport::readFile(kRealLog);
    const std::size_t third = log.find('\n', log.find('\n') + 1) + 1;
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/run.ndjson").toStdString();
    writeWhole(path, std::string_view(log).substr(0, third));
    LogFollower follower(path);
    QVERIFY(follower.poll().run);
    append(path, "{\"type\":\"agentfootprint.agent.turn_start\",\"payload\":[1]}\n");
    const LogFollower::Update u = follower.poll();
    QCOMPARE(QString::fromStdString(u.error),
             QString::fromStdString(path + ":3:53: expected one JSON event object (\"payload\" is a JSON array, not an "
                                           "object); following stopped"));
    // The same words the loader uses for the same file.
    QCOMPARE(recording::loadRecording(path).error + "; following stopped", u.error);
    QVERIFY(follower.stopped());
    QVERIFY(u.run); // what was read before it is kept
    QCOMPARE(u.run->events.size(), std::size_t(2));
    QVERIFY(!follower.poll().run);
}

void TestLogFollower::callsAwaitResponseUntilTheRunEnds()
{
    // dev-4: the run crashes after call 3's llm_start; the crash ends the run, so call 3 is shown without a response.
    const std::string log = eventsAsLog(sample("dev-4-crash.json"));
    const std::size_t lastStart = log.rfind("\"agentfootprint.stream.llm_start\"");
    const std::size_t cut = log.find('\n', lastStart) + 1;
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/run.ndjson").toStdString();
    writeWhole(path, std::string_view(log).substr(0, cut));
    LogFollower follower(path);
    LogFollower::Update u = follower.poll();
    QVERIFY(u.run);
    QCOMPARE(u.run->calls.size(), std::size_t(2));
    QCOMPARE(u.run->callsAwaitingResponse, std::size_t(1));
    QCOMPARE(u.run->outcome.status, recording::OutcomeStatus::Incomplete);
    append(path, std::string_view(log).substr(cut));
    u = follower.poll();
    QVERIFY(u.run);
    QCOMPARE(u.run->calls.size(), std::size_t(3));
    QCOMPARE(u.run->callsAwaitingResponse, std::size_t(0));
    QCOMPARE(u.run->outcome.status, recording::OutcomeStatus::Failed);
    QVERIFY(!u.calls[2].response);
}

void TestLogFollower::liveRunIsNotCutShort()
{
    // Cut right after call 2's tool started: while followed, the run is going on (no run-incomplete, the tool is
    // running, not lost); once following stops there, the audit says what the file holds.
    const std::string log = testsupport::readFile(kRealLog);
    const std::size_t secondEnd =
        log.find("\"agentfootprint.stream.llm_end\"", log.find("\"agentfootprint.stream.llm_end\"") + 1);
    const std::size_t toolStart = log.find("\"agentfootprint.stream.tool_start\"", secondEnd);
    const std::size_t cut = log.find('\n', toolStart) + 1;
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/run.ndjson").toStdString();
    writeWhole(path, std::string_view(log).substr(0, cut));
    LogFollower follower(path);
    const auto rules = [](const LogFollower::Update &u) {
        std::vector<audit::AuditRule> out;
        for (const audit::Problem &p : audit::auditRun(*u.run, u.calls))
            out.push_back(p.rule);
        return out;
    };
    const auto has = [](const std::vector<audit::AuditRule> &rules, audit::AuditRule r) {
        return std::find(rules.begin(), rules.end(), r) != rules.end();
    };
    LogFollower::Update u = follower.poll();
    QVERIFY(u.run && u.run->live);
    QCOMPARE(u.calls.size(), std::size_t(2));
    QVERIFY(!has(rules(u), audit::AuditRule::RunIncomplete));
    QVERIFY(!has(rules(u), audit::AuditRule::ToolNeverReturned));
    u = follower.poll(true);
    QVERIFY(u.run && !u.run->live);
    QVERIFY(has(rules(u), audit::AuditRule::RunIncomplete));
    QVERIFY(has(rules(u), audit::AuditRule::ToolNeverReturned));
}

void TestLogFollower::recordingWrittenWhole()
{
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/run.json").toStdString();
    const std::string a = testsupport::readFile(sample("dev-2-conversation.json"));
    const std::string b = testsupport::readFile(sample("dev-3-tool-errors.json"));
    writeWhole(path, std::string_view(a).substr(0, a.size() / 2)); // a writer that is not atomic, half way
    LogFollower follower(path);
    LogFollower::Update u = follower.poll();
    QVERIFY(!u.run);
    writeWhole(path, a);
    u = follower.poll();
    QVERIFY2(u.run, u.error.c_str());
    QVERIFY(!follower.isEventLog());
    QCOMPARE(u.calls.size(), std::size_t(7));
    QVERIFY(!follower.poll().run); // the same version: nothing to do
    // The sink rewrites atomically: a new file renamed over the old.
    writeWhole(path + ".tmp", b);
    QCOMPARE(std::rename((path + ".tmp").c_str(), path.c_str()), 0);
    u = follower.poll();
    QVERIFY(u.run);
    QVERIFY(anyContains(u.notices, "was rewritten"));
    QCOMPARE(u.calls.size(), std::size_t(4));
}

void TestLogFollower::missingFileIsSaid()
{
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/nothing-here.ndjson").toStdString();
    LogFollower follower(path);
    const LogFollower::Update u = follower.poll();
    QVERIFY(!u.run);
    QVERIFY(QString::fromStdString(u.error).startsWith(QString::fromStdString(path)));
    QVERIFY(follower.poll().error.empty()); // said once
}

void TestLogFollower::indexGrowsAsWhenOpened()
{
    // A poll that brings many calls indexes them as a file being opened is (recording::indexCalls): on every core, in
    // chunks that settle from the first call on, each snapshot a longer prefix of the one store whose settled summaries
    // are final. The calls of the last update are kept; a poll abandoned halfway publishes nothing, and the next one
    // publishes all of it.
    const std::string log = testsupport::generatedEventLog(240, 5, 40);
    const std::size_t half = log.find('\n', log.size() / 2) + 1;
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/run.ndjson").toStdString();
    writeWhole(path, std::string_view(log).substr(0, half));

    struct Seen
    {
        std::size_t settled;
        std::string lastSettled; // the inspect object of the last settled call, when it was reported
    };
    const auto watch = [](std::vector<Seen> &seen) {
        return [&seen](double done, const recording::CallIndex &index) {
            if (done < 0 || done > 1 || index.settled > index.summaries->size() ||
                index.summaries->size() != index.run->calls.size())
                qFatal("a snapshot out of bounds");
            seen.push_back({index.settled, index.settled ? json::stringify(report::inspectCallJson(
                                                               (*index.summaries)[index.settled - 1]))
                                                         : std::string()});
            return true;
        };
    };
    // Snapshots only grow, and what they called settled is what the whole index says.
    const auto checkSeen = [](const std::vector<Seen> &seen, const LogFollower::Update &u, std::size_t from) {
        QVERIFY(seen.size() > 2);
        std::size_t last = from;
        for (const Seen &s : seen) {
            QVERIFY(s.settled >= last);
            last = s.settled;
            if (s.settled > 0)
                QCOMPARE(s.lastSettled, json::stringify(report::inspectCallJson(u.calls[s.settled - 1])));
        }
        QVERIFY(seen.front().settled < u.calls.size()); // seen before the end
        QCOMPARE(seen.back().settled, u.calls.size());
    };

    LogFollower follower(path);
    std::vector<Seen> first;
    const LogFollower::Update u1 = follower.poll(false, watch(first));
    QVERIFY2(u1.error.empty(), u1.error.c_str());
    QVERIFY(u1.run && u1.calls.size() > 64);
    QCOMPARE(u1.unchangedCalls, std::size_t(0));
    checkSeen(first, u1, 0);

    // The rest appended: the first calls are kept, the index goes on from them.
    append(path, std::string_view(log).substr(half));
    std::vector<Seen> abandoned;
    const LogFollower::Update cut = follower.poll(false, [&](double, const recording::CallIndex &index) {
        abandoned.push_back({index.settled, {}});
        return abandoned.size() < 3;
    });
    QVERIFY(!cut.run);
    QVERIFY(!abandoned.empty());
    QVERIFY(abandoned.front().settled >= u1.calls.size() - 1);
    std::vector<Seen> second;
    const LogFollower::Update u2 = follower.poll(true, watch(second));
    QVERIFY(u2.run);
    QCOMPARE(u2.unchangedCalls, u1.calls.size() - 1);
    QVERIFY(second.front().settled >= u2.unchangedCalls);
    checkSeen(second, u2, u2.unchangedCalls);
    // Read in two polls, one abandoned, or at once: the same calls.
    QCOMPARE(inspectedCalls(u2), inspectedCalls(log));
}

QTEST_GUILESS_MAIN(TestLogFollower)
#include "tst_logfollower.moc"
