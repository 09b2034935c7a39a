// The run audit (issue 20): every rule fires exactly where the record says it should and nowhere else. Checked on
// the real recordings (tests/data/samples), on generated recordings with and without deliberate damage, and on real
// recordings edited event by event (an event removed, a clock moved, a payload changed) so each rule has a case made
// for it alone.

#include "recordingtext.h"

#include "core/audit/auditreport.h"
#include "core/audit/runaudit.h"
#include "core/findings/collapse.h"
#include "core/findings/ledgerfold.h"
#include "core/json/jsnumber.h"
#include "core/json/writer.h"
#include "core/recording/event.h"
#include "core/recording/recordingloader.h"
#include "core/report/backtrack.h"

#include <QFile>
#include <QTest>

#include <functional>
#include <map>
#include <set>

using namespace tf;
using audit::AuditRule;
using audit::Problem;
using audit::Severity;

namespace {

const QString kSamples = QStringLiteral(TRACEFOLD_TEST_DATA "/samples/");

std::string readSample(const QString &name)
{
    QFile f(kSamples + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(name));
    return f.readAll().toStdString();
}

struct Audited
{
    std::shared_ptr<const recording::Run> run;
    std::vector<recording::CallSummary> calls;
    std::vector<Problem> problems;
};

Audited auditBytes(std::string bytes, const std::string &name)
{
    Audited a;
    const recording::LoadResult loaded = recording::loadRecordingFromBytes(std::move(bytes), name);
    if (!loaded.run)
        qFatal("%s: %s", name.c_str(), loaded.error.c_str());
    a.run = loaded.run;
    a.calls = recording::summarizeCalls(*a.run);
    a.problems = audit::auditRun(*a.run, a.calls);
    return a;
}

Audited auditGenerated(generate::GeneratorOptions options)
{
    return auditBytes(generate::generateRecording(options), "generated.json");
}

// "rule@call" per problem ("rule@run" for the run as a whole), with "/part" when the problem names one: the whole
// list compared at once says both where a rule fires and that nothing else does.
QStringList where(const std::vector<Problem> &problems)
{
    QStringList out;
    for (const Problem &p : problems) {
        QString s = QString::fromLatin1(audit::auditRuleId(p.rule)) + QLatin1Char('@') +
                    (p.call ? QString::number(*p.call + 1) : QStringLiteral("run"));
        if (!p.part.empty())
            s += QLatin1Char('/') + QString::fromStdString(p.part);
        out << s;
    }
    return out;
}

QStringList whereRule(const std::vector<Problem> &problems, AuditRule rule)
{
    std::vector<Problem> only;
    for (const Problem &p : problems)
        if (p.rule == rule)
            only.push_back(p);
    return where(only);
}

// Edits a plain recording's event list through the core's own JSON (which keeps JavaScript member order and
// numbers) and writes it back as JSON.stringify would.
std::string editEvents(std::string text, const std::function<void(std::vector<json::Value> &)> &edit)
{
    auto doc = testsupport::parseJson(std::move(text));
    const json::Value *events = doc->root.findArray("events");
    if (!events)
        qFatal("no events array");
    std::vector<json::Value> list(events->begin(), events->end());
    edit(list);
    doc->root.set("events", json::Value::arrayFromItems(std::move(list)));
    return json::stringify(doc->root);
}

// The index in `events` of the n-th (0-based) event of `type`.
std::size_t nthEvent(const std::vector<json::Value> &events, std::string_view type, std::size_t n)
{
    for (std::size_t i = 0; i < events.size(); ++i) {
        const json::Value *t = events[i].findString("type");
        if (t && t->asString() == type && n-- == 0)
            return i;
    }
    qFatal("no such event");
    return 0;
}

std::string withoutEvent(std::string text, std::string_view type, std::size_t n)
{
    return editEvents(std::move(text), [&](std::vector<json::Value> &events) {
        events.erase(events.begin() + std::ptrdiff_t(nthEvent(events, type, n)));
    });
}

// A copy of the last event with another type and payload, appended (its meta: the last run's id and clock).
std::string withEventAppended(std::string text, std::string_view type, const std::string &payloadJson)
{
    auto payload = testsupport::parseJson(payloadJson);
    return editEvents(std::move(text), [&](std::vector<json::Value> &events) {
        json::Value e = events.back();
        e.set("type", json::Value::string(std::string(type)));
        e.set("payload", payload->root);
        events.push_back(e);
    });
}

// Every event from the n-th llm_start on happens `ms` later.
std::string withClockMoved(std::string text, std::size_t fromLlmStart, double ms)
{
    return editEvents(std::move(text), [&](std::vector<json::Value> &events) {
        for (std::size_t i = nthEvent(events, recording::eventtype::LlmStart, fromLlmStart); i < events.size(); ++i) {
            json::Value &meta = events[i].memberRef("meta");
            meta.set("wallClockMs", json::Value::number(meta.findNumber("wallClockMs")->asNumber() + ms));
        }
    });
}

std::string withPayloadMember(std::string text, std::string_view type, std::size_t n, std::string_view member,
                              json::Value value)
{
    return editEvents(std::move(text), [&](std::vector<json::Value> &events) {
        events[nthEvent(events, type, n)].memberRef("payload").set(member, std::move(value));
    });
}

// llm_end n's usage.cacheWrite set to `tokens`.
std::string withCacheWrite(std::string text, std::size_t n, double tokens)
{
    return editEvents(std::move(text), [&](std::vector<json::Value> &events) {
        json::Value &usage =
            events[nthEvent(events, recording::eventtype::LlmEnd, n)].memberRef("payload").memberRef("usage");
        usage.set("cacheWrite", json::Value::number(tokens));
    });
}

const Problem *firstOf(const std::vector<Problem> &problems, AuditRule rule)
{
    for (const Problem &p : problems)
        if (p.rule == rule)
            return &p;
    return nullptr;
}

} // namespace

using RecordingEdit = std::function<std::string(std::string)>;
Q_DECLARE_METATYPE(RecordingEdit)

class TestAudit : public QObject
{
    Q_OBJECT

private slots:
    void ruleTable_data();
    void ruleTable();
    void realRecordings_data();
    void realRecordings();
    void realMessagesQuoteTheRecord();
    void madeUp_data();
    void madeUp();
    void runFailedWithoutMessage();
    void ttlGapNeedsMoreThanTheTtl();
    void generatedClean();
    void generatedDamage_data();
    void generatedDamage();
    void cacheRewriteStreakNeedsThreeInARow();
    void answerRulesOnGeneratedRuns();
    void evidenceEvictedBeforeTheAnswer();
    void evidenceCollapsedToATicket();
    void orderAndCounts();
    void textAndJson();
};

void TestAudit::ruleTable_data()
{
    QTest::addColumn<int>("rule");
    QTest::addColumn<QString>("id");
    QTest::addColumn<int>("severity");
    // The issue's table, plus the two rules the record supports beside it (run-incomplete, contingent-at-answer).
    const struct
    {
        AuditRule rule;
        const char *id;
        Severity severity;
    } rows[] = {
        {AuditRule::RunFailed, "run-failed", Severity::Error},
        {AuditRule::RunIncomplete, "run-incomplete", Severity::Warning},
        {AuditRule::NoResponse, "no-response", Severity::Error},
        {AuditRule::ReceiptDamaged, "receipt-damaged", Severity::Error},
        {AuditRule::ToolError, "tool-error", Severity::Warning},
        {AuditRule::ToolNeverReturned, "tool-never-returned", Severity::Warning},
        {AuditRule::LimitHit, "limit-hit", Severity::Warning},
        {AuditRule::BudgetPressure, "budget-pressure", Severity::Warning},
        {AuditRule::CacheRewriteStreak, "cache-rewrite-streak", Severity::Warning},
        {AuditRule::TtlGap, "ttl-gap", Severity::Info},
        {AuditRule::Paused, "paused", Severity::Info},
        {AuditRule::ConflictAtAnswer, "conflict-at-answer", Severity::Warning},
        {AuditRule::EvidenceCollapsed, "evidence-collapsed", Severity::Warning},
        {AuditRule::ContingentAtAnswer, "contingent-at-answer", Severity::Warning},
        {AuditRule::UndeclaredAtAnswer, "undeclared-at-answer", Severity::Info},
    };
    QCOMPARE(int(std::size(rows)), audit::kAuditRuleCount);
    for (const auto &r : rows)
        QTest::newRow(r.id) << int(r.rule) << QString::fromLatin1(r.id) << int(r.severity);
}

void TestAudit::ruleTable()
{
    QFETCH(int, rule);
    QFETCH(QString, id);
    QFETCH(int, severity);
    QCOMPARE(QString::fromLatin1(audit::auditRuleId(AuditRule(rule))), id);
    QCOMPARE(int(audit::auditRuleSeverity(AuditRule(rule))), severity);
    QVERIFY(std::string_view(audit::auditRuleCondition(AuditRule(rule))).size() > 20);
}

void TestAudit::realRecordings_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("expected");
    // Clean runs: nothing.
    for (const char *f :
         {"agentfootprint-demo-turn.json", "agentfootprint-reference-agent-findings.json",
          "lens-skill-route-refusal.json", "lens-tool-progress-turn.json", "real-9.62/dev-2-conversation.json",
          "real-9.62/dev-5-envelope.json", "real-9.62/dev-6-events.ndjson", "real-9.62/dev-7b-resumed.json"})
        QTest::newRow(f) << QString::fromLatin1(f) << QStringList();
    // The messages slot came under pressure before each of the last three calls.
    QTest::newRow("dev-1-research") << QStringLiteral("real-9.62/dev-1-research.json")
                                    << QStringList{"budget-pressure@4", "budget-pressure@5", "budget-pressure@6"};
    QTest::newRow("dev-3-tool-errors") << QStringLiteral("real-9.62/dev-3-tool-errors.json")
                                       << QStringList{"tool-error@1", "tool-error@3"};
    QTest::newRow("dev-4-crash") << QStringLiteral("real-9.62/dev-4-crash.json")
                                 << QStringList{"run-failed@run", "no-response@3"};
    // The tool that asked the human has no tool_end: that is the pause, not a tool that never returned.
    QTest::newRow("dev-7-paused") << QStringLiteral("real-9.62/dev-7-paused-or-limited.json")
                                  << QStringList{"paused@2"};
    // route_decided wrap-up, cost.limit_hit and budget_exhausted, each as recorded, at the third call.
    QTest::newRow("dev-8-max-iterations") << QStringLiteral("real-9.62/dev-8-max-iterations.json")
                                          << QStringList{"limit-hit@3", "limit-hit@3", "limit-hit@3"};
}

void TestAudit::realRecordings()
{
    QFETCH(QString, file);
    QFETCH(QStringList, expected);
    const recording::LoadResult loaded = recording::loadRecording((kSamples + file).toStdString());
    QVERIFY2(loaded.run, loaded.error.c_str());
    const auto problems = audit::auditRun(*loaded.run, recording::summarizeCalls(*loaded.run));
    QCOMPARE(where(problems), expected);
    for (const Problem &p : problems) {
        QCOMPARE(p.severity, audit::auditRuleSeverity(p.rule));
        QVERIFY(!p.message.empty());
    }
}

void TestAudit::realMessagesQuoteTheRecord()
{
    const auto crash = auditBytes(readSample("real-9.62/dev-4-crash.json"), "dev-4");
    QCOMPARE(crash.problems[0].message,
             std::string("The AI call failed: 529 overloaded_error: the model is temporarily overloaded, please retry "
                         "later (request req_7f3a91)"));
    const auto tools = auditBytes(readSample("real-9.62/dev-3-tool-errors.json"), "dev-3");
    QCOMPARE(tools.problems[0].message,
             std::string("pipeline_status (ci-1) threw; the model was served the error: ci-api: request timed out "
                         "after 10000 ms (GET /pipelines/payments-api/latest)"));
    QVERIFY(tools.problems[1].message.find("fetch_job_log") == 0);
    QVERIFY(tools.problems[1].message.find("403 Forbidden") != std::string::npos);
    const auto paused = auditBytes(readSample("real-9.62/dev-7-paused-or-limited.json"), "dev-7");
    QVERIFY(paused.problems[0].message.find("Approve read-only access to prod-orders-db") != std::string::npos);
    const auto limits = auditBytes(readSample("real-9.62/dev-8-max-iterations.json"), "dev-8");
    QStringList kinds;
    for (const Problem &p : limits.problems)
        kinds << QString::fromStdString(p.message.substr(0, p.message.find(':')));
    QCOMPARE(kinds, (QStringList{"wrap-up", "cost.limit_hit", "budget_exhausted"}));
}

void TestAudit::madeUp_data()
{
    using namespace recording::eventtype;
    QTest::addColumn<QString>("base");
    QTest::addColumn<RecordingEdit>("edit");
    QTest::addColumn<QStringList>("expected");
    const QString conversation = QStringLiteral("real-9.62/dev-2-conversation.json");
    QTest::newRow("no-response: llm_end of call 3 removed")
        << conversation << RecordingEdit([](std::string t) { return withoutEvent(std::move(t), LlmEnd, 2); })
        << QStringList{"no-response@3"};
    QTest::newRow("tool-never-returned: tool_end of call 1's tool removed")
        << conversation << RecordingEdit([](std::string t) { return withoutEvent(std::move(t), ToolEnd, 0); })
        << QStringList{"tool-never-returned@1"};
    QTest::newRow("tool-error: call 6's tool marked as thrown") << conversation << RecordingEdit([](std::string t) {
        return withPayloadMember(std::move(t), ToolEnd, 3, "error", json::Value::boolean(true));
    }) << QStringList{"tool-error@6"};
    QTest::newRow("run-incomplete: the last turn_end removed")
        << conversation << RecordingEdit([](std::string t) { return withoutEvent(std::move(t), TurnEnd, 3); })
        << QStringList{"run-incomplete@run"};
    QTest::newRow("run-failed: an error.fatal after the last call") << conversation << RecordingEdit([](std::string t) {
        return withEventAppended(std::move(t), ErrorFatal, R"({"error":"boom at the end","stage":"__root__"})");
    }) << QStringList{"run-failed@run"};
    QTest::newRow("budget-pressure: after the last call, before no call")
        << conversation << RecordingEdit([](std::string t) {
               return withEventAppended(std::move(t), BudgetPressure,
                                        R"({"slot":"messages","cap":100,"projected":180,"overflowBy":80})");
           })
        << QStringList{"budget-pressure@run"};
    QTest::newRow("limit-hit: a cost.limit_hit after the last call")
        << conversation << RecordingEdit([](std::string t) {
               return withEventAppended(std::move(t), CostLimitHit, R"({"kind":"tokens","limit":10,"actual":11})");
           })
        << QStringList{"limit-hit@7"};
    QTest::newRow("ttl-gap: call 4 six minutes after call 3")
        << conversation << RecordingEdit([](std::string t) { return withClockMoved(std::move(t), 3, 6 * 60000.0); })
        << QStringList{"ttl-gap@4"};
    QTest::newRow("ttl-gap: call 2, an hour and a half later")
        << conversation << RecordingEdit([](std::string t) { return withClockMoved(std::move(t), 1, 90 * 60000.0); })
        << QStringList{"ttl-gap@2"};
}

void TestAudit::madeUp()
{
    QFETCH(QString, base);
    QFETCH(RecordingEdit, edit);
    QFETCH(QStringList, expected);
    const std::string original = readSample(base);
    // The unedited recording is clean, so whatever fires comes from the edit.
    QCOMPARE(where(auditBytes(original, "original.json").problems), QStringList());
    const Audited edited = auditBytes(edit(original), "edited.json");
    QCOMPARE(where(edited.problems), expected);
}

void TestAudit::runFailedWithoutMessage()
{
    const Audited a = auditBytes(withEventAppended(readSample("real-9.62/dev-2-conversation.json"),
                                                   recording::eventtype::ErrorFatal, R"({"stage":"__root__"})"),
                                 "fatal.json");
    QCOMPARE(where(a.problems), QStringList{"run-failed@run"});
    QCOMPARE(a.problems[0].message, std::string("an error.fatal event is on record without an error message"));
}

void TestAudit::ttlGapNeedsMoreThanTheTtl()
{
    // Four minutes is within the five-minute TTL; the gap the call summary measured is the one quoted.
    const std::string conversation = readSample("real-9.62/dev-2-conversation.json");
    QCOMPARE(where(auditBytes(withClockMoved(conversation, 3, 4 * 60000.0), "gap.json").problems), QStringList());
    const Audited a = auditBytes(withClockMoved(conversation, 3, 6 * 60000.0), "gap.json");
    QVERIFY(a.calls[3].pastTtl);
    QVERIFY(*a.calls[3].gapMs > 6 * 60000.0 && *a.calls[3].gapMs < 6 * 60000.0 + 5000);
    QVERIFY2(a.problems[0].message.find("6 min since the previous call, past the cache TTL of 5 min") == 0,
             a.problems[0].message.c_str());
}

void TestAudit::generatedClean()
{
    // A generated run has no failure, no damage and no tool trouble: whatever fires is about the cache or the
    // answer (the generator's armed run rewrites its cache, keeps conflicts and files a contingent row on purpose).
    for (std::uint64_t seed : {1, 5, 9}) {
        generate::GeneratorOptions options;
        options.calls = 24;
        options.seed = seed;
        const Audited a = auditGenerated(options);
        const audit::ProblemCounts n = audit::countProblems(a.problems);
        QCOMPARE(n.errors, std::size_t(0));
        for (const Problem &p : a.problems)
            QVERIFY2(p.rule == AuditRule::CacheRewriteStreak || p.rule == AuditRule::TtlGap ||
                         p.rule == AuditRule::ConflictAtAnswer || p.rule == AuditRule::ContingentAtAnswer ||
                         p.rule == AuditRule::UndeclaredAtAnswer,
                     audit::auditRuleId(p.rule));
        // ttl-gap exactly where the call summary says the gap passed the TTL.
        QStringList ttl;
        for (const recording::CallSummary &c : a.calls)
            if (c.pastTtl)
                ttl << QStringLiteral("ttl-gap@%1").arg(c.ordinal + 1);
        QCOMPARE(whereRule(a.problems, AuditRule::TtlGap), ttl);
    }
}

void TestAudit::generatedDamage_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("call");
    QTest::addColumn<QStringList>("expected");
    using Kind = generate::Damage::Kind;
    // A schema byte damages that call's tools only; a message byte and a quoted ledger row stay in what every later
    // call is served, so every call from the damaged one on is damaged.
    QTest::newRow("schema-call-6") << int(Kind::SchemaByte) << 6
                                   << QStringList{"receipt-damaged@6/tools.schema[lookup_port]",
                                                  "receipt-damaged@6/requestMeasurement"};
    QTest::newRow("schema-call-3") << int(Kind::SchemaByte) << 3 << QStringList();
    QTest::newRow("message-call-3") << int(Kind::MessageByte) << 3 << QStringList();
    QTest::newRow("piece-call-6") << int(Kind::PieceRow) << 6 << QStringList();
}

void TestAudit::generatedDamage()
{
    QFETCH(int, kind);
    QFETCH(int, call);
    QFETCH(QStringList, expected);
    generate::GeneratorOptions options;
    options.calls = 12;
    options.seed = 5;
    options.damage = {generate::Damage::Kind(kind), call};
    const Audited a = auditGenerated(options);
    // Every damaged part the receipt verification found, and nothing else, is a receipt-damaged problem.
    QStringList damaged;
    for (const recording::CallSummary &c : a.calls)
        for (const recording::PartCheck &p : c.checks())
            if (p.badge == recording::Badge::Damaged)
                damaged
                    << QStringLiteral("receipt-damaged@%1/%2").arg(c.ordinal + 1).arg(QString::fromStdString(p.part));
    QVERIFY(!damaged.isEmpty());
    QCOMPARE(whereRule(a.problems, AuditRule::ReceiptDamaged), damaged);
    if (!expected.isEmpty())
        QCOMPARE(damaged, expected);
    // The first damaged call is the one the damage was aimed at (or the next, for a row filed before it).
    const Problem *first = firstOf(a.problems, AuditRule::ReceiptDamaged);
    QVERIFY(*first->call + 1 >= std::size_t(call) && *first->call + 1 <= std::size_t(call) + 1);
    // Receipt damage is the only error.
    for (const Problem &p : a.problems)
        if (p.severity == Severity::Error)
            QCOMPARE(p.rule, AuditRule::ReceiptDamaged);
}

void TestAudit::cacheRewriteStreakNeedsThreeInARow()
{
    generate::GeneratorOptions options;
    options.calls = 12;
    options.seed = 5;
    const std::string text = generate::generateRecording(options);
    const Audited a = auditBytes(text, "generated.json");
    // The fixture: calls 2-5 and 7-10 each wrote the cache over a prefix that could not be reused; 6 and 11 reused it.
    for (std::size_t i : {1, 2, 3, 4, 6, 7, 8, 9}) {
        QVERIFY(a.calls[i].cacheWrite.value_or(0) > 0);
        QCOMPARE(a.calls[i].prefixReusable, std::optional<bool>(false));
    }
    QCOMPARE(a.calls[5].prefixReusable, std::optional<bool>(true));
    QCOMPARE(a.calls[10].prefixReusable, std::optional<bool>(true));
    QCOMPARE(whereRule(a.problems, AuditRule::CacheRewriteStreak),
             (QStringList{"cache-rewrite-streak@2", "cache-rewrite-streak@7"}));
    double written = 0;
    for (std::size_t i = 1; i <= 4; ++i)
        written += *a.calls[i].cacheWrite;
    QCOMPARE(firstOf(a.problems, AuditRule::CacheRewriteStreak)->message,
             "calls 2\u20135: 4 calls in a row wrote the cache and could not reuse the prefix, " +
                 json::jsNumberToString(written) + " tokens written");

    // Call 5 wrote nothing: 2-4 is still three in a row. Call 4 wrote nothing: 2-3 is two, and 5 alone is one.
    const Audited three = auditBytes(withCacheWrite(text, 4, 0), "three.json");
    QCOMPARE(whereRule(three.problems, AuditRule::CacheRewriteStreak),
             (QStringList{"cache-rewrite-streak@2", "cache-rewrite-streak@7"}));
    QVERIFY(firstOf(three.problems, AuditRule::CacheRewriteStreak)->message.find("calls 2\u20134: 3 calls") == 0);
    const Audited two = auditBytes(withCacheWrite(text, 3, 0), "two.json");
    QCOMPARE(whereRule(two.problems, AuditRule::CacheRewriteStreak), QStringList{"cache-rewrite-streak@7"});
}

void TestAudit::answerRulesOnGeneratedRuns()
{
    for (std::uint64_t seed : {3, 7}) {
        generate::GeneratorOptions options;
        options.calls = 20;
        options.seed = seed;
        const Audited a = auditGenerated(options);
        const std::string last = std::to_string(a.run->calls.size());
        // The conflicts of the final fold, counted here from the final ledger itself.
        const json::Value ledger = *a.run->finalLedger();
        const findings::LedgerFold fold = findings::foldLedger(ledger);
        QVERIFY(!fold.conflicts.empty());
        QCOMPARE(whereRule(a.problems, AuditRule::ConflictAtAnswer),
                 QStringList{QString::fromStdString("conflict-at-answer@" + last)});
        QVERIFY(firstOf(a.problems, AuditRule::ConflictAtAnswer)
                    ->message.find(std::to_string(fold.conflicts.size()) + " conflict") == 0);
        // The generator's answer files one contingent row ("replace the optic").
        QCOMPARE(whereRule(a.problems, AuditRule::ContingentAtAnswer),
                 QStringList{QString::fromStdString("contingent-at-answer@" + last)});
        QVERIFY(firstOf(a.problems, AuditRule::ContingentAtAnswer)->message.find("\u201Creplace the optic\u201D") !=
                std::string::npos);
        // Undeclared results at the answer: those the final call was served that no standing names.
        const recording::CallView final = recording::buildCallView(*a.run, a.run->calls.size() - 1);
        const std::vector<std::string> undeclared = findings::undeclaredIds(final.servedIds, fold);
        QCOMPARE(whereRule(a.problems, AuditRule::UndeclaredAtAnswer),
                 undeclared.empty() ? QStringList()
                                    : QStringList{QString::fromStdString("undeclared-at-answer@" + last)});
        // The answer uses no fact value, so nothing it uses rests on results it was not served.
        QCOMPARE(whereRule(a.problems, AuditRule::EvidenceCollapsed), QStringList());
    }
    // Not armed: no answer rule fires on the real runs (realRecordings), and none without an answer on record.
    const Audited crash = auditBytes(readSample("real-9.62/dev-4-crash.json"), "dev-4");
    QVERIFY(!crash.run->finalAnswer);
}

void TestAudit::evidenceEvictedBeforeTheAnswer()
{
    // A long run whose history keeps only the last messages: early fact results are evicted by the answer call
    // while their fact rows stand in the ledger.
    generate::GeneratorOptions options;
    options.calls = 40;
    options.seed = 4;
    options.historyWindow = 8;
    const std::string text = generate::generateRecording(options);
    const Audited plain = auditBytes(text, "window.json");
    const recording::CallView final = recording::buildCallView(*plain.run, plain.run->calls.size() - 1);
    QVERIFY(final.conversationOnRecord);
    std::set<std::string> inHistory;
    for (const json::Value &m : final.committed)
        if (findings::isResultMessage(m))
            if (const json::Value *id = m.findString("toolCallId"))
                inHistory.insert(id->decodedString());
    const json::Value ledger = *plain.run->finalLedger();
    const findings::LedgerFold fold = findings::foldLedger(ledger);
    // String fact values by whether every result asserting them is still in the answer call's history.
    std::map<std::string, bool> allEvicted;
    for (const findings::AssertionRef &ref : fold.asserted) {
        const json::Value *v = ref.assertion->find("value");
        if (!v || !(v->isString() || v->isNumber()))
            continue;
        const std::string value = v->isString() ? v->decodedString() : json::jsNumberToString(v->asNumber());
        if (value.size() < 3)
            continue;
        const std::string id = ref.row->findString("toolCallId")->decodedString();
        auto [it, fresh] = allEvicted.emplace(value, true);
        it->second = it->second && !inHistory.count(id);
    }
    std::string evicted, kept;
    for (const auto &[value, gone] : allEvicted) {
        std::string &pick = gone ? evicted : kept;
        if (pick.empty())
            pick = value;
    }
    QVERIFY2(!evicted.empty() && !kept.empty(), "the fixture needs an evicted and a kept fact value");

    const auto answered = [&](const std::string &answer) {
        std::string edited = editEvents(text, [&](std::vector<json::Value> &events) {
            events[nthEvent(events, recording::eventtype::TurnEnd, 0)].memberRef("payload").set(
                "finalContent", json::Value::string(answer));
        });
        return auditBytes(std::move(edited), "answered.json");
    };
    const std::string last = std::to_string(plain.run->calls.size());
    const Audited usesEvicted = answered("The port is " + evicted + ".");
    QCOMPARE(whereRule(usesEvicted.problems, AuditRule::EvidenceCollapsed),
             QStringList{QString::fromStdString("evidence-collapsed@" + last)});
    const Problem *p = firstOf(usesEvicted.problems, AuditRule::EvidenceCollapsed);
    QVERIFY(p->message.find("\u201C" + evicted + "\u201D") != std::string::npos);
    QVERIFY(p->message.find("(no longer in the history)") != std::string::npos);
    const Audited usesKept = answered("The port is " + kept + ".");
    QCOMPARE(whereRule(usesKept.problems, AuditRule::EvidenceCollapsed), QStringList());
}

void TestAudit::evidenceCollapsedToATicket()
{
    // Under findingsServe "ledger-only" (bench-gated upstream) a fact result is collapsed too (spec/findings.md §5):
    // the answer call is served its ticket, not the content a value it uses came from.
    const std::string text = testsupport::generated(20, 3);
    std::size_t modes = 0;
    const std::string ledgerOnly = testsupport::replaceAll(text, "\"findingsServe\":\"ledger-and-facts\"",
                                                           "\"findingsServe\":\"ledger-only\"", &modes);
    QCOMPARE(modes, std::size_t(1));
    const Audited plain = auditBytes(ledgerOnly, "ledger-only.json");
    const recording::CallView final = recording::buildCallView(*plain.run, plain.run->calls.size() - 1);
    std::set<std::string> tickets;
    for (const findings::CollapsedMessage &c : final.collapsed)
        tickets.insert(c.toolCallId);
    QVERIFY(!tickets.empty());
    // Fact values of the final fold by whether every result asserting them reached the answer call as a ticket.
    const json::Value ledger = *plain.run->finalLedger();
    const findings::LedgerFold fold = findings::foldLedger(ledger);
    std::map<std::string, bool> allTickets;
    for (const findings::AssertionRef &ref : fold.asserted) {
        const json::Value *v = ref.assertion->find("value");
        if (!v || !(v->isString() || v->isNumber()))
            continue;
        const std::string value = v->isString() ? v->decodedString() : json::jsNumberToString(v->asNumber());
        if (value.size() < 3)
            continue;
        const std::string id = ref.row->findString("toolCallId")->decodedString();
        auto [it, fresh] = allTickets.emplace(value, true);
        it->second = it->second && tickets.count(id);
    }
    std::string collapsedValue, servedValue;
    for (const auto &[value, collapsed] : allTickets) {
        std::string &pick = collapsed ? collapsedValue : servedValue;
        if (pick.empty())
            pick = value;
    }
    QVERIFY2(!collapsedValue.empty() && !servedValue.empty(), "the fixture needs a collapsed and a served value");

    const auto answered = [&](const std::string &recording, const std::string &value) {
        std::string edited = editEvents(recording, [&](std::vector<json::Value> &events) {
            events[nthEvent(events, recording::eventtype::TurnEnd, 0)].memberRef("payload").set(
                "finalContent", json::Value::string("The port is " + value + "."));
        });
        return auditBytes(std::move(edited), "answered.json");
    };
    const std::string last = std::to_string(plain.run->calls.size());
    const Audited collapsed = answered(ledgerOnly, collapsedValue);
    QCOMPARE(whereRule(collapsed.problems, AuditRule::EvidenceCollapsed),
             QStringList{QString::fromStdString("evidence-collapsed@" + last)});
    const Problem *p = firstOf(collapsed.problems, AuditRule::EvidenceCollapsed);
    QVERIFY(p->message.find("\u201C" + collapsedValue + "\u201D") != std::string::npos);
    QVERIFY2(p->message.find("(collapsed to a ticket)") != std::string::npos, p->message.c_str());
    // A value some result still carries in full, and the same value served in full under ledger-and-facts.
    QCOMPARE(whereRule(answered(ledgerOnly, servedValue).problems, AuditRule::EvidenceCollapsed), QStringList());
    QCOMPARE(whereRule(answered(text, collapsedValue).problems, AuditRule::EvidenceCollapsed), QStringList());
}

void TestAudit::orderAndCounts()
{
    generate::GeneratorOptions options;
    options.calls = 12;
    options.seed = 5;
    options.damage = {generate::Damage::Kind::PieceRow, 6};
    const Audited a = auditGenerated(options);
    // Run-level first, then by call, rule order within a call.
    for (std::size_t i = 1; i < a.problems.size(); ++i) {
        const Problem &x = a.problems[i - 1], &y = a.problems[i];
        const std::size_t kx = x.call ? *x.call + 1 : 0, ky = y.call ? *y.call + 1 : 0;
        QVERIFY(kx < ky || (kx == ky && int(x.rule) <= int(y.rule)));
    }
    const audit::ProblemCounts n = audit::countProblems(a.problems);
    QCOMPARE(n.total(), a.problems.size());
    QCOMPARE(n.errors, std::size_t(whereRule(a.problems, AuditRule::ReceiptDamaged).size()));
    const auto worst = audit::worstSeverityByCall(a.problems, a.run->calls.size());
    QCOMPARE(worst.size(), a.run->calls.size());
    for (std::size_t c = 0; c < worst.size(); ++c) {
        std::optional<Severity> expected;
        for (const Problem &p : a.problems)
            if (p.call == c && (!expected || int(p.severity) < int(*expected)))
                expected = p.severity;
        QCOMPARE(worst[c], expected);
    }
    QCOMPARE(worst[6], std::optional<Severity>(Severity::Error));
}

void TestAudit::textAndJson()
{
    const Audited a = auditBytes(readSample("real-9.62/dev-4-crash.json"), "crash.json");
    QCOMPARE(audit::auditText(*a.run, a.problems),
             std::string("crash.json: run: error: The AI call failed: 529 overloaded_error: the model is temporarily "
                         "overloaded, please retry later (request req_7f3a91) [run-failed]\n"
                         "crash.json: call 3: error: no response on record: the call's llm_start has no llm_end; the "
                         "run failed at this call [no-response]\n"
                         "crash.json: 2 problems: 2 errors, 0 warnings, 0 info (3 calls)\n"));
    const Audited clean = auditBytes(readSample("real-9.62/dev-2-conversation.json"), "clean.json");
    QCOMPARE(audit::auditText(*clean.run, clean.problems), std::string("clean.json: no problems found (7 calls)\n"));
    // A control character from the recording never reaches the terminal as is.
    const Audited hostile =
        auditBytes(withEventAppended(readSample("real-9.62/dev-2-conversation.json"), recording::eventtype::ErrorFatal,
                                     R"({"error":"bad\u001b[2Jnews\nsecond line"})"),
                   "hostile.json");
    const std::string line = audit::auditText(*hostile.run, hostile.problems);
    QVERIFY(line.find('\x1b') == std::string::npos);
    QCOMPARE(std::count(line.begin(), line.end(), '\n'), std::ptrdiff_t(2));
    const json::Value doc = audit::auditJson(*a.run, a.problems);
    const std::string expected = "{\"schema\":1,\"file\":\"crash.json\",\"problems\":[{\"rule\":\"run-failed\","
                                 "\"severity\":\"error\",\"call\":null,\"message\":\"The AI call failed: 529 "
                                 "overloaded_error: the model is temporarily overloaded, please retry later (request "
                                 "req_7f3a91)\"},{\"rule\":\"no-response\",\"severity\":\"error\",\"call\":3,"
                                 "\"message\":\"no response on record: the call's llm_start has no llm_end; the run "
                                 "failed at this call\"}]}";
    QCOMPARE(json::stringify(doc), expected);
}

QTEST_APPLESS_MAIN(TestAudit)
#include "tst_audit.moc"
