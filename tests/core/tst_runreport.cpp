// The run story (spec/runs.md) in the report and in inspect, on the real 9.62 recordings: turns, outcome, limits,
// each call's response and tool runs, the transcript, and that every recorded text in them stays escaped.

#include "core/audit/runaudit.h"
#include "core/findings/piecediff.h"
#include "core/generate/recordinggenerator.h"
#include "core/json/writer.h"
#include "core/recording/recordingloader.h"
#include "core/report/htmlreport.h"
#include "core/report/inspectreport.h"
#include "core/report/runsearch.h"
#include "core/text/utf.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace tf;

namespace {

std::shared_ptr<const recording::Run> load(const char *name)
{
    const recording::LoadResult r =
        recording::loadRecording(std::string(TRACEFOLD_TEST_DATA "/samples/real-9.62/") + name);
    if (!r.run)
        qFatal("%s", r.error.c_str());
    return r.run;
}

std::size_t count(const std::string &haystack, const std::string &needle)
{
    std::size_t n = 0;
    for (std::size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1))
        ++n;
    return n;
}

QJsonObject inspect(const recording::Run &run)
{
    const std::string text = json::stringify(report::inspectJson(run, recording::summarizeCalls(run)));
    return QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
}

// The part of the report between two section anchors.
std::string section(const std::string &html, const char *id, const char *nextId)
{
    const std::size_t from = html.find(std::string("id=\"") + id + "\"");
    const std::size_t to = html.find(std::string("id=\"") + nextId + "\"", from);
    return from == std::string::npos ? std::string() : html.substr(from, to - from);
}

} // namespace

class TestRunReport : public QObject
{
    Q_OBJECT

private slots:
    void crashedRun();
    void toolErrors();
    void conversation();
    void pausedAndLimited();
    void markupInResultsStaysEscaped();
    void inspectJson_data();
    void inspectJson();
    void inspectTable();
    void searchNumbersCallsAcrossTurns();
    void pieceDiffIsTheCoreOne();
    void previousOnItsOwnThreadIsTheSame();
    void answerCallIsTheLastEndedTurns();
    void problemsComeFirstAndLinkTheirCalls();
};

void TestRunReport::crashedRun()
{
    const auto run = load("dev-4-crash.json");
    const std::string html = report::renderHtmlReport(*run);
    QVERIFY(html.find("<b>The run failed at <a href=\"#call-3\">call 3</a></b>: The AI call failed: 529 "
                      "overloaded_error") != std::string::npos);
    const std::string call3 = section(html, "call-3", "gaps");
    QVERIFY(call3.find("the run failed here") != std::string::npos);
    QVERIFY(call3.find("No response on record") != std::string::npos);
    QVERIFY(section(html, "call-2", "call-3").find("No response on record") == std::string::npos);
    QVERIFY(html.find("The recording holds no final answer.") != std::string::npos); // not an empty answer
    QVERIFY(section(html, "conversation", "calls").find("The last call has no response on record.") !=
            std::string::npos);
    QVERIFY(html.find("summed over 2 of 3 calls (partial)") != std::string::npos);
}

void TestRunReport::toolErrors()
{
    const auto run = load("dev-3-tool-errors.json");
    const std::string html = report::renderHtmlReport(*run);
    QVERIFY(html.find("<b>2 tool calls threw</b> (<a href=\"#call-1\">call 1</a>, <a href=\"#call-3\">call 3</a>)") !=
            std::string::npos);
    const std::string calls = section(html, "calls", "gaps");
    QCOMPARE(count(calls, "<span class=\"chip b-damaged\">threw</span>"), std::size_t(2));
    QVERIFY(calls.find("ci-api: request timed out after 10000 ms") != std::string::npos);
    QVERIFY(calls.find("2 in parallel") != std::string::npos);
    const std::string transcript = section(html, "conversation", "calls");
    QCOMPARE(count(transcript, "tool threw"), std::size_t(2)); // each message once: ci-1 and ci-4
    QCOMPARE(count(transcript, "403 Forbidden: token lacks scope read:logs"), std::size_t(1));
    const std::string timeline = section(html, "timeline", "conversation");
    QCOMPARE(count(timeline, "tool threw"), std::size_t(2));
}

void TestRunReport::conversation()
{
    const auto run = load("dev-2-conversation.json");
    const std::string html = report::renderHtmlReport(*run);
    const std::string timeline = section(html, "timeline", "conversation");
    QCOMPARE(count(timeline, "<tr class=\"turn\">"), std::size_t(4));
    QVERIFY(timeline.find("<b>Turn 3</b> \u00B7 What would be a sensible monthly limit?") != std::string::npos);
    for (int call = 1; call <= 7; ++call)
        QVERIFY(timeline.find("href=\"#call-" + std::to_string(call) + "\">" + std::to_string(call) + "</a>") !=
                std::string::npos);
    // Every user prompt once in the transcript, though each later call's history repeats it.
    const std::string transcript = section(html, "conversation", "calls");
    for (const char *prompt :
         {"How much did we spend on groceries in March?", "How does that compare with February, and where did it go?",
          "What would be a sensible monthly limit?", "OK, set an alert at 400 euros."})
        QCOMPARE(count(transcript, prompt), std::size_t(1));
    QCOMPARE(count(transcript, "<h4>Turn "), std::size_t(4));
    QVERIFY(html.find("The answer is the output of <a href=\"#call-7\">call 7</a>") != std::string::npos);
    QVERIFY(html.find("never declared") == std::string::npos); // not armed: no undeclared results
    QVERIFY(html.find("Call 6 <span class=\"muted\">\u00B7 turn 4</span>") != std::string::npos);
}

void TestRunReport::pausedAndLimited()
{
    const std::string paused = report::renderHtmlReport(*load("dev-7-paused-or-limited.json"));
    QVERIFY(paused.find("<b>The run paused for a human at <a href=\"#call-2\">call 2</a></b>: Approve read-only") !=
            std::string::npos);
    QVERIFY(section(paused, "call-2", "gaps").find("never returned") != std::string::npos);

    const std::string limited = report::renderHtmlReport(*load("dev-8-max-iterations.json"));
    QVERIFY(limited.find("<b>budget_exhausted</b> at <a href=\"#call-3\">call 3</a>: reason max-iterations, limit 3, "
                         "pendingToolCalls 1, action wrapped-up") != std::string::npos);
    QVERIFY(limited.find("kind max_iterations, limit 3, actual 3, action abort") != std::string::npos);
    QVERIFY(section(limited, "call-3", "call-4").find("not run</span>") != std::string::npos);
}

void TestRunReport::markupInResultsStaysEscaped()
{
    // dev-1's first get_abstract result is scraped HTML with a <script> block.
    const std::string html = report::renderHtmlReport(*load("dev-1-research.json"));
    QVERIFY(html.find("<script") == std::string::npos);
    QVERIFY(html.find("&lt;script type=&quot;application/ld+json&quot;&gt;") != std::string::npos ||
            html.find("&lt;script type=\"application/ld+json\"&gt;") != std::string::npos);
    QVERIFY(html.find("<i>Acropora") == std::string::npos);
    // The 19,952-character CSV folds behind <details>, in the transcript and in its call.
    QVERIFY(count(html, "<details><summary>tool result \u00B7 19,952 units</summary>") >= 1);
    QVERIFY(count(html, "<details><summary>result \u00B7 19,952 units</summary>") >= 1);
}

void TestRunReport::inspectJson_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("turns");
    QTest::addColumn<QString>("status");
    QTest::addColumn<QJsonValue>("outcomeCall");
    QTest::addColumn<QJsonValue>("finalAnswerIsNull");
    QTest::newRow("conversation") << "dev-2-conversation.json" << 4 << "completed" << QJsonValue() << QJsonValue(false);
    QTest::newRow("crash") << "dev-4-crash.json" << 1 << "failed" << QJsonValue(3) << QJsonValue(true);
    QTest::newRow("paused") << "dev-7-paused-or-limited.json" << 1 << "paused" << QJsonValue(2) << QJsonValue(true);
    QTest::newRow("resumed") << "dev-7b-resumed.json" << 1 << "completed" << QJsonValue() << QJsonValue(false);
    QTest::newRow("ndjson") << "dev-6-events.ndjson" << 1 << "completed" << QJsonValue() << QJsonValue(false);
}

void TestRunReport::inspectJson()
{
    QFETCH(QString, file);
    QFETCH(int, turns);
    QFETCH(QString, status);
    QFETCH(QJsonValue, outcomeCall);
    QFETCH(QJsonValue, finalAnswerIsNull);
    const auto run = load(file.toUtf8().constData());
    const QJsonObject doc = inspect(*run);
    QCOMPARE(doc.value("turns").toArray().size(), turns);
    const QJsonObject outcome = doc.value("outcome").toObject();
    QCOMPARE(outcome.value("status").toString(), status);
    QCOMPARE(outcome.value("call").isNull() ? QJsonValue() : outcome.value("call"), outcomeCall);
    QCOMPARE(QJsonValue(doc.value("finalAnswer").isNull()), finalAnswerIsNull);
    const QJsonArray calls = doc.value("calls").toArray();
    QCOMPARE(qsizetype(calls.size()), qsizetype(run->calls.size()));
    int listed = 0;
    for (const QJsonValue &t : doc.value("turns").toArray())
        for (const QJsonValue &c : t.toObject().value("calls").toArray())
            QCOMPARE(c.toInt(), ++listed); // turns list every call once, in order
    QCOMPARE(listed, int(calls.size()));
    for (qsizetype i = 0; i < calls.size(); ++i) {
        const QJsonObject c = calls[i].toObject();
        QCOMPARE(c.value("index").toInt(), int(i) + 1);
        QVERIFY(c.value("turn").toInt() >= 1 && c.value("turn").toInt() <= turns);
        QVERIFY(c.value("runId").isString());
        QVERIFY(c.value("toolResults").isArray());
        if (!c.value("response").isNull()) {
            const QJsonObject r = c.value("response").toObject();
            QVERIFY(r.value("text").isString());
            QVERIFY(r.value("stopReason").isString());
            QVERIFY(r.value("usage").toObject().contains("input"));
        }
    }
    if (file == QLatin1String("dev-4-crash.json"))
        QVERIFY(calls.last().toObject().value("response").isNull());
}

void TestRunReport::inspectTable()
{
    const auto run = load("dev-3-tool-errors.json");
    const std::string table = report::inspectTable(*run, recording::summarizeCalls(*run));
    QVERIFY(table.find("call  turn  epoch  response  tools") != std::string::npos);
    QVERIFY(table.find("turns: 1, outcome: completed\n") != std::string::npos);
    QCOMPARE(count(table, " 1E "), std::size_t(2));
    const auto crash = load("dev-4-crash.json");
    const std::string crashed = report::inspectTable(*crash, recording::summarizeCalls(*crash));
    QVERIFY(crashed.find("outcome: failed at call 3: The AI call failed: 529") != std::string::npos);
    QVERIFY(crashed.find("NONE") != std::string::npos);
}

void TestRunReport::searchNumbersCallsAcrossTurns()
{
    // "groceries" is in every call's history; the stage ids and iterations repeat across the four turns.
    const auto run = load("dev-2-conversation.json");
    const report::SearchResult result = report::searchRun(*run, "groceries");
    const std::string text = report::searchText(*run, result);
    for (int call = 1; call <= 7; ++call)
        QVERIFY2(text.find("call " + std::to_string(call) + "  call-llm#") != std::string::npos, text.c_str());
    const std::string json = json::stringify(report::searchJson(*run, result));
    QJsonParseError error;
    const QJsonObject doc = QJsonDocument::fromJson(QByteArray::fromStdString(json), &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString() + QString::number(error.offset)));
    const QJsonArray calls = doc.value("calls").toArray();
    QCOMPARE(calls.size(), 7);
    QList<int> turns;
    for (qsizetype i = 0; i < calls.size(); ++i) {
        QCOMPARE(calls[i].toObject().value("index").toInt(), int(i) + 1);
        turns << calls[i].toObject().value("turn").toInt();
    }
    QCOMPARE(turns, QList<int>({1, 1, 2, 2, 3, 4, 4}));
    QCOMPARE(doc.value("firstAppearance").toObject().value("index").toInt(), 1);
}

void TestRunReport::pieceDiffIsTheCoreOne()
{
    // The report's "since the previous call" counts are findings::pieceLineDiff's, as the GUI's pane shows them.
    generate::GeneratorOptions options;
    options.calls = 12;
    options.seed = 5;
    const recording::LoadResult r = recording::loadRecordingFromBytes(generate::generateRecording(options), "gen.json");
    QVERIFY2(r.run, r.error.c_str());
    const std::string html = report::renderHtmlReport(*r.run);
    std::size_t checked = 0;
    for (std::size_t i = 1; i < r.run->calls.size(); ++i) {
        const recording::CallViews views = recording::buildCallViews(*r.run, i);
        if (!views.view.piece || !views.view.pieceChangedSincePrevious)
            continue;
        const text::DiffStats d = text::diffStats(findings::pieceLineDiff(
            views.previous && views.previous->piece ? &*views.previous->piece : nullptr, &*views.view.piece));
        const std::string call =
            section(html, ("call-" + std::to_string(i + 1)).c_str(), ("call-" + std::to_string(i + 2)).c_str());
        QVERIFY2(call.find("Since the previous call: +" + std::to_string(d.added) + " \u2212" +
                           std::to_string(d.removed) + " lines") != std::string::npos,
                 ("call " + std::to_string(i + 1)).c_str());
        ++checked;
    }
    QVERIFY(checked >= 3);
}

namespace {

// What a view shows, as text: enough to tell two builds of one call apart.
std::string fingerprint(const recording::CallView &v)
{
    std::string out = json::stringify(v.stateAt) + "|" + (v.receiptAfter ? json::stringify(*v.receiptAfter) : "-") +
                      "|" + (v.toolCallsAfter ? json::stringify(*v.toolCallsAfter) : "-") + "|" + v.systemText + "|" +
                      json::stringify(v.asSent) + "|" + json::stringify(v.ledger) + "|" +
                      std::to_string(v.ledgerRowsAtPrevious) + "|" + (v.pieceChangedSincePrevious ? "changed" : "same");
    if (v.piece)
        out += "|" + json::stringify(json::Value::string(text::toWtf8(v.piece->text)));
    for (const std::string &id : v.undeclaredIds)
        out += "|u:" + id;
    for (const recording::PartCheck &c : v.checks)
        out += "|" + c.part + ":" + recording::badgeId(c.badge) + ":" + c.reason;
    out += "|" + std::string(recording::cacheVerdictId(v.cache.verdict)) + ":" + v.cache.reason + ":" +
           (v.cache.prefixReusable ? (*v.cache.prefixReusable ? "reusable" : "not") : "-");
    for (unsigned m = 0; m < findings::kLedgerMarkCount; ++m)
        out += "|" + std::to_string(v.ledgerMarks.of(findings::LedgerMark(1u << m)));
    return out;
}

} // namespace

void TestRunReport::previousOnItsOwnThreadIsTheSame()
{
    // The window builds the call before on a thread of its own, from the journal, where a step reads it through the
    // state cursor: the same views either way, in any order of calls, and the same fold handed over.
    generate::GeneratorOptions options;
    options.calls = 40;
    options.seed = 11;
    options.historyWindow = 12;
    const recording::LoadResult r = recording::loadRecordingFromBytes(generate::generateRecording(options), "gen.json");
    QVERIFY2(r.run, r.error.c_str());
    const recording::Run &run = *r.run;
    recording::CallStates sameStates(run, recording::CallStates::Order::Any);
    recording::CallStates ownStates(run, recording::CallStates::Order::Any);
    const std::vector<std::size_t> order = {0, 1, 2, 39, 20, 21, 5, 4, 38, 17, 30, 31, 32, 1, 0, 25};
    std::size_t withLedger = 0;
    for (std::size_t i : order) {
        const recording::CallViews same =
            recording::buildCallViews(run, i, &sameStates, recording::PreviousBuild::SameThread);
        const recording::CallViews own =
            recording::buildCallViews(run, i, &ownStates, recording::PreviousBuild::OwnThread);
        const std::string call = "call " + std::to_string(i + 1);
        QVERIFY2(fingerprint(same.view) == fingerprint(own.view), call.c_str());
        QCOMPARE(same.previous.has_value(), i > 0);
        QCOMPARE(own.previous.has_value(), i > 0);
        if (i > 0)
            QVERIFY2(fingerprint(*same.previous) == fingerprint(*own.previous), call.c_str());
        QCOMPARE(own.fold.standingOf.entries().size(), same.fold.standingOf.entries().size());
        QCOMPARE(own.fold.asserted.size(), same.fold.asserted.size());
        for (const auto &e : own.fold.standingOf.entries())
            QCOMPARE(e.row, &own.view.ledger.at(e.rowIndex));
        withLedger += own.view.ledgerOnRecord && own.view.ledger.size() > 0 ? 1 : 0;
    }
    QVERIFY(withLedger >= 10);
}

void TestRunReport::answerCallIsTheLastEndedTurns()
{
    // dev-4 crashed in its only turn: no answer, no backtrack call. dev-2's answer is turn 4's, its last call's.
    const std::string conversation = report::renderHtmlReport(*load("dev-2-conversation.json"));
    QVERIFY(conversation.find("The answer is the output of <a href=\"#call-7\">call 7</a>") != std::string::npos);
    // A conversation whose last turn did not end: the answer on record is turn 3's, so its call is turn 3's last
    // (call 5), not the run's last. Made from dev-2 by removing turn 4's turn_end event.
    QFile f(QStringLiteral(TRACEFOLD_TEST_DATA "/samples/real-9.62/dev-2-conversation.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    std::string text = f.readAll().toStdString();
    const std::size_t end = text.rfind(R"({"type":"agentfootprint.agent.turn_end")");
    const std::size_t next = text.find(R"(,{"type":)", end);
    QVERIFY(end != std::string::npos && next != std::string::npos);
    text.erase(end, next + 1 - end);
    const recording::LoadResult cut = recording::loadRecordingFromBytes(std::move(text), "cut.json");
    QVERIFY2(cut.run, cut.error.c_str());
    QCOMPARE(cut.run->outcome.status, recording::OutcomeStatus::Incomplete);
    QVERIFY(cut.run->finalAnswer && cut.run->finalAnswer->rfind("An average of the two months", 0) == 0);
    const std::string html = report::renderHtmlReport(*cut.run);
    QVERIFY(html.find("The answer is the output of <a href=\"#call-5\">call 5</a>") != std::string::npos);
}

void TestRunReport::problemsComeFirstAndLinkTheirCalls()
{
    // dev-4: the run failed (no call) and call 3 has no response. The section is the audit's list, before the
    // summary, each problem linking to its call's anchor.
    const auto crash = load("dev-4-crash.json");
    const std::string html = report::renderHtmlReport(*crash);
    const std::string problems = section(html, "problems", "summary");
    QVERIFY(!problems.empty());
    QVERIFY(html.find("id=\"problems\"") < html.find("id=\"summary\""));
    QVERIFY(html.find("<a href=\"#problems\">Problems</a> (2)") != std::string::npos);
    QVERIFY(problems.find("2 errors, 0 warnings, 0 info") != std::string::npos);
    const auto audited = audit::auditRun(*crash, recording::summarizeCalls(*crash));
    QCOMPARE(count(problems, "<tr><td><span class=\"chip "), audited.size());
    QVERIFY(problems.find("<code>run-failed</code></td><td>the run</td>") != std::string::npos);
    QVERIFY(problems.find("<code>no-response</code></td><td><a href=\"#call-3\">call 3</a>") != std::string::npos);
    QVERIFY(html.find("id=\"call-3\"") != std::string::npos); // the link has a target
    QVERIFY(problems.find("529 overloaded_error") != std::string::npos);
    // Every rule is explained in the appendix.
    const std::string appendix = section(html, "appendix", "no-such-anchor");
    for (int r = 0; r < audit::kAuditRuleCount; ++r)
        QVERIFY(appendix.find(std::string("<code>") + audit::auditRuleId(audit::AuditRule(r)) + "</code>") !=
                std::string::npos);

    // A clean run says so; a hostile message is escaped like every recorded text.
    const std::string clean = report::renderHtmlReport(*load("dev-2-conversation.json"));
    QVERIFY(section(clean, "problems", "summary").find("<p>None: no rule of the audit fires") != std::string::npos);
    QVERIFY(clean.find("<a href=\"#problems\">Problems</a> (0)") != std::string::npos);
    QFile f(QStringLiteral(TRACEFOLD_TEST_DATA "/samples/real-9.62/dev-4-crash.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    std::string text = f.readAll().toStdString();
    const std::string error = "The AI call failed: 529 overloaded_error";
    QVERIFY(text.find(error) != std::string::npos);
    text.replace(text.find(error), error.size(), "<script>alert(1)</script> & <b>bold</b>");
    const recording::LoadResult hostile = recording::loadRecordingFromBytes(std::move(text), "hostile.json");
    QVERIFY2(hostile.run, hostile.error.c_str());
    const std::string escaped = section(report::renderHtmlReport(*hostile.run), "problems", "summary");
    QVERIFY(escaped.find("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;") != std::string::npos);
    QVERIFY(escaped.find("<script>") == std::string::npos);
}

QTEST_GUILESS_MAIN(TestRunReport)
#include "tst_runreport.moc"
