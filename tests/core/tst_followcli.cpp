// `tracefold-cli follow FILE [--json] [--idle-exit S]` (issue 17, item 4) as a user runs it beside an agent that is
// writing its log: the real sink-written NDJSON log is appended in chunks that end mid-line, and each call must be
// printed within a second of the line holding its response being written; then the outcome; Ctrl+C exits 0, an
// unreadable file exits 2 with one line.

#include "core/json/parser.h"

#include "tests/clirun.h"
#include "tests/core/recordingfile.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <fstream>

using namespace tf;

namespace {

const QString kRealLog = QStringLiteral(TRACEFOLD_TEST_DATA "/samples/real-9.62/dev-6-events.ndjson");

void append(const QString &path, std::string_view bytes)
{
    std::ofstream out(path.toStdString(), std::ios::binary | std::ios::app);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

// The complete stdout lines printed so far.
QList<QByteArray> linesOf(const QByteArray &out)
{
    QList<QByteArray> lines = out.split('\n');
    lines.removeLast(); // what follows the last newline is not a line yet
    return lines;
}

int callLines(const QList<QByteArray> &lines)
{
    int n = 0;
    for (const QByteArray &l : lines)
        n += l.startsWith("{\"index\":");
    return n;
}

} // namespace

class TestFollowCli : public QObject
{
    Q_OBJECT

private slots:
    void callsAppearWithinASecond();
    void textLinesAndInterrupt();
    void unreadableInput();
};

void TestFollowCli::callsAppearWithinASecond()
{
    const std::string log = testsupport::readFile(kRealLog);
    QTemporaryDir dir;
    const QString path = dir.path() + QStringLiteral("/run.ndjson");
    append(path, "");
    QProcess follow;
    follow.start(QStringLiteral(TRACEFOLD_CLI), {QStringLiteral("follow"), path, QStringLiteral("--json"),
                                                 QStringLiteral("--idle-exit"), QStringLiteral("2")});
    QVERIFY(follow.waitForStarted());
    QByteArray out;
    qint64 worstMs = 0;
    int calls = 0;
    // Cut right after each response's line plus half of the next line (a torn last line), then the rest of it later.
    std::size_t written = 0;
    for (std::size_t at = log.find("\"agentfootprint.stream.llm_end\""); at != std::string::npos;
         at = log.find("\"agentfootprint.stream.llm_end\"", at + 1)) {
        const std::size_t lineEnd = log.find('\n', at) + 1;
        const std::size_t nextEnd = log.find('\n', lineEnd);
        const std::size_t cut = nextEnd == std::string::npos ? lineEnd : lineEnd + (nextEnd - lineEnd) / 2;
        QTest::qWait(300); // the agent thinks between batches
        append(path, std::string_view(log).substr(written, cut - written));
        written = cut;
        ++calls;
        QElapsedTimer since;
        since.start();
        while (callLines(linesOf(out)) < calls && since.elapsed() < 5000) {
            follow.waitForReadyRead(50);
            out += follow.readAllStandardOutput();
        }
        worstMs = std::max(worstMs, since.elapsed());
        QCOMPARE(callLines(linesOf(out)), calls);
        QVERIFY2(since.elapsed() < 1000, qPrintable(QStringLiteral("call %1 took %2 ms").arg(calls).arg(since.elapsed())));
    }
    append(path, std::string_view(log).substr(written));
    QVERIFY(follow.waitForFinished(15000)); // idle for 2 s after the last growth
    out += follow.readAllStandardOutput();
    QCOMPARE(follow.exitCode(), 0);
    qInfo("worst time from a response written to its call printed: %lld ms", worstMs);

    // Each line is one JSON object: the calls of inspect --json, in order, then the outcome.
    const QList<QByteArray> lines = linesOf(out);
    QCOMPARE(lines.size(), calls + 1);
    const testsupport::CliResult inspect = testsupport::cli({QStringLiteral("inspect"), kRealLog, QStringLiteral("--json")});
    QCOMPARE(inspect.exitCode, 0);
    for (int i = 0; i < calls; ++i) {
        json::StringArena arena;
        json::ParseError error;
        const std::string line = lines[i].toStdString();
        const json::Value call = json::parse(line, arena, error);
        QVERIFY2(!error.failed(), error.describe().c_str());
        QCOMPARE(call.findNumber("index")->asNumber(), double(i + 1));
        QVERIFY(call.findObject("response")); // printed once its response was on record
    }
    QCOMPARE(lines.last(), QByteArray("{\"outcome\":{\"status\":\"completed\",\"message\":null,\"call\":null}}"));
    QCOMPARE(testsupport::readFile(path), log); // the follower never writes the log
}

void TestFollowCli::textLinesAndInterrupt()
{
    QTemporaryDir dir;
    const QString path = dir.path() + QStringLiteral("/run.ndjson");
    const std::string log = testsupport::readFile(kRealLog);
    append(path, std::string_view(log).substr(0, log.size() / 2));
    QProcess follow;
    follow.start(QStringLiteral(TRACEFOLD_CLI), {QStringLiteral("follow"), path});
    QVERIFY(follow.waitForStarted());
    QByteArray out;
    QElapsedTimer t;
    t.start();
    while (!out.contains("call 1 ") && t.elapsed() < 5000) {
        follow.waitForReadyRead(50);
        out += follow.readAllStandardOutput();
    }
    QVERIFY(out.startsWith("call 1  turn 1  epoch 1  response tool_use"));
    // Without --idle-exit it runs until interrupted; Ctrl+C ends it with status 0 and the run as it stands.
    ::kill(pid_t(follow.processId()), SIGINT);
    QVERIFY(follow.waitForFinished(5000));
    out += follow.readAllStandardOutput();
    QCOMPARE(follow.exitStatus(), QProcess::NormalExit);
    QCOMPARE(follow.exitCode(), 0);
    QVERIFY(out.contains("\noutcome: "));
}

void TestFollowCli::unreadableInput()
{
    const testsupport::CliResult r =
        testsupport::cli({QStringLiteral("follow"), QStringLiteral("/nonexistent/run.ndjson")});
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(r.err.startsWith("/nonexistent/run.ndjson: "));
    const testsupport::CliResult usage = testsupport::cli({QStringLiteral("follow")});
    QCOMPARE(usage.exitCode, 2);
}

QTEST_GUILESS_MAIN(TestFollowCli)
#include "tst_followcli.moc"
