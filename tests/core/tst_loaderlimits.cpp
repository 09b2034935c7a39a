// Hostile sizes and edge cases of the recording loader (spec/recording.md §1): very large files must load or be
// refused in time linear in their size, never hang; NDJSON details (§1.7); number and receipt shapes a hostile
// file can hold. Times are printed with qDebug, not asserted. A hang is a failure: each large load runs first in a
// forked child that is killed after kHangGuardSeconds (the loads take well under a second when linear, minutes when
// a quadratic scan creeps back in).

#include "core/recording/callview.h"
#include "core/recording/recordingloader.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

using namespace tf;
using recording::Badge;
using recording::LoadResult;

namespace {

QByteArray q(const std::string &s)
{
    return QByteArray::fromStdString(s);
}

LoadResult fromBytes(std::string bytes, const recording::LoadControl &control = {})
{
    return recording::loadRecordingFromBytes(std::move(bytes), "mem.json", control);
}

std::string eventJson(const std::string &type, const std::string &payload = "{}", const std::string &runId = "run-1-1")
{
    return R"({"type":")" + type + R"(","payload":)" + payload + R"(,"meta":{"runId":")" + runId + R"("}})";
}

constexpr int kHangGuardSeconds = 30;

// Runs `work` in a child process; false (with the reason in `why`) when it crashes, fails or is still running after
// kHangGuardSeconds, in which case it is killed. The parent then repeats the work under QVERIFY for the diagnostics.
bool finishesInChild(const std::function<bool()> &work, QByteArray &why)
{
    const pid_t pid = ::fork();
    if (pid < 0) {
        why = "fork failed";
        return false;
    }
    if (pid == 0)
        std::_Exit(work() ? 0 : 3);
    QElapsedTimer timer;
    timer.start();
    int status = 0;
    while (::waitpid(pid, &status, WNOHANG) != pid) {
        if (timer.elapsed() > kHangGuardSeconds * 1000) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            why = "still running after " + QByteArray::number(kHangGuardSeconds) + " s: a hang";
            return false;
        }
        ::usleep(10000);
    }
    if (WIFSIGNALED(status)) {
        why = "crashed with signal " + QByteArray::number(WTERMSIG(status));
        return false;
    }
    if (WEXITSTATUS(status) != 0) {
        why = "failed in the child (exit " + QByteArray::number(WEXITSTATUS(status)) + ")";
        return false;
    }
    return true;
}

#define VERIFY_FINISHES(work)                                                                                          \
    do {                                                                                                               \
        QByteArray why;                                                                                                \
        QVERIFY2(finishesInChild(work, why), why.constData());                                                         \
    } while (false)

bool hasWarning(const recording::Run &run, const std::string &text)
{
    for (const std::string &w : run.warnings)
        if (w.find(text) != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestLoaderLimits : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void fiftyMegabyteString_data();
    void fiftyMegabyteString();
    void millionArrayElements();
    void millionEvents();
    void manyRunIdsAreNotQuadratic_data();
    void manyRunIdsAreNotQuadratic();
    void manyCallsWithoutTurnStartAreNotQuadratic();

    void ndjsonWithByteOrderMark();
    void ndjsonCrLfAndBlankLines();
    void ndjsonTrailingDataPointsAtIt();
    void ndjsonBadLastLineWithNewlineIsAnError();
    void ndjsonRunSelection();
    void envelopeLoads();
    void bareSnapshotOpensAsRecording();
    void loneSurrogateEscapesLoad();
    void hostileNumbersFallBack();
    void receiptShapeRejectedDamagesEveryRow();
    void cancelledLoad();

private:
    QTemporaryDir m_tmp;
    std::string writeFile(const char *name, const std::string &bytes);
};

void TestLoaderLimits::initTestCase()
{
    QVERIFY(m_tmp.isValid());
}

std::string TestLoaderLimits::writeFile(const char *name, const std::string &bytes)
{
    const std::string path = m_tmp.filePath(QString::fromUtf8(name)).toStdString();
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    return path;
}

void TestLoaderLimits::fiftyMegabyteString_data()
{
    QTest::addColumn<bool>("escaped");
    QTest::newRow("plain (a view into the file)") << false;
    QTest::newRow("with escapes and non-ASCII (decoded)") << true;
}

void TestLoaderLimits::fiftyMegabyteString()
{
    QFETCH(bool, escaped);
    constexpr std::size_t kSize = 50u << 20;
    std::string content;
    content.reserve(kSize);
    const std::string unit = escaped ? std::string("abc\\n\xC3\xA9\xE2\x80\x94xyz ") : std::string("abcdefghij");
    while (content.size() < kSize)
        content += unit;
    const std::string path = writeFile(escaped ? "long-escaped.json" : "long.json",
                                       R"({"events":[{"type":"agentfootprint.stream.llm_end","payload":{"content":")" +
                                           content + R"("}}]})");
    VERIFY_FINISHES([&] {
        const LoadResult r = recording::loadRecording(path);
        return r.run && recording::summarizeCalls(*r.run).empty();
    });
    QElapsedTimer timer;
    timer.start();
    const LoadResult r = recording::loadRecording(path);
    qDebug("50 MB string (%s): loaded in %lld ms", escaped ? "escaped" : "plain", timer.elapsed());
    QVERIFY2(r.run, r.error.c_str());
    QCOMPARE(r.run->events.size(), std::size_t(1));
    const json::Value payload = r.run->payload(r.run->events[0]);
    const json::Value *text = payload.findString("content");
    QVERIFY(text);
    // An escaped unit loses one byte when its `\n` is decoded.
    const std::size_t expected = escaped ? content.size() / unit.size() * (unit.size() - 1) : content.size();
    QCOMPARE(text->asString().size(), expected);
    QCOMPARE(text->asString().substr(0, 3), std::string_view("abc"));
    timer.restart();
    const auto calls = recording::summarizeCalls(*r.run);
    qDebug("  summarized in %lld ms", timer.elapsed());
    QVERIFY(calls.empty()); // an llm_end without llm_start is no call
}

void TestLoaderLimits::millionArrayElements()
{
    std::string body = R"({"events":[],"data":[)";
    for (int i = 0; i < 1000000; ++i)
        body += i ? ",7" : "7";
    body += "]}";
    const std::string path = writeFile("million-elements.json", body);
    VERIFY_FINISHES([&] { return recording::loadRecording(path).run != nullptr; });
    QElapsedTimer timer;
    timer.start();
    const LoadResult r = recording::loadRecording(path);
    qDebug("1,000,000 array elements: loaded in %lld ms", timer.elapsed());
    QVERIFY2(r.run, r.error.c_str());
    QVERIFY(r.run->events.empty());
    // Every element is read (and checked), not skipped over: a bad last one is refused where it is.
    body.replace(body.size() - 3, 1, "x");
    const LoadResult bad = recording::loadRecording(writeFile("million-elements-bad.json", body));
    QVERIFY(!bad.run);
    QVERIFY2(bad.error.find("invalid JSON at byte " + std::to_string(body.size() - 3)) != std::string::npos,
             bad.error.c_str());
}

void TestLoaderLimits::millionEvents()
{
    std::string body = R"({"events":[)";
    for (int i = 0; i < 1000000; ++i)
        body += i ? R"(,{"type":"x"})" : R"({"type":"x"})";
    body += "]}";
    const std::string path = writeFile("million-events.json", body);
    VERIFY_FINISHES([&] { return recording::loadRecording(path).run != nullptr; });
    QElapsedTimer timer;
    timer.start();
    const LoadResult r = recording::loadRecording(path);
    qDebug("1,000,000 small events: loaded in %lld ms", timer.elapsed());
    QVERIFY2(r.run, r.error.c_str());
    QCOMPARE(r.run->events.size(), std::size_t(1000000));
    QCOMPARE(r.run->unknownEventTypes.at("x"), std::size_t(1000000));
    QVERIFY(r.run->calls.empty());
}

void TestLoaderLimits::manyRunIdsAreNotQuadratic_data()
{
    QTest::addColumn<bool>("ndjson");
    QTest::newRow("recording") << false;
    QTest::newRow("ndjson") << true;
}

void TestLoaderLimits::manyRunIdsAreNotQuadratic()
{
    // One run id per event: a linear scan of the ids seen so far made this n^2 (minutes at 200 000 events).
    QFETCH(bool, ndjson);
    constexpr int kEvents = 200000;
    std::string body = ndjson ? "" : R"({"events":[)";
    for (int i = 0; i < kEvents; ++i) {
        const std::string e = eventJson("agentfootprint.agent.turn_start", "{}", "run-" + std::to_string(i) + "-1");
        body += ndjson ? e + "\n" : (i ? "," : "") + e;
    }
    if (!ndjson)
        body += "]}";
    VERIFY_FINISHES([&] { return fromBytes(body).run != nullptr; });
    QElapsedTimer timer;
    timer.start();
    const LoadResult r = fromBytes(std::move(body));
    qDebug("%d events with distinct run ids (%s): loaded in %lld ms", kEvents, ndjson ? "ndjson" : "recording",
           timer.elapsed());
    QVERIFY2(r.run, r.error.c_str());
    // spec/runs.md §1: every run is shown, each turn_start a turn; nothing is dropped or warned about.
    QCOMPARE(r.run->events.size(), std::size_t(kEvents));
    QCOMPARE(r.run->runIds.size(), std::size_t(kEvents));
    QCOMPARE(r.run->turns.size(), std::size_t(kEvents));
    QCOMPARE(q(r.run->runId), QByteArray("run-0-1"));
    QCOMPARE(q(r.run->turns.back().runId), QByteArray("run-199999-1"));
    QVERIFY(!hasWarning(*r.run, "run"));
}

void TestLoaderLimits::manyCallsWithoutTurnStartAreNotQuadratic()
{
    // 50 000 llm_start events announcing one message, and no turn_start: looking for the prompt through every
    // event for every call made this calls x events (about a minute here; linear, a fraction of a second).
    constexpr int kCalls = 50000;
    std::string body = R"({"events":[)";
    for (int i = 0; i < kCalls; ++i)
        body += (i ? "," : "") + eventJson("agentfootprint.stream.llm_start",
                                           R"({"iteration":)" + std::to_string(i + 1) + R"(,"messagesCount":1})");
    body += "]}";
    VERIFY_FINISHES([&] {
        const LoadResult r = fromBytes(body);
        return r.run && recording::summarizeCalls(*r.run).size() == std::size_t(kCalls);
    });
    QElapsedTimer timer;
    timer.start();
    const LoadResult r = fromBytes(std::move(body));
    QVERIFY2(r.run, r.error.c_str());
    QCOMPARE(r.run->calls.size(), std::size_t(kCalls));
    const auto calls = recording::summarizeCalls(*r.run);
    qDebug("%d calls without turn_start: loaded and summarized in %lld ms", kCalls, timer.elapsed());
    QCOMPARE(calls.size(), std::size_t(kCalls));
    QCOMPARE(calls.back().epoch, kCalls);
    QVERIFY(!calls.back().messageCount); // not on record, never "0 messages"
    bool gap = false;
    for (const auto &g : calls.back().gaps())
        gap = gap || g.name == "no-conversation-on-record";
    QVERIFY(gap);
}

void TestLoaderLimits::ndjsonWithByteOrderMark()
{
    const LoadResult r = fromBytes("\xEF\xBB\xBF" + eventJson("agentfootprint.agent.turn_start") + "\n" +
                                   eventJson("agentfootprint.agent.turn_end") + "\n");
    QVERIFY2(r.run, r.error.c_str());
    QCOMPARE(r.run->shape, recording::RecordingShape::NdjsonEvents);
    QCOMPARE(r.run->events.size(), std::size_t(2));
    QCOMPARE(r.run->events[0].type, std::string_view("agentfootprint.agent.turn_start"));
    QCOMPARE(r.run->warnings.size(), std::size_t(1));
    QCOMPARE(q(r.run->warnings[0]), QByteArray("no LLM call found in this recording"));
}

void TestLoaderLimits::ndjsonCrLfAndBlankLines()
{
    const LoadResult r = fromBytes("\r\n" + eventJson("agentfootprint.agent.turn_start") + "\r\n\r\n   \r\n" +
                                   eventJson("agentfootprint.agent.turn_end") + "\r\n");
    QVERIFY2(r.run, r.error.c_str());
    QCOMPARE(r.run->shape, recording::RecordingShape::NdjsonEvents);
    QCOMPARE(r.run->events.size(), std::size_t(2));
    QCOMPARE(r.run->events[1].type, std::string_view("agentfootprint.agent.turn_end"));
}

void TestLoaderLimits::ndjsonTrailingDataPointsAtIt()
{
    const std::string first = eventJson("agentfootprint.agent.turn_start");
    const LoadResult r = fromBytes(first + "\n" + first + " xyz\n");
    QVERIFY(!r.run);
    QCOMPARE(q(r.error), q("mem.json:2:" + std::to_string(first.size() + 2) +
                           ": expected one JSON event object (unexpected data after the value)"));
}

void TestLoaderLimits::ndjsonBadLastLineWithNewlineIsAnError()
{
    // Only a last line without its newline is a torn append; a terminated bad line is an error.
    const std::string first = eventJson("agentfootprint.agent.turn_start");
    const LoadResult r = fromBytes(first + "\n" + R"({"type":"agentfootprint.agent.tu)" + "\n");
    QVERIFY(!r.run);
    QVERIFY2(r.error.rfind("mem.json:2:9: expected one JSON event object", 0) == 0, r.error.c_str());

    const LoadResult torn = fromBytes(first + "\n" + R"({"type":"agentfootprint.agent.tu)");
    QVERIFY2(torn.run, torn.error.c_str());
    QCOMPARE(torn.run->events.size(), std::size_t(1));
    QVERIFY(hasWarning(*torn.run, "line 2: last line is incomplete and was ignored"));
}

void TestLoaderLimits::ndjsonRunSelection()
{
    const std::string log = eventJson("agentfootprint.agent.turn_start", "{}", "run-1-1") + "\n" +
                            eventJson("agentfootprint.agent.turn_start", "{}", "run-2-1") + "\n" +
                            eventJson("agentfootprint.agent.turn_end", "{}", "run-2-1") + "\n";
    // Without a choice every run is kept, each its own turn (spec/runs.md §1).
    const LoadResult all = fromBytes(log);
    QVERIFY2(all.run, all.error.c_str());
    QCOMPARE(q(all.run->runId), QByteArray("run-1-1"));
    QCOMPARE(all.run->events.size(), std::size_t(3));
    QCOMPARE(all.run->turns.size(), std::size_t(2));
    QVERIFY(!all.run->turns[0].ended);
    QVERIFY(all.run->turns[1].ended);
    QCOMPARE(all.run->outcome.status, recording::OutcomeStatus::Completed);

    recording::LoadControl pick;
    pick.runId = "run-2-1";
    const LoadResult second = fromBytes(log, pick);
    QVERIFY2(second.run, second.error.c_str());
    QCOMPARE(q(second.run->runId), QByteArray("run-2-1"));
    QCOMPARE(second.run->events.size(), std::size_t(2));
    QCOMPARE(second.run->events[1].index, std::size_t(1));

    recording::LoadControl missing;
    missing.runId = "run-9-9";
    const LoadResult none = fromBytes(log, missing);
    QVERIFY(!none.run);
    QCOMPARE(q(none.error), QByteArray("mem.json: no run run-9-9 in this log; runs found: 2"));
}

void TestLoaderLimits::envelopeLoads()
{
    const LoadResult r =
        fromBytes(R"({"format":"agentfootprint.recording.v1","producer":{"agentfootprintVersion":"unknown"},)"
                  R"("run":{"runId":"run-7-1","complete":true,"droppedEvents":0},)"
                  R"("configuration":{"manifest":{"reactMode":"dynamic","llm":{"provider":"p","model":"m"}}},)"
                  R"("recording":{"events":[)" +
                  eventJson("agentfootprint.agent.turn_start", "{}", "run-7-1") + "]}}");
    QVERIFY2(r.run, r.error.c_str());
    QCOMPARE(r.run->shape, recording::RecordingShape::Envelope);
    QCOMPARE(q(r.run->runId), QByteArray("run-7-1"));
    QCOMPARE(q(r.run->reactMode), QByteArray("dynamic"));
    QCOMPARE(q(r.run->model), QByteArray("m"));
    QCOMPARE(q(r.run->provider), QByteArray("p"));
    QCOMPARE(r.run->events.size(), std::size_t(1));
}

void TestLoaderLimits::bareSnapshotOpensAsRecording()
{
    const LoadResult r = fromBytes(R"({"runId":"1-0001","sharedState":{},"commitLog":[]})");
    QVERIFY2(r.run, r.error.c_str());
    QCOMPARE(r.run->shape, recording::RecordingShape::Recording);
    QVERIFY(r.run->hasSnapshot);
    QCOMPARE(q(r.run->engineRunId), QByteArray("1-0001"));
    QVERIFY(r.run->runId.empty()); // the engine id is never the event-meta run id
    QVERIFY(hasWarning(*r.run, "bare run snapshot"));
}

void TestLoaderLimits::loneSurrogateEscapesLoad()
{
    // §9 item 5: a lone surrogate escape is legal JSON.stringify output and must load, kept losslessly.
    const LoadResult r = fromBytes(R"({"events":[)" +
                                   eventJson("agentfootprint.agent.turn_start", R"({"userPrompt":"a\ud800b"})") + "]}");
    QVERIFY2(r.run, r.error.c_str());
    QCOMPARE(r.run->payload(r.run->events[0]).findString("userPrompt")->decodedString(), std::string("a\xED\xA0\x80"
                                                                                                     "b"));
}

void TestLoaderLimits::hostileNumbersFallBack()
{
    // Out-of-range numbers where the loader wants an epoch or a count: no undefined conversion; the epoch falls back
    // to the call's position and a negative count is no count.
    const LoadResult r = fromBytes(
        R"({"events":[)" +
        eventJson("agentfootprint.stream.llm_start",
                  R"({"iteration":1e300,"systemPromptChars":-5,"messagesCount":1e30})") +
        "," + eventJson("agentfootprint.stream.llm_start", R"({"iteration":-1e300,"systemPromptChars":1.5e19})") +
        "]}");
    QVERIFY2(r.run, r.error.c_str());
    QCOMPARE(r.run->calls.size(), std::size_t(2));
    QCOMPARE(r.run->calls[0].epoch, 1);
    QVERIFY(r.run->calls[0].epochByPosition);
    QCOMPARE(r.run->calls[1].epoch, 2);
    QVERIFY(r.run->calls[1].epochByPosition);
    for (std::size_t i = 0; i < 2; ++i) {
        const recording::CallView view = recording::buildCallView(*r.run, i);
        QVERIFY(!view.recordedSystemLengthU16);
        QVERIFY(!view.recordedMessageCount);
    }
}

void TestLoaderLimits::receiptShapeRejectedDamagesEveryRow()
{
    // §6.6 step 1: a `receipt` key holding a non-receipt damages every row of the view.
    const LoadResult r =
        fromBytes(R"({"commitLog":[{"idx":0,"stage":"Seed","stageId":"seed","runtimeStageId":"seed#0",)"
                  R"("trace":[{"path":"iteration","verb":"set"},{"path":"history","verb":"set"}],)"
                  R"("overwrite":{"iteration":1,"history":[{"role":"user","content":"go"}]}},)"
                  R"({"idx":1,"stage":"CallLLM","stageId":"call-llm","runtimeStageId":"call-llm#1",)"
                  R"("trace":[{"path":"receipt","verb":"set"}],"overwrite":{"receipt":{"basis":{"epoch":"one"}}}}],)"
                  R"("served":[]})");
    QVERIFY2(r.run, r.error.c_str());
    QCOMPARE(r.run->calls.size(), std::size_t(1));
    const recording::CallView view = recording::buildCallView(*r.run, 0);
    QCOMPARE(view.epoch, 1);
    QCOMPARE(view.receiptState, recording::CallView::ReceiptState::Rejected);
    QVERIFY(view.damaged);
    QVERIFY(!view.checks.empty());
    bool sawMessage = false;
    for (const recording::PartCheck &c : view.checks) {
        QVERIFY2(c.badge == Badge::Damaged, c.part.c_str());
        sawMessage = sawMessage || c.part == "messages[0]";
    }
    QVERIFY(sawMessage);
    bool gap = false;
    for (const recording::Gap &g : view.gaps)
        gap = gap || (g.name == "no-receipt-on-chart" && g.cause == "receipt-shape-rejected");
    QVERIFY(gap);
}

void TestLoaderLimits::cancelledLoad()
{
    std::atomic<bool> cancel{true};
    recording::LoadControl control;
    control.cancel = &cancel;
    const LoadResult r = fromBytes(R"({"events":[)" + eventJson("agentfootprint.agent.turn_start") + "]}", control);
    QVERIFY(!r.run);
    QVERIFY(r.cancelled);
    QCOMPARE(q(r.error), QByteArray("cancelled"));
}

QTEST_APPLESS_MAIN(TestLoaderLimits)
#include "tst_loaderlimits.moc"
