// The real agentfootprint 9.62.0 recordings (tests/data/samples/real-9.62): every fact derive-facts.js wrote into
// facts.json, checked against what the core shows, plus the turns, responses, tool runs and outcomes of
// spec/runs.md. facts.json is read with Qt's JSON reader, so the expectations never pass through the core's own.

#include "core/recording/callview.h"
#include "core/recording/recordingloader.h"
#include "core/text/utf.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <map>

using namespace tf;
using recording::CallSummary;
using recording::CallView;
using recording::OutcomeStatus;
using recording::Run;

namespace {

const QString kDir = QStringLiteral(TRACEFOLD_TEST_DATA "/samples/real-9.62/");

QJsonObject factsOf(const QString &file)
{
    QFile f(kDir + QStringLiteral("facts.json"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("facts.json is missing");
    return QJsonDocument::fromJson(f.readAll())
        .object()
        .value(QStringLiteral("files"))
        .toObject()
        .value(file)
        .toObject();
}

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QJsonValue optNumber(const std::optional<double> &d)
{
    return d ? QJsonValue(*d) : QJsonValue(QJsonValue::Undefined); // absent, as facts.json leaves it out
}

struct Loaded
{
    std::shared_ptr<const Run> run;
    std::vector<CallSummary> calls;
    std::vector<CallView> views;
};

Loaded load(const QString &file)
{
    Loaded l;
    const recording::LoadResult result = recording::loadRecording((kDir + file).toStdString());
    if (!result.run)
        qFatal("%s: %s", qPrintable(file), result.error.c_str());
    l.run = result.run;
    l.calls = recording::summarizeCalls(*l.run);
    for (std::size_t i = 0; i < l.run->calls.size(); ++i)
        l.views.push_back(recording::buildCallView(*l.run, i));
    return l;
}

} // namespace

class TestRealRuns : public QObject
{
    Q_OBJECT

private slots:
    void facts_data();
    void facts();
    void outcomes_data();
    void outcomes();
    void conversationTurns();
    void crashedCallHasNoResponse();
    void toolErrors();
    void pausedAndResumed();
    void maxIterations();
    void researchRunResponses();
};

void TestRealRuns::facts_data()
{
    QTest::addColumn<QString>("file");
    for (const char *f : {"dev-1-research.json", "dev-2-conversation.json", "dev-3-tool-errors.json",
                          "dev-4-crash.json", "dev-5-envelope.json", "dev-6-events.ndjson",
                          "dev-7-paused-or-limited.json", "dev-7b-resumed.json", "dev-8-max-iterations.json"})
        QTest::newRow(f) << QString::fromLatin1(f);
}

void TestRealRuns::facts()
{
    QFETCH(QString, file);
    const QJsonObject facts = factsOf(file);
    QVERIFY2(!facts.isEmpty(), "no facts for this file");
    const Loaded l = load(file);
    const Run &run = *l.run;

    QCOMPARE(qint64(run.source->bytes().size()), facts.value("bytes").toInteger());
    QCOMPARE(qint64(run.events.size()), facts.value("events").toInteger());
    std::map<QString, int> typeCounts;
    for (const recording::Event &e : run.events)
        ++typeCounts[qs(e.type)];
    const QJsonObject expectedCounts = facts.value("eventTypeCounts").toObject();
    for (auto it = expectedCounts.begin(); it != expectedCounts.end(); ++it)
        QCOMPARE(typeCounts[it.key()], it.value().toInt());
    QCOMPARE(typeCounts.size(), std::size_t(expectedCounts.size()));

    // Calls, numbered 1..N across every turn.
    const qint64 calls = facts.value("calls").toInteger();
    QCOMPARE(qint64(run.calls.size()), calls);
    QCOMPARE(qint64(l.calls.size()), calls);
    qint64 responses = 0;
    for (std::size_t i = 0; i < l.calls.size(); ++i) {
        QCOMPARE(l.calls[i].ordinal, i);
        responses += l.calls[i].response.has_value();
    }
    QCOMPARE(responses, facts.value("llmEndCount").toInteger());

    const QJsonArray messages = facts.value("messagesPerCall").toArray();
    const QJsonArray tools = facts.value("toolsOfferedPerCall").toArray();
    const QJsonArray iterations = facts.value("iterationPerCall").toArray();
    const QJsonArray systemText = facts.value("systemPromptTextRecorded").toArray();
    const QJsonArray usage = facts.value("usagePerCall").toArray();
    for (std::size_t i = 0; i < l.views.size(); ++i) {
        const CallView &v = l.views[i];
        const int k = int(i);
        QCOMPARE(qint64(v.recordedMessageCount.value_or(9999)), messages[k].toInteger());
        // The rebuilt conversation, where on record, has exactly the messages the call announced.
        if (l.calls[i].messageCount)
            QCOMPARE(qint64(*l.calls[i].messageCount), messages[k].toInteger());
        QCOMPARE(qint64(v.tools.size()), tools[k].toInteger());
        QCOMPARE(qint64(v.epoch), iterations[k].toInteger());
        if (systemText[k].toBool())
            QVERIFY(v.systemOnRecord);
        const QJsonObject u = usage[k].toObject();
        QCOMPARE(optNumber(v.usage.input), u.value("input"));
        QCOMPARE(optNumber(v.usage.output), u.value("output"));
        QCOMPARE(optNumber(v.usage.cacheRead), u.value("cacheRead"));
        QCOMPARE(optNumber(v.usage.cacheWrite), u.value("cacheWrite"));
    }
    const QJsonObject tokens = facts.value("tokens").toObject();
    std::map<QString, double> sums;
    std::map<QString, bool> seen;
    for (const CallSummary &c : l.calls)
        for (const auto &[name, value] : {std::pair{"input", c.input}, std::pair{"output", c.output},
                                          std::pair{"cacheRead", c.cacheRead}, std::pair{"cacheWrite", c.cacheWrite}})
            if (value) {
                sums[name] += *value;
                seen[name] = true;
            }
    for (auto it = tokens.begin(); it != tokens.end(); ++it)
        QCOMPARE(sums[it.key()], it.value().toDouble());
    QCOMPARE(seen.size(), std::size_t(tokens.size()));

    // Turns: the k-th turn_start; prompts and answers per turn; the final answer of the last turn_end, else none.
    QCOMPARE(qint64(run.turns.size()), facts.value("turns").toInteger());
    qint64 ended = 0;
    QStringList answers;
    for (const recording::Turn &t : run.turns) {
        if (t.ended) {
            ++ended;
            QVERIFY(t.finalAnswer);
            answers << qs(*t.finalAnswer);
        }
    }
    QCOMPARE(ended, facts.value("turnEnds").toInteger());
    QStringList expectedAnswers;
    for (const QJsonValue &a : facts.value("finalAnswersPerTurn").toArray())
        expectedAnswers << a.toString();
    QCOMPARE(answers, expectedAnswers);
    const QJsonArray prompts = facts.value("userPrompts").toArray();
    QCOMPARE(qsizetype(run.turns.size()), prompts.size());
    for (std::size_t t = 0; t < run.turns.size(); ++t)
        QCOMPARE(qs(run.turns[t].userPrompt.value_or("<none>")), prompts[int(t)].toString());
    if (facts.value("finalAnswer").isNull())
        QVERIFY(!run.finalAnswer);
    else
        QCOMPARE(qs(run.finalAnswer.value_or("<none>")), facts.value("finalAnswer").toString());
    // Every call lies in exactly one turn, in order.
    std::size_t next = 0;
    for (const recording::Turn &t : run.turns)
        for (std::size_t c : t.calls) {
            QCOMPARE(c, next++);
            QCOMPARE(run.calls[c].turn, t.number - 1);
        }
    QCOMPARE(next, run.calls.size());

    // Run ids: consumer scope (pause/resume) is not a run.
    QStringList runIds;
    for (const QJsonValue &id : facts.value("runIds").toArray())
        if (id.toString() != QLatin1String("consumer-scope"))
            runIds << id.toString();
    QStringList gotRunIds;
    for (const std::string &id : run.runIds)
        gotRunIds << qs(id);
    QCOMPARE(gotRunIds, runIds);
    if (facts.value("snapshotRunId").isString())
        QCOMPARE(qs(run.engineRunId), facts.value("snapshotRunId").toString());
    else
        QVERIFY(run.engineRunId.empty());
    for (const std::string &w : run.warnings)
        QVERIFY2(w.find("run ids") == std::string::npos, w.c_str()); // no "only the last run" warning any more

    // Tool calls as they ran: ids, names, parallel groups, result lengths in UTF-16 units, errors.
    std::vector<const recording::ToolRun *> ran;
    std::map<std::string, std::string> runOfTool;
    for (const CallView &v : l.views)
        for (const recording::ToolRun &t : v.toolRuns)
            if (t.started) {
                ran.push_back(&t);
                runOfTool[t.id] = v.runId;
            }
    const QJsonArray toolCalls = facts.value("toolCalls").toArray();
    QCOMPARE(qsizetype(ran.size()), toolCalls.size());
    for (qsizetype i = 0; i < toolCalls.size(); ++i) {
        const QJsonObject t = toolCalls[i].toObject();
        QCOMPARE(qs(ran[std::size_t(i)]->id), t.value("toolCallId").toString());
        QCOMPARE(qs(ran[std::size_t(i)]->name), t.value("toolName").toString());
        QCOMPARE(ran[std::size_t(i)]->parallelCount.value_or(-1), t.value("parallelCount").toInt(-1));
        QCOMPARE(qs(runOfTool[ran[std::size_t(i)]->id]), t.value("runId").toString());
    }
    std::map<QString, const recording::ToolRun *> byId;
    for (const CallView &v : l.views)
        for (const recording::ToolRun &t : v.toolRuns)
            byId[qs(t.id)] = &t;
    for (const QJsonValue &r : facts.value("toolResultChars").toArray()) {
        const QJsonObject o = r.toObject();
        const recording::ToolRun *t = byId[o.value("toolCallId").toString()];
        QVERIFY(t && t->returned && t->result);
        QCOMPARE(qint64(text::lengthU16(*t->result)), o.value("chars").toInteger());
    }
    QStringList open;
    for (const recording::ToolRun *t : ran)
        if (!t->returned)
            open << qs(t->id);
    QStringList expectedOpen;
    for (const QJsonValue &id : facts.value("toolStartsWithoutEnd").toArray())
        expectedOpen << id.toString();
    QCOMPARE(open, expectedOpen);
    QCOMPARE(facts.value("toolEndsWithoutStart").toArray().size(), 0);

    QStringList toolErrors, expectedToolErrors;
    for (const recording::ToolRun *t : ran)
        if (t->error)
            toolErrors << qs(t->id) + ": " + qs(t->result.value_or(""));
    std::optional<QString> fatal;
    for (const QJsonValue &e : facts.value("errors").toArray()) {
        const QJsonObject o = e.toObject();
        if (o.value("type") == QLatin1String("agentfootprint.stream.tool_end"))
            expectedToolErrors << o.value("toolCallId").toString() + ": " + o.value("error").toString();
        else
            fatal = o.value("error").toString();
    }
    QCOMPARE(toolErrors, expectedToolErrors);
    if (fatal) {
        QCOMPARE(run.outcome.status, OutcomeStatus::Failed);
        QCOMPARE(qs(run.outcome.message.value_or("")), *fatal);
    } else {
        QVERIFY(run.outcome.status != OutcomeStatus::Failed);
    }

    // Budget events: each one a limit, with its payload's figures.
    const QJsonArray budget = facts.value("budgetExhausted").toArray();
    qsizetype exhausted = 0;
    for (const recording::RunLimit &limit : run.limits)
        if (limit.kind == "budget_exhausted") {
            const QJsonObject b = budget[exhausted++].toObject();
            QCOMPARE(qs(limit.message), QStringLiteral("reason %1, limit %2, pendingToolCalls %3, action %4")
                                            .arg(b.value("reason").toString())
                                            .arg(b.value("limit").toInt())
                                            .arg(b.value("pendingToolCalls").toInt())
                                            .arg(b.value("action").toString()));
            QVERIFY(limit.call);
            QCOMPARE(qint64(l.views[*limit.call].epoch), b.value("iteration").toInteger());
        }
    QCOMPARE(exhausted, budget.size());

    // A pause with no resume after it is the outcome; one that was resumed is not.
    const QJsonArray pauses = facts.value("pauseEvents").toArray();
    if (!pauses.isEmpty() && run.turns.back().ended)
        QCOMPARE(run.outcome.status, OutcomeStatus::Completed);
    else if (!pauses.isEmpty())
        QCOMPARE(qs(run.outcome.message.value_or("")), pauses.last()
                                                           .toObject()
                                                           .value("payload")
                                                           .toObject()
                                                           .value("questionPayload")
                                                           .toObject()
                                                           .value("question")
                                                           .toString());
}

void TestRealRuns::outcomes_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("status");
    QTest::addColumn<int>("call"); // 1-based, 0 for none
    QTest::newRow("research") << "dev-1-research.json"
                              << "completed" << 0;
    QTest::newRow("conversation") << "dev-2-conversation.json"
                                  << "completed" << 0;
    QTest::newRow("tool errors") << "dev-3-tool-errors.json"
                                 << "completed" << 0;
    QTest::newRow("crash") << "dev-4-crash.json"
                           << "failed" << 3;
    QTest::newRow("envelope") << "dev-5-envelope.json"
                              << "completed" << 0;
    QTest::newRow("ndjson") << "dev-6-events.ndjson"
                            << "completed" << 0;
    QTest::newRow("paused") << "dev-7-paused-or-limited.json"
                            << "paused" << 2;
    QTest::newRow("resumed") << "dev-7b-resumed.json"
                             << "completed" << 0;
    QTest::newRow("max iterations") << "dev-8-max-iterations.json"
                                    << "completed" << 0;
}

void TestRealRuns::outcomes()
{
    QFETCH(QString, file);
    QFETCH(QString, status);
    QFETCH(int, call);
    const Loaded l = load(file);
    QCOMPARE(QString::fromLatin1(recording::outcomeStatusId(l.run->outcome.status)), status);
    QCOMPARE(l.run->outcome.call ? int(*l.run->outcome.call) + 1 : 0, call);
}

void TestRealRuns::conversationTurns()
{
    const Loaded l = load("dev-2-conversation.json");
    const Run &run = *l.run;
    QCOMPARE(run.turns.size(), std::size_t(4));
    const std::vector<std::vector<std::size_t>> calls = {{0, 1}, {2, 3}, {4}, {5, 6}};
    for (std::size_t t = 0; t < 4; ++t) {
        QCOMPARE(run.turns[t].calls, calls[t]);
        QCOMPARE(run.turns[t].runId, run.runIds[t]);
        for (std::size_t c : calls[t])
            QCOMPARE(l.views[c].runId, run.runIds[t]); // stage ids repeat: each call has its own run's events
    }
    // Stage ids repeat across turns; each call's response is its own run's (text of turn 1, not of turn 4).
    QCOMPARE(l.calls[0].callRuntimeStageId, std::string("call-llm#18"));
    QCOMPARE(l.calls[2].callRuntimeStageId, std::string("call-llm#18"));
    QCOMPARE(l.calls[5].callRuntimeStageId, std::string("call-llm#18"));
    QCOMPARE(qs(l.views[1].response->text),
             QStringLiteral("You spent 418.75 EUR on groceries in March 2025, over 23 purchases."));
    QCOMPARE(qs(l.views[4].response->text).left(30), QStringLiteral("An average of the two months i"));
    // The earlier turns come from their events, the last from the fold.
    QCOMPARE(run.calls[0].basis, recording::FoldBasis::EventsOnly);
    QCOMPARE(run.calls[5].basis, recording::FoldBasis::InitialPlusLog);
    QCOMPARE(run.calls[6].basis, recording::FoldBasis::InitialPlusLog);
    // Turn 2's parallel tools.
    QCOMPARE(l.views[2].toolRuns.size(), std::size_t(2));
    QCOMPARE(l.views[2].toolRuns[0].parallelCount.value_or(0), 2);
    QCOMPARE(l.views[2].response->toolCalls.size(), std::size_t(2));
}

void TestRealRuns::crashedCallHasNoResponse()
{
    const Loaded l = load("dev-4-crash.json");
    QCOMPARE(l.views.size(), std::size_t(3));
    QVERIFY(l.views[0].response && l.views[1].response);
    QVERIFY(!l.views[2].response); // the provider failed: never an empty response
    QVERIFY(!l.calls[2].response);
    QVERIFY(!l.run->finalAnswer); // no turn_end: no answer on record, not ""
    QVERIFY(l.run->outcome.message->find("529 overloaded_error") != std::string::npos);
}

void TestRealRuns::toolErrors()
{
    const Loaded l = load("dev-3-tool-errors.json");
    const auto &first = l.views[0].toolRuns;
    QCOMPARE(first.size(), std::size_t(2));
    QCOMPARE(first[0].name, std::string("pipeline_status"));
    QVERIFY(first[0].error);
    QVERIFY(!first[1].error);
    QVERIFY(l.calls[0].anyToolError());
    QVERIFY(!l.calls[1].anyToolError());
    QVERIFY(l.calls[2].anyToolError());
    // ci-3's result is an object: served as its JSON.
    const recording::ToolRun &ci3 = l.views[1].toolRuns.at(0);
    QCOMPARE(ci3.id, std::string("ci-3"));
    QVERIFY(ci3.resultIsJson);
    QVERIFY(ci3.result->rfind("{\"pipeline\":\"payments-api\"", 0) == 0);
    // Any call's messages can ask whether a result was an error.
    const recording::Event *end = l.run->toolEnd("ci-4");
    QVERIFY(end && end->payloadError);
    QVERIFY(!l.run->toolEnd("ci-2")->payloadError);
    QVERIFY(!l.run->toolEnd("nope"));
}

void TestRealRuns::pausedAndResumed()
{
    const Loaded paused = load("dev-7-paused-or-limited.json");
    const recording::ToolRun &asked = paused.views[1].toolRuns.at(0);
    QCOMPARE(asked.id, std::string("acc-2"));
    QVERIFY(asked.started && !asked.returned);
    QVERIFY(asked.missingReason.find("paused") != std::string::npos);
    QVERIFY(!paused.run->finalAnswer);

    const Loaded resumed = load("dev-7b-resumed.json");
    QCOMPARE(resumed.run->turns.size(), std::size_t(1)); // a resumed run continues its turn
    QCOMPARE(resumed.run->turns[0].calls.size(), std::size_t(3));
    QCOMPARE(resumed.run->runIds.size(), std::size_t(2));
    // The human's answer came back under the new run id, as acc-2's tool_end.
    const recording::ToolRun &answered = resumed.views[1].toolRuns.at(0);
    QVERIFY(answered.returned);
    QCOMPARE(qs(*answered.result), QStringLiteral("Approved by tomas.berg@contoso.example for 7 days"));
    QCOMPARE(resumed.views[2].runId, resumed.run->runIds[1]);
}

void TestRealRuns::maxIterations()
{
    const Loaded l = load("dev-8-max-iterations.json");
    // Call 3 asked for wh-3, which never ran.
    const CallView &third = l.views[2];
    QCOMPARE(third.response->toolCalls.size(), std::size_t(1));
    QCOMPARE(third.response->toolCalls[0].id, std::string("wh-3"));
    QCOMPARE(third.toolRuns.size(), std::size_t(1));
    QVERIFY(!third.toolRuns[0].started);
    QVERIFY(third.toolRuns[0].missingReason.find("limit") != std::string::npos);
    QVERIFY(l.calls[2].toolResults.empty());
    // Both limit events, as recorded, and the wrap-up route, all at call 3.
    std::vector<std::string> kinds;
    for (const recording::RunLimit &limit : l.run->limits) {
        kinds.push_back(limit.kind);
        QCOMPARE(limit.call.value_or(99), std::size_t(2));
    }
    QCOMPARE(kinds, (std::vector<std::string>{"wrap-up", "cost.limit_hit", "budget_exhausted"}));
    QVERIFY(l.run->limits[1].message.find("action abort") != std::string::npos);
    QVERIFY(l.run->limits[2].message.find("action wrapped-up") != std::string::npos);
    QVERIFY(l.views[3].tools.empty()); // the wrap-up call goes out with the tools withheld
}

void TestRealRuns::researchRunResponses()
{
    const Loaded l = load("dev-1-research.json");
    // The two get_abstract calls of iteration 2 ran in parallel.
    QCOMPARE(l.views[1].toolRuns.size(), std::size_t(2));
    for (const recording::ToolRun &t : l.views[1].toolRuns) {
        QCOMPARE(t.name, std::string("get_abstract"));
        QCOMPARE(t.parallelCount.value_or(0), 2);
    }
    QCOMPARE(l.views[0].response->stopReason.value_or(""), std::string("tool_use"));
    QCOMPARE(l.views[5].response->stopReason.value_or(""), std::string("stop"));
    QVERIFY(l.views[5].response->text.rfind("Recovery is real but slowing.", 0) == 0);
    // budget_pressure is felt by the call it came before.
    bool pressure = false;
    for (const recording::RunLimit &limit : l.run->limits)
        if (limit.kind == "context.budget_pressure") {
            pressure = true;
            QVERIFY(limit.call);
            QVERIFY(limit.message.find("slot messages") != std::string::npos);
        }
    QVERIFY(pressure);
}

QTEST_GUILESS_MAIN(TestRealRuns)
#include "tst_realruns.moc"
