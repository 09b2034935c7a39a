// Values of agentfootprint releases after 9.113 that a recording can hold (issue 16, spec/upstream-since-9.113.md
// §3 and §5), read by the core without a refusal or a wrong verdict: cache.strategy's new names beside the old,
// the new request-only reasons, the ledger row kinds added since (not folded, not dropped), tool_end.modelResult,
// the new event types, and the `from` property of ruled tools' _findings schemas.

#include "recordingtext.h"

#include "core/findings/findingspiece.h"
#include "core/findings/ledgerfold.h"
#include "core/generate/recordinggenerator.h"
#include "core/json/parser.h"
#include "core/json/writer.h"
#include "core/receipt/receipthash.h"
#include "core/receipt/receiptnames.h"
#include "core/recording/callview.h"
#include "core/recording/messageview.h"
#include "core/recording/recordingloader.h"
#include "core/report/htmlreport.h"

#include <QFile>
#include <QTest>

#include <map>
#include <set>

using namespace tf;

namespace {

std::shared_ptr<const recording::Run> load(const std::string &text, const char *name)
{
    const recording::LoadResult r = recording::loadRecordingFromBytes(text, name);
    if (!r.run)
        qWarning("%s", r.error.c_str());
    return r.run;
}

} // namespace

class TestUpstreamValues : public QObject
{
    Q_OBJECT

private slots:
    void cacheStrategyNames_data();
    void cacheStrategyNames();
    void strategyReadInBothSpellings();
    void requestOnlyReasons_data();
    void requestOnlyReasons();
    void newerLedgerKindsAreListedNotFolded();
    void modelResultIsWhatTheModelWasServed();
    void newerEventTypesAreKnown();
    void findingsSchemaWithFromIsReadAsIs();
};

void TestUpstreamValues::cacheStrategyNames_data()
{
    QTest::addColumn<QString>("recorded");
    QTest::addColumn<QString>("current");
    QTest::newRow("breakpoints") << "breakpoints"
                                 << "breakpoints";
    QTest::newRow("anthropic-before-9.138") << "anthropic"
                                            << "breakpoints";
    QTest::newRow("automatic") << "automatic"
                               << "automatic";
    QTest::newRow("openai-before-9.138") << "openai"
                                         << "automatic";
    QTest::newRow("none") << "none"
                          << "none";
    QTest::newRow("pass-through-before-9.138") << "*"
                                               << "none";
    QTest::newRow("a-later-name-is-kept") << "adaptive"
                                          << "adaptive";
}

void TestUpstreamValues::cacheStrategyNames()
{
    QFETCH(QString, recorded);
    QFETCH(QString, current);
    QCOMPARE(QString::fromStdString(receipt::currentStrategyName(recorded.toStdString())), current);
}

void TestUpstreamValues::strategyReadInBothSpellings()
{
    const std::string oldNames = testsupport::generated(6, 7);
    QVERIFY(oldNames.find(R"("strategy":"anthropic")") != std::string::npos);
    const std::string newNames =
        testsupport::replaceAll(oldNames, R"("strategy":"anthropic")", R"("strategy":"breakpoints")");
    const auto a = load(oldNames, "old.json"), b = load(newNames, "new.json");
    QVERIFY(a && b);
    const auto sa = recording::summarizeCalls(*a), sb = recording::summarizeCalls(*b);
    QCOMPARE(sa.size(), sb.size());
    for (std::size_t i = 0; i < sa.size(); ++i) {
        QVERIFY(sa[i].checks() == sb[i].checks());
        QVERIFY(sa[i].gaps() == sb[i].gaps());
        QCOMPARE(recording::buildCallView(*a, i).cache.strategy, std::optional<std::string>("breakpoints"));
        QCOMPARE(recording::buildCallView(*b, i).cache.strategy, std::optional<std::string>("breakpoints"));
    }
    QVERIFY(report::renderHtmlReport(*b).find("strategy breakpoints") != std::string::npos);
}

void TestUpstreamValues::requestOnlyReasons_data()
{
    QTest::addColumn<QString>("reason");
    QTest::addColumn<bool>("known");
    QTest::newRow("staged-refs-nudge") << "staged-refs-nudge" << true;
    QTest::newRow("time-window-line") << "time-window-line" << true;
    QTest::newRow("evidence-conclusion") << "evidence-conclusion" << true;
    QTest::newRow("a-later-mechanism") << "some-later-line" << false;
}

void TestUpstreamValues::requestOnlyReasons()
{
    QFETCH(QString, reason);
    QFETCH(bool, known);
    // Call 3's receipt gains one request-only line (and its count one more), as a newer release writes them.
    std::string text = testsupport::generated(6, 7);
    const std::string empty = R"("requestOnly":[])";
    std::size_t at = 0;
    for (int i = 0; i < 3; ++i)
        at = text.find(empty, i ? at + 1 : 0);
    QVERIFY(at != std::string::npos);
    const std::size_t count = text.rfind(R"("count":)", at) + 8;
    const std::size_t end = text.find(',', count);
    const int n = std::stoi(text.substr(count, end - count));
    text.replace(at, empty.size(),
                 R"("requestOnly":[{"role":"user","hash":"0123456789abcdef","reason":)" +
                     json::jsQuoted(reason.toStdString()) + "}]");
    text.replace(count, end - count, std::to_string(n + 1));
    const auto run = load(text, "request-only.json");
    QVERIFY(run);
    const recording::CallView view = recording::buildCallView(*run, 2);
    const recording::PartCheck *line = testsupport::findCheck(view, "messages.requestOnly[0]");
    QVERIFY(line);
    QCOMPARE(line->badge, recording::Badge::NotOnRecord);
    QVERIFY2(line->reason.find("(" + reason.toStdString()) != std::string::npos, line->reason.c_str());
    QCOMPARE(line->reason.find("does not know") == std::string::npos, known);
    QVERIFY(!testsupport::findCheck(view, "messages.count")); // the rebuilt count with the line agrees
    QVERIFY(!view.damaged);
}

void TestUpstreamValues::newerLedgerKindsAreListedNotFolded()
{
    const char *newer[] = {"argument", "period",      "clock",       "clock-on-resume", "time-reading",
                           "call",     "call-window", "time-answer", "time-derived",    "source-clock"};
    for (const char *kind : newer)
        QVERIFY2(findings::isNewerRowKind(kind), kind);
    QVERIFY(!findings::isNewerRowKind("standing"));
    QVERIFY(!findings::isNewerRowKind("Argument"));

    // A conformance case with a piece, served once as the vector has it and once with rows of every newer kind
    // mixed in: the same piece, the rows still there, no row reported malformed.
    QFile f(QStringLiteral(TRACEFOLD_TEST_DATA "/conformance/findings-vectors.jsonl"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    std::unique_ptr<testsupport::ParsedJson> vector;
    while (!f.atEnd()) {
        auto candidate = testsupport::parseJson(f.readLine().toStdString());
        const json::Value &v = candidate->root;
        if (v.findString("kind")->stringEquals("piece") && v.findString("piece") && v.findArray("rows") &&
            v.findString("answerAsk")->stringEquals("none")) {
            vector = std::move(candidate);
            break;
        }
    }
    QVERIFY(vector);
    const json::Value &rows = *vector->root.findArray("rows");
    std::vector<std::string> served;
    for (const json::Value &id : *vector->root.findArray("served"))
        served.push_back(id.decodedString());
    json::Value mixed = json::Value::array();
    std::size_t i = 0;
    for (const char *kind : newer) {
        json::Value row = json::Value::object();
        row.set("kind", json::Value::string(kind));
        row.set("toolCallId", json::Value::string("c-" + std::string(kind)));
        row.set("from", json::Value::string("c1"));
        mixed.push_back(row);
        if (i < rows.size())
            mixed.push_back(rows.at(i++));
    }
    for (; i < rows.size(); ++i)
        mixed.push_back(rows.at(i));
    QCOMPARE(mixed.size(), rows.size() + std::size(newer));
    const auto plain = findings::composeFindingsPiece(&rows, served, findings::AnswerAsk::None);
    const auto withNewer = findings::composeFindingsPiece(&mixed, served, findings::AnswerAsk::None);
    QVERIFY(plain && withNewer);
    QVERIFY(plain->text == withNewer->text);
    QVERIFY(findings::validateRows(mixed).size() == findings::validateRows(rows).size());
    for (const json::Value &row : mixed)
        if (findings::isNewerRowKind(row.findString("kind")->asString()))
            QCOMPARE(findings::rowKindOf(row), findings::RowKind::Unknown);
}

void TestUpstreamValues::modelResultIsWhatTheModelWasServed()
{
    const std::string plain = testsupport::generated(6, 7);
    const std::string head = R"("type":"agentfootprint.stream.tool_end","payload":{"toolCallId":"call_1",)";
    const std::size_t at = plain.find(head);
    QVERIFY(at != std::string::npos);
    std::string text = plain;
    text.insert(at + head.size(), R"x("modelResult":"rows: 3 (fields stripped)",)x");
    const auto run = load(text, "model-result.json");
    QVERIFY(run);
    std::map<std::string, recording::ToolRun> byId;
    for (std::size_t i = 0; i < run->calls.size(); ++i)
        for (recording::ToolRun &r : recording::buildCallView(*run, i).toolRuns)
            byId.emplace(r.id, std::move(r));
    QVERIFY(byId.count("call_1") && byId.count("call_2"));
    const recording::ToolRun &stripped = byId.at("call_1");
    QVERIFY(stripped.stripped);
    QCOMPARE(stripped.result.value_or(""), std::string("rows: 3 (fields stripped)"));
    QVERIFY(stripped.rawResult && *stripped.rawResult != "rows: 3 (fields stripped)");
    const recording::ToolRun &whole = byId.at("call_2");
    QVERIFY(!whole.stripped);
    QVERIFY(!whole.rawResult);
    QVERIFY(whole.result && !whole.result->empty());
    // The Wire and the transcript say the same of the result messages that carry these results in later calls.
    QVERIFY(run->toolEnd("call_1")->payloadHasModelResult && !run->toolEnd("call_2")->payloadHasModelResult);
    std::set<std::string> strippedSeen, wholeSeen;
    for (std::size_t i = 0; i < run->calls.size(); ++i)
        for (const recording::MessageView &m : recording::messageViews(*run, recording::buildCallView(*run, i))) {
            if (m.toolCallId == "call_1" && m.role == "tool") {
                QVERIFY(m.stripped);
                QCOMPARE(m.rawResult.value_or(""), *stripped.rawResult);
                strippedSeen.insert(m.toolCallId);
            }
            if (m.toolCallId == "call_2" && m.role == "tool") {
                QVERIFY(!m.stripped && !m.rawResult);
                wholeSeen.insert(m.toolCallId);
            }
        }
    QCOMPARE(strippedSeen.size(), std::size_t(1));
    QCOMPARE(wholeSeen.size(), std::size_t(1));
}

void TestUpstreamValues::newerEventTypesAreKnown()
{
    std::string text = testsupport::generated(6, 7);
    const std::string events = R"("events":[)";
    const std::size_t at = text.find(events);
    QVERIFY(at != std::string::npos);
    std::string added;
    for (const char *type :
         {"agentfootprint.artifacts.hand_over_failed", "agentfootprint.findings.argument",
          "agentfootprint.answer.assessed", "agentfootprint.findings.period", "agentfootprint.risk.flagged"}) {
        QVERIFY(recording::eventtype::isNewerType(type));
        added +=
            R"({"type":")" + std::string(type) + R"(","payload":{"note":1},"meta":{"runId":"run-1787000007000-1"}},)";
    }
    QVERIFY(!recording::eventtype::isNewerType("agentfootprint.findings.unknown"));
    const auto before = load(text, "before.json");
    text.insert(at + events.size(), added);
    const auto after = load(text, "after.json");
    QVERIFY(before && after);
    QCOMPARE(after->events.size(), before->events.size() + 5);
    QVERIFY(after->unknownEventTypes.empty());
    QCOMPARE(after->calls.size(), before->calls.size());
}

void TestUpstreamValues::findingsSchemaWithFromIsReadAsIs()
{
    // 9.126: a ruled tool's _findings schema gains `from`, first and in `required`. Its schema hash moves with it;
    // a recording whose receipts hashed that schema verifies, and the run still reads as armed.
    const std::string plain = testsupport::generated(6, 7);
    const std::string findings = R"("_findings":{"type":"object","properties":{)";
    std::string text =
        testsupport::replaceAll(plain, findings,
                                R"("_findings":{"type":"object","required":["from"],"properties":{"from":)"
                                R"({"type":"string","description":"the result this cites"},)");
    QVERIFY(text != plain);
    // The receipts hash and measure each schema as committed: give them the hashes and the tools slot's size of
    // the schemas with `from`, as the release that wrote `from` would have.
    const auto unhashed = load(text, "from-unhashed.json");
    QVERIFY(unhashed);
    std::map<std::string, std::string> rewrite;
    const auto slot = [](const json::Value &size) {
        return R"("tools":{"jsonChars":)" + json::stringify(*size.find("jsonChars")) + R"(,"jsonBytes":)" +
               json::stringify(*size.find("jsonBytes")) + "}";
    };
    for (std::size_t i = 0; i < unhashed->calls.size(); ++i) {
        const recording::CallView v = recording::buildCallView(*unhashed, i);
        const json::Value &receipt = *v.receiptAfter;
        const std::string salt = receipt.findObject("basis")->findString("runId")->decodedString();
        const json::Value &hashes = *receipt.findObject("tools")->findObject("schemaHashes");
        json::Value schemas = json::Value::array();
        for (const recording::ToolView &t : v.tools) {
            rewrite[json::jsQuoted(hashes.findString(t.name)->decodedString())] =
                json::jsQuoted(receipt::receiptHash(salt, json::sortedKeyJson(*t.schema)));
            schemas.push_back(*t.schema);
        }
        const std::string rebuilt = json::stringify(schemas);
        json::Value size = json::Value::object();
        size.set("jsonChars", json::Value::number(double(rebuilt.size()))); // the schemas are ASCII
        size.set("jsonBytes", json::Value::number(double(rebuilt.size())));
        rewrite[slot(*receipt.findObject("requestMeasurement")->findObject("slots")->findObject("tools"))] = slot(size);
    }
    QVERIFY(!rewrite.empty());
    for (const auto &[from, to] : rewrite)
        text = testsupport::replaceAll(text, from, to);
    const auto run = load(text, "from.json");
    QVERIFY(run);
    QVERIFY(run->constants.armed);
    std::size_t schemasVerified = 0;
    for (const recording::CallSummary &c : recording::summarizeCalls(*run)) {
        QVERIFY2(!c.damaged, std::to_string(c.epoch).c_str());
        for (const recording::PartCheck &p : c.checks())
            if (p.part.rfind("tools.schema[", 0) == 0 && p.badge == recording::Badge::Verified)
                ++schemasVerified;
    }
    QVERIFY(schemasVerified > 0);
    QVERIFY(recording::buildCallView(*run, 1).ledgerIssues.empty());
}

QTEST_APPLESS_MAIN(TestUpstreamValues)
#include "tst_upstreamvalues.moc"
