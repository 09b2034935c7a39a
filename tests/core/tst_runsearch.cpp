#include "core/generate/recordinggenerator.h"
#include "core/json/writer.h"
#include "core/recording/callview.h"
#include "core/recording/recordingloader.h"
#include "core/report/runsearch.h"
#include "core/text/utf.h"

#include <QTest>

#include <set>

using namespace tf;

namespace {

std::shared_ptr<const recording::Run> generated(int calls, std::uint64_t seed)
{
    generate::GeneratorOptions options;
    options.calls = calls;
    options.seed = seed;
    auto result = recording::loadRecordingFromBytes(generate::generateRecording(options), "generated.json");
    if (!result.run)
        qFatal("generated recording failed to load: %s", result.error.c_str());
    return result.run;
}

// The calls whose served context holds `needle`, the slow way: the JSON text of everything that was sent. Valid for
// needles that JSON writes as themselves (ASCII letters, digits, spaces).
std::set<std::size_t> bruteForce(const recording::Run &run, const std::string &needle)
{
    std::set<std::size_t> out;
    for (std::size_t i = 0; i < run.calls.size(); ++i) {
        const auto view = recording::buildCallView(run, i);
        std::string all = view.systemText + json::stringify(view.asSent);
        for (const auto &t : view.tools)
            all += t.schema ? json::stringify(*t.schema) : t.name;
        if (all.find(needle) != std::string::npos)
            out.insert(i);
    }
    return out;
}

std::set<std::size_t> ordinals(const report::SearchResult &r)
{
    std::set<std::size_t> out;
    for (const auto &c : r.calls)
        out.insert(c.ordinal);
    return out;
}

} // namespace

class TestRunSearch : public QObject
{
    Q_OBJECT

private slots:
    void countMatches_data();
    void countMatches();
    void toolNameIsInEveryCall();
    void agreesWithTheServedText_data();
    void agreesWithTheServedText();
    void firstAppearanceOfAResult();
    void collapsedContentIsNotServed();
    void caseInsensitiveAscii();
    void nonAsciiNeedle();
    void emptyNeedleFindsNothing();
    void jsonDocument();
    void cancelStops();
};

void TestRunSearch::countMatches_data()
{
    QTest::addColumn<QString>("haystack");
    QTest::addColumn<QString>("needle");
    QTest::addColumn<bool>("ci");
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("first");
    QTest::newRow("none") << "abc"
                          << "x" << false << 0 << -1;
    QTest::newRow("non-overlapping") << "aaaa"
                                     << "aa" << false << 2 << 0;
    QTest::newRow("case-sensitive") << "Port port PORT"
                                    << "port" << false << 1 << 5;
    QTest::newRow("case-insensitive") << "Port port PORT"
                                      << "port" << true << 3 << 0;
    QTest::newRow("needle-longer") << "ab"
                                   << "abc" << false << 0 << -1;
}

void TestRunSearch::countMatches()
{
    QFETCH(QString, haystack);
    QFETCH(QString, needle);
    QFETCH(bool, ci);
    QFETCH(int, count);
    QFETCH(int, first);
    std::size_t at = std::string::npos;
    const std::string n = ci ? needle.toLower().toStdString() : needle.toStdString();
    QCOMPARE(int(report::countMatches(haystack.toStdString(), n, ci, &at)), count);
    QCOMPARE(at == std::string::npos ? -1 : int(at), first);
}

void TestRunSearch::toolNameIsInEveryCall()
{
    const auto run = generated(10, 1);
    const report::SearchResult r = report::searchRun(*run, "lookup_port");
    QCOMPARE(r.calls.size(), run->calls.size());
    QCOMPARE(r.firstOrdinal, std::optional<std::size_t>(0));
    QCOMPARE(r.firstEpoch, 1);
    for (const auto &c : r.calls) {
        QVERIFY(std::any_of(c.hits.begin(), c.hits.end(),
                            [](const report::SearchHit &h) { return h.location == "tools[lookup_port]"; }));
        std::size_t total = 0;
        for (const auto &h : c.hits)
            total += h.count;
        QCOMPARE(c.total, total);
    }
}

void TestRunSearch::agreesWithTheServedText_data()
{
    QTest::addColumn<QString>("needle");
    QTest::newRow("system-word") << "triage assistant";
    QTest::newRow("skill-from-call-4") << "optic swap points";
    QTest::newRow("piece-heading") << "facts (declared by the model)";
    QTest::newRow("tool-result-word") << "timeout";
    QTest::newRow("result-id") << "call_5";
    QTest::newRow("user-prompt") << "lost two of four paths";
    QTest::newRow("absent") << "zzzz-not-there";
}

void TestRunSearch::agreesWithTheServedText()
{
    QFETCH(QString, needle);
    const auto run = generated(16, 9);
    const report::SearchResult r = report::searchRun(*run, needle.toStdString());
    const std::set<std::size_t> expected = bruteForce(*run, needle.toStdString());
    QCOMPARE(ordinals(r), expected);
    if (expected.empty()) {
        QVERIFY(!r.firstOrdinal);
    } else {
        QCOMPARE(r.firstOrdinal, std::optional<std::size_t>(*expected.begin()));
        QCOMPARE(r.firstEpoch, run->calls[*expected.begin()].epoch);
        QCOMPARE(r.firstLocation, r.calls.front().hits.front().location);
    }
    QCOMPARE(r.callsSearched, run->calls.size());
}

void TestRunSearch::firstAppearanceOfAResult()
{
    const auto run = generated(12, 4);
    // The content of call_1's result: its exact bytes first go out in the call after the tool ran.
    std::optional<std::size_t> servedAt;
    std::string content;
    for (std::size_t i = 0; i < run->calls.size() && !servedAt; ++i) {
        const auto view = recording::buildCallView(*run, i);
        for (std::size_t m = 0; m < view.asSent.size(); ++m) {
            const json::Value &msg = view.asSent.at(m);
            if (const json::Value *id = msg.findString("toolCallId"); id && id->asString() == "call_1") {
                content = std::string(msg.findString("content")->asString());
                servedAt = i;
            }
        }
    }
    QVERIFY(servedAt);
    const std::string &needle = content; // unique: the result carries random words and a random counter
    const report::SearchResult r = report::searchRun(*run, needle);
    QCOMPARE(r.firstOrdinal, servedAt);
    QVERIFY(r.firstLocation.rfind("messages[", 0) == 0);
    const auto &hit = r.calls.front().hits.front();
    QVERIFY(hit.label.find("call_1") != std::string::npos);
    QVERIFY(hit.snippet.find(needle) != std::string::npos);
    QCOMPARE(hit.snippet.substr(hit.snippetMatchBegin, hit.snippetMatchEnd - hit.snippetMatchBegin), needle);
}

void TestRunSearch::collapsedContentIsNotServed()
{
    const auto run = generated(14, 7);
    // A result collapsed at some call: its content is in the history there, but only the ticket went out.
    for (std::size_t i = 0; i < run->calls.size(); ++i) {
        const auto view = recording::buildCallView(*run, i);
        if (view.collapsed.empty())
            continue;
        const auto &c = view.collapsed.front();
        const std::string content(view.committed.at(c.index).findString("content")->asString());
        const std::string &needle = content;
        const report::SearchResult r = report::searchRun(*run, needle);
        const std::string location = "messages[" + std::to_string(c.index) + "]";
        for (const auto &call : r.calls)
            if (call.ordinal == i)
                for (const auto &hit : call.hits)
                    QVERIFY2(hit.location != location, "collapsed content counted as served");
        // Before the collapse the same content went out in full (the result was served at least once).
        QVERIFY(r.firstOrdinal && *r.firstOrdinal < i);
        // The ticket itself is served, and found.
        const report::SearchResult tickets = report::searchRun(*run, c.ticket);
        QVERIFY(ordinals(tickets).count(i) == 1);
        return;
    }
    QFAIL("the generated run collapses nothing");
}

void TestRunSearch::caseInsensitiveAscii()
{
    const auto run = generated(6, 2);
    QVERIFY(report::searchRun(*run, "LOOKUP_PORT").calls.empty());
    report::SearchOptions options;
    options.caseInsensitive = true;
    const auto r = report::searchRun(*run, "LOOKUP_PORT", options);
    QCOMPARE(r.calls.size(), run->calls.size());
    QVERIFY(r.caseInsensitive);
}

void TestRunSearch::nonAsciiNeedle()
{
    const auto run = generated(12, 5);
    // The generator's words include "état" and "😀"; a UTF-8 needle is a byte substring of the WTF-8 text.
    for (const char *needle : {"\xC3\xA9tat", "\xF0\x9F\x98\x80"}) {
        const auto r = report::searchRun(*run, needle);
        QVERIFY2(!r.calls.empty(), needle);
        for (const auto &c : r.calls)
            for (const auto &h : c.hits)
                QCOMPARE(text::findInvalidUtf8(h.snippet), std::string::npos);
    }
}

void TestRunSearch::emptyNeedleFindsNothing()
{
    const auto run = generated(3, 1);
    const auto r = report::searchRun(*run, "");
    QVERIFY(r.calls.empty());
    QVERIFY(!r.firstOrdinal);
}

void TestRunSearch::jsonDocument()
{
    const auto run = generated(8, 1);
    const auto r = report::searchRun(*run, "read_zoning");
    const json::Value doc = report::searchJson(*run, r);
    QCOMPARE(doc.findNumber("schema")->asNumber(), 1.0);
    QCOMPARE(std::string(doc.findString("text")->asString()), std::string("read_zoning"));
    QCOMPARE(std::size_t(doc.findNumber("matchingCalls")->asNumber()), r.calls.size());
    const json::Value *first = doc.findObject("firstAppearance");
    QVERIFY(first);
    QCOMPARE(first->findNumber("epoch")->asNumber(), 1.0);
    QCOMPARE(std::string(first->findString("location")->asString()), std::string("tools[read_zoning]"));
    const json::Value *calls = doc.findArray("calls");
    QCOMPARE(calls->size(), r.calls.size());
    QVERIFY(calls->at(0).findArray("locations")->size() > 0);
    const std::string text = report::searchText(*run, r);
    QVERIFY(text.find("first appeared: call 1") != std::string::npos);
    QVERIFY(report::searchJson(*run, report::searchRun(*run, "no-such-text")).find("firstAppearance")->isNull());
}

void TestRunSearch::cancelStops()
{
    const auto run = generated(10, 1);
    std::atomic<bool> cancel{true};
    report::SearchOptions options;
    options.cancel = &cancel;
    const auto r = report::searchRun(*run, "lookup_port", options);
    QVERIFY(r.cancelled);
    QCOMPARE(r.callsSearched, std::size_t(0));
}

QTEST_APPLESS_MAIN(TestRunSearch)
#include "tst_runsearch.moc"
