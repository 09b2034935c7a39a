#include "core/generate/recordinggenerator.h"
#include "core/json/writer.h"
#include "core/recording/callview.h"
#include "core/recording/recordingloader.h"
#include "core/recording/resultentry.h"
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

std::shared_ptr<const recording::Run> realRun(const char *name)
{
    auto result = recording::loadRecording(std::string(TRACEFOLD_TEST_DATA "/samples/real-9.62/") + name);
    if (!result.run)
        qFatal("%s failed to load: %s", name, result.error.c_str());
    return result.run;
}

const report::SearchHit *hitAt(const report::CallHits &call, std::string_view location)
{
    for (const report::SearchHit &h : call.hits)
        if (h.location == location)
            return &h;
    return nullptr;
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
    void matchRangesInUtf16_data();
    void matchRangesInUtf16();
    void responsesAndAnswerAreSearched();
    void servedOnlyByDefault();
    void stepsThroughEveryMatch();
    void toolResultEntersWhereFirstServed();
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

void TestRunSearch::matchRangesInUtf16_data()
{
    QTest::addColumn<QByteArray>("wtf8");
    QTest::addColumn<QByteArray>("needle");
    QTest::addColumn<bool>("ci");
    QTest::addColumn<QList<int>>("ranges"); // begin, length, begin, length, ...
    QTest::newRow("ascii") << QByteArray("port fc1 port") << QByteArray("port") << false << QList<int>{0, 4, 9, 4};
    QTest::newRow("after two-byte") << QByteArray("caf\xC3\xA9 caf\xC3\xA9") << QByteArray("caf\xC3\xA9") << false
                                    << QList<int>{0, 4, 5, 4};
    // U+1F600 is two UTF-16 units: the match after it starts two units later than its one character.
    QTest::newRow("after astral") << QByteArray("\xF0\x9F\x98\x80 port") << QByteArray("port") << false
                                  << QList<int>{3, 4};
    // A lone surrogate is three bytes of WTF-8 and one unit.
    QTest::newRow("after lone surrogate")
        << QByteArray("\xED\xA0\x80x port") << QByteArray("port") << false << QList<int>{3, 4};
    QTest::newRow("case-insensitive needle")
        << QByteArray("Port PORT") << QByteArray("PORT") << true << QList<int>{0, 4, 5, 4};
    QTest::newRow("none") << QByteArray("abc") << QByteArray("x") << false << QList<int>{};
}

void TestRunSearch::matchRangesInUtf16()
{
    QFETCH(QByteArray, wtf8);
    QFETCH(QByteArray, needle);
    QFETCH(bool, ci);
    QFETCH(QList<int>, ranges);
    const std::string_view text(wtf8.constData(), std::size_t(wtf8.size()));
    const std::string_view n(needle.constData(), std::size_t(needle.size()));
    QList<int> got;
    for (const report::RangeU16 &r : report::matchRangesU16(text, n, ci))
        got << int(r.beginU16) << int(r.lengthU16);
    QCOMPARE(got, ranges);
    // The same occurrences as the count, in the same order.
    QCOMPARE(qsizetype(report::matchOffsets(text, n, ci).size()) * 2, ranges.size());
    QCOMPARE(qsizetype(report::countMatches(text, n, ci)) * 2, ranges.size());
}

void TestRunSearch::responsesAndAnswerAreSearched()
{
    // dev-1: six calls of one turn; the answer (the last call's text) cites "Okafor et al. 2024", a result served
    // before it.
    const auto run = realRun("dev-1-research.json");
    QVERIFY(run->finalAnswer);
    report::SearchOptions options;
    options.includeResponses = true;
    const auto r = report::searchRun(*run, "Okafor", options);
    QVERIFY(r.includeResponses);
    QVERIFY(!r.calls.empty());
    const report::CallHits &last = r.calls.back();
    QCOMPARE(last.ordinal, run->calls.size() - 1);
    const report::SearchHit *answer = hitAt(last, "answer");
    QVERIFY(answer);
    QCOMPARE(answer->part, report::SearchPart::Answer);
    QCOMPARE(answer->count, report::countMatches(*run->finalAnswer, "Okafor", false));
    const report::SearchHit *response = hitAt(last, "response.text");
    QVERIFY(response);
    QCOMPARE(response->part, report::SearchPart::ResponseText);
    const auto view = recording::buildCallView(*run, last.ordinal);
    QCOMPARE(response->count, report::countMatches(view.response->text, "Okafor", false));
    // What the model wrote comes after what it was served, at every call.
    for (const report::CallHits &c : r.calls) {
        bool wrote = false;
        for (const report::SearchHit &h : c.hits) {
            const bool written = h.part == report::SearchPart::ResponseText ||
                                 h.part == report::SearchPart::ToolCallArguments ||
                                 h.part == report::SearchPart::Answer;
            QVERIFY2(!(wrote && !written), h.location.c_str());
            wrote = wrote || written;
        }
    }
    // The arguments of a tool call: a query the model wrote at call 1 is found there with its id.
    const auto first = recording::buildCallView(*run, 0);
    QVERIFY(first.response && !first.response->toolCalls.empty());
    const recording::ToolCallRequest &request = first.response->toolCalls.front();
    std::string argText;
    for (const json::Member *m = request.args.memberBegin(); m != request.args.memberEnd(); ++m)
        if (m->value.isString() && m->value.asString().size() > 6)
            argText = std::string(m->value.asString().substr(0, 6));
    QVERIFY(!argText.empty());
    const auto args = report::searchRun(*run, argText, options);
    QVERIFY(!args.calls.empty());
    QCOMPARE(args.calls.front().ordinal, std::size_t(0));
    const report::SearchHit *inArgs = hitAt(args.calls.front(), "response.toolCalls[0]");
    QVERIFY(inArgs);
    QCOMPARE(inArgs->part, report::SearchPart::ToolCallArguments);
    QCOMPARE(inArgs->name, request.id);
    const json::Value doc = report::searchJson(*run, args);
    QVERIFY(doc.find("includesResponses") && doc.find("includesResponses")->asBool());
}

void TestRunSearch::servedOnlyByDefault()
{
    // Without includeResponses nothing the model wrote is a location, and the JSON is what it always was.
    const auto run = realRun("dev-1-research.json");
    const auto r = report::searchRun(*run, "Okafor");
    QVERIFY(!r.calls.empty());
    for (const report::CallHits &c : r.calls)
        for (const report::SearchHit &h : c.hits)
            QVERIFY2(h.part != report::SearchPart::ResponseText && h.part != report::SearchPart::ToolCallArguments &&
                         h.part != report::SearchPart::Answer,
                     h.location.c_str());
    QVERIFY(!report::searchJson(*run, r).find("includesResponses"));
    // Served hits say where they are.
    for (const report::CallHits &c : r.calls)
        for (const report::SearchHit &h : c.hits)
            if (h.part == report::SearchPart::Message)
                QCOMPARE(h.location, "messages[" + std::to_string(h.index) + "]");
}

void TestRunSearch::stepsThroughEveryMatch()
{
    const auto run = realRun("dev-1-research.json");
    report::SearchOptions options;
    options.includeResponses = true;
    const auto r = report::searchRun(*run, "reef", options);
    const std::size_t total = r.totalMatches();
    QVERIFY(total > 3);
    // Forward from nothing: every match once, numbered 1..N, then back to the first.
    std::optional<report::MatchPosition> at;
    std::vector<report::MatchPosition> seen;
    for (std::size_t i = 0; i < total; ++i) {
        at = report::stepMatch(r, at, false);
        QVERIFY(at);
        QCOMPARE(report::matchNumber(r, *at), i + 1);
        seen.push_back(*at);
    }
    QCOMPARE(*report::stepMatch(r, at, false), seen.front());
    // Call order: a later match is never at an earlier call.
    for (std::size_t i = 1; i < seen.size(); ++i)
        QVERIFY(r.calls[seen[i].call].ordinal >= r.calls[seen[i - 1].call].ordinal);
    // Backward is the same list reversed, wrapping to the last.
    std::optional<report::MatchPosition> back;
    for (std::size_t i = total; i-- > 0;) {
        back = report::stepMatch(r, back, true);
        QCOMPARE(*back, seen[i]);
    }
    QCOMPARE(*report::stepMatch(r, back, true), seen.back());
    QVERIFY(!report::stepMatch(report::searchRun(*run, "no-such-text"), std::nullopt, false));
}

void TestRunSearch::toolResultEntersWhereFirstServed()
{
    // Every tool the run called: it ran after the call that asked for it, and its result entered at the first call
    // whose messages as sent carry it, as that call's message with its id.
    const auto run = realRun("dev-3-tool-errors.json");
    std::size_t located = 0;
    for (std::size_t i = 0; i < run->calls.size(); ++i) {
        const auto view = recording::buildCallView(*run, i);
        for (const recording::ToolRun &tool : view.toolRuns) {
            const recording::ToolResultPlace place = recording::locateToolResult(*run, tool.id);
            QCOMPARE(place.ranAt, std::optional<std::size_t>(i));
            QCOMPARE(place.resultOnRecord, tool.returned);
            std::optional<std::size_t> slow;
            for (std::size_t j = 0; j < run->calls.size() && !slow; ++j) {
                const auto later = recording::buildCallView(*run, j);
                if (std::find(later.servedIds.begin(), later.servedIds.end(), tool.id) != later.servedIds.end())
                    slow = j;
            }
            QCOMPARE(place.entered.has_value(), slow.has_value());
            if (!place.entered)
                continue;
            ++located;
            QCOMPARE(place.entered->ordinal, *slow);
            QVERIFY(place.entered->ordinal > i);
            QVERIFY(place.entered->messageIndex);
            const auto at = recording::buildCallView(*run, place.entered->ordinal);
            const json::Value &message = at.asSent.at(*place.entered->messageIndex);
            QCOMPARE(message.findString("toolCallId")->decodedString(), tool.id);
        }
    }
    QVERIFY(located >= 2);
    // An id nobody called is placed nowhere.
    const recording::ToolResultPlace none = recording::locateToolResult(*run, "no-such-call");
    QVERIFY(!none.ranAt && !none.entered && !none.resultOnRecord);
}

QTEST_APPLESS_MAIN(TestRunSearch)
#include "tst_runsearch.moc"
