// Redacted runs (issue 16, spec/upstream-since-9.113.md §4): with the agentfootprint.redaction row in
// snapshot.recorders, a part rebuilt from a value that is exactly REDACTED or [REDACTED] is "redacted", never
// "damaged", and the run says it was served under a redaction policy. Without the row the same bytes are damage.
// The variants are made the way the issue describes: a generated run with receipts, one tool result's text replaced
// by the placeholder everywhere the file holds it, the receipts' hashes untouched.

#include "recordingtext.h"
#include "testpacker.h"

#include "core/generate/recordinggenerator.h"
#include "core/json/parser.h"
#include "core/json/writer.h"
#include "core/recording/callview.h"
#include "core/recording/recordingloader.h"
#include "core/recording/redaction.h"
#include "core/report/htmlreport.h"
#include "core/report/inspectreport.h"

#include <QTest>

#include <set>

using namespace tf;

namespace {

// The text of the `n`th tool_end result of a recording, as its JSON literal.
std::string toolResultLiteral(const std::string &text, std::size_t n)
{
    const auto doc = testsupport::parseJson(text);
    std::size_t seen = 0;
    for (const json::Value &e : *doc->root.findArray("events"))
        if (e.findString("type")->stringEquals("agentfootprint.stream.tool_end") && seen++ == n)
            return json::stringify(*e.findObject("payload")->find("result"));
    qFatal("no tool result %zu", n);
}

struct Statuses
{
    std::set<std::string> redacted, damaged; // "epoch:part"
    bool anyViewDamaged = false;
};

Statuses statusesOf(const recording::Run &run)
{
    Statuses s;
    for (const recording::CallSummary &c : recording::summarizeCalls(run)) {
        s.anyViewDamaged = s.anyViewDamaged || c.damaged;
        for (const recording::PartCheck &p : c.checks()) {
            const std::string id = std::to_string(c.epoch) + ":" + p.part;
            if (p.badge == recording::Badge::Redacted)
                s.redacted.insert(id);
            if (p.badge == recording::Badge::Damaged)
                s.damaged.insert(id);
        }
    }
    return s;
}

bool hasGap(const recording::Run &run, const std::string &name)
{
    for (const recording::Gap &g : run.gaps)
        if (g.name == name)
            return true;
    return false;
}

} // namespace

class TestRedaction : public QObject
{
    Q_OBJECT

private slots:
    void placeholders_data();
    void placeholders();
    void redactedNotDamaged_data();
    void redactedNotDamaged();
    void withoutTheRowItIsDamage();
    void reportsAndInspectName();
};

void TestRedaction::placeholders_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<bool>("holds");
    QTest::newRow("bare") << R"("REDACTED")" << true;
    QTest::newRow("bracketed") << R"("[REDACTED]")" << true;
    QTest::newRow("nested-in-args") << R"({"toolCalls":[{"args":{"q":"[REDACTED]"}}]})" << true;
    QTest::newRow("lower-case-is-text") << R"("redacted")" << false;
    QTest::newRow("inside-longer-text") << R"("the value was [REDACTED] here")" << false;
    QTest::newRow("as-a-key-only") << R"({"REDACTED":1})" << false;
}

void TestRedaction::placeholders()
{
    QFETCH(QString, json);
    QFETCH(bool, holds);
    QCOMPARE(recording::holdsRedactionPlaceholder(testsupport::parseJson(json.toStdString())->root), holds);
}

void TestRedaction::redactedNotDamaged_data()
{
    QTest::addColumn<bool>("packedToo");
    QTest::newRow("plain") << false;
    // Packed recordings are redacted the same way (§4): the same verdicts through the expansion.
    QTest::newRow("packed") << true;
}

void TestRedaction::redactedNotDamaged()
{
    QFETCH(bool, packedToo);
    const std::string plain = testsupport::generated(10, 3);
    std::size_t replaced = 0;
    std::string redacted = testsupport::withRedactionMarker(
        testsupport::replaceAll(plain, toolResultLiteral(plain, 2), R"("[REDACTED]")", &replaced));
    QVERIFY(replaced >= 2); // the history and the tool_end event at least
    if (packedToo) {
        redacted = testpacker::pack(testsupport::parseJson(redacted)->root);
    }
    const recording::LoadResult loaded = recording::loadRecordingFromBytes(redacted, "redacted.json");
    QVERIFY2(loaded.run, loaded.error.c_str());
    QVERIFY(loaded.run->servedUnderRedaction);
    QCOMPARE(bool(loaded.run->packedFile), packedToo);
    QVERIFY(hasGap(*loaded.run, "redacted-run"));
    const Statuses s = statusesOf(*loaded.run);
    QVERIFY2(s.damaged.empty(), s.damaged.empty() ? "" : s.damaged.begin()->c_str());
    QVERIFY(!s.anyViewDamaged);
    QVERIFY(!s.redacted.empty());
    // The placeholder stands in a tool message: its entry and the request's measured size are what cannot verify.
    bool message = false, measurement = false;
    for (const std::string &id : s.redacted) {
        message = message || id.find(":messages[") != std::string::npos;
        measurement = measurement || id.find(":requestMeasurement") != std::string::npos;
    }
    QVERIFY(message);
    QVERIFY(measurement);
    for (const recording::CallSummary &c : recording::summarizeCalls(*loaded.run))
        for (const recording::PartCheck &p : c.checks())
            if (p.badge == recording::Badge::Redacted)
                QVERIFY2(p.reason.rfind("rebuilt from a value the redaction policy kept out", 0) == 0,
                         p.reason.c_str());
}

void TestRedaction::withoutTheRowItIsDamage()
{
    const std::string plain = testsupport::generated(10, 3);
    const std::string bytes = testsupport::replaceAll(plain, toolResultLiteral(plain, 2), R"("[REDACTED]")");
    const recording::LoadResult marked =
        recording::loadRecordingFromBytes(testsupport::withRedactionMarker(bytes), "marked.json");
    const recording::LoadResult unmarked = recording::loadRecordingFromBytes(bytes, "unmarked.json");
    QVERIFY(marked.run && unmarked.run);
    QVERIFY(!unmarked.run->servedUnderRedaction);
    QVERIFY(!hasGap(*unmarked.run, "redacted-run"));
    const Statuses withRow = statusesOf(*marked.run);
    const Statuses withoutRow = statusesOf(*unmarked.run);
    QVERIFY(withoutRow.redacted.empty());
    QVERIFY(withoutRow.anyViewDamaged);
    // Exactly the parts the policy explains are the ones that are damage without it.
    QVERIFY(withoutRow.damaged == withRow.redacted);
    // And the untouched recording under the row has nothing redacted: the row alone changes no verdict.
    const recording::LoadResult clean =
        recording::loadRecordingFromBytes(testsupport::withRedactionMarker(plain), "clean.json");
    QVERIFY(clean.run);
    const Statuses none = statusesOf(*clean.run);
    QVERIFY(none.redacted.empty() && none.damaged.empty());
}

void TestRedaction::reportsAndInspectName()
{
    const std::string plain = testsupport::generated(10, 3);
    const std::string redacted = testsupport::withRedactionMarker(
        testsupport::replaceAll(plain, toolResultLiteral(plain, 2), R"("[REDACTED]")"));
    const recording::LoadResult loaded = recording::loadRecordingFromBytes(redacted, "redacted.json");
    QVERIFY(loaded.run);
    const auto calls = recording::summarizeCalls(*loaded.run);
    const std::string doc = json::stringify(report::inspectJson(*loaded.run, calls));
    QVERIFY(doc.find(R"("status":"redacted")") != std::string::npos);
    QVERIFY(doc.find(R"("status":"damaged")") == std::string::npos);
    QVERIFY(doc.find(R"("gap":"redacted-run")") != std::string::npos);
    QVERIFY(doc.find(R"("redaction":true)") != std::string::npos);
    const std::string table = report::inspectTable(*loaded.run, calls);
    QVERIFY(table.find("X redacted") != std::string::npos);
    QVERIFY(table.find(" 2X") != std::string::npos);
    QVERIFY(table.find("DAMAGED") == std::string::npos);
    const std::string html = report::renderHtmlReport(*loaded.run);
    QVERIFY(html.find("chip b-redacted\">Redacted</span>") != std::string::npos);
    QVERIFY(html.find("chip b-damaged\">Damaged</span></td>") == std::string::npos);
    QVERIFY(html.find(" redacted parts</b>") != std::string::npos);
    QVERIFY(html.find("The record contradicts itself at") == std::string::npos);
}

QTEST_APPLESS_MAIN(TestRedaction)
#include "tst_redaction.moc"
