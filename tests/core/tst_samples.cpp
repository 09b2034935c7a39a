// The four upstream samples, loaded through loadRecording + summarizeCalls + buildCallView, against what
// spec/recording.md §10 says a correct loader reports for each: shapes, run ids, calls and epochs, the per-call
// system text, messages and tools, usage, badges without (or with placeholder) receipts, cache facts, and for the
// byte-identity reference, equality of every rebuilt view with the library's own `served[k].view`.

#include "core/crypto/sha256.h"
#include "core/findings/findingspiece.h"
#include "core/json/writer.h"
#include "core/recording/callview.h"
#include "core/recording/recordingloader.h"
#include "core/text/utf.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <optional>
#include <string>
#include <vector>

using namespace tf;
using recording::Badge;
using recording::CallView;
using recording::Run;

namespace {

std::string samplePath(const char *name)
{
    return std::string(TRACEFOLD_TEST_DATA "/samples/") + name;
}

std::shared_ptr<const Run> load(const char *name)
{
    const recording::LoadResult result = recording::loadRecording(samplePath(name));
    if (!result.run)
        qFatal("%s failed to load: %s", name, result.error.c_str());
    return result.run;
}

QByteArray q(const std::string &s)
{
    return QByteArray::fromStdString(s);
}

std::string str(const json::Value *v)
{
    return v && v->isString() ? std::string(v->asString()) : std::string("<absent>");
}

json::Value parseJson(std::string_view text)
{
    static json::StringArena arena; // the values below borrow from literals and from this arena
    json::ParseError error;
    json::Value v = json::parse(text, arena, error);
    if (error.failed())
        qFatal("bad literal in test: %s", error.describe().c_str());
    return v;
}

// The one candidate every sample call carries (§7.1).
constexpr const char *kSystemCandidate =
    R"json([{"field":"system","boundaryIndex":0,"ttl":"short",)json"
    R"json("reason":"system stable prefix (1 entries, ending at base system prompt)"}])json";

std::string joined(const std::vector<std::string> &items, const char *sep = ",")
{
    std::string out;
    for (const std::string &s : items)
        out += (out.empty() ? "" : sep) + s;
    return out;
}

std::string optBool(const std::optional<bool> &b)
{
    return b ? (*b ? "true" : "false") : "null";
}

const json::Value *at(const json::Value &v, std::initializer_list<std::string_view> path)
{
    const json::Value *cur = &v;
    for (std::string_view key : path) {
        cur = cur->find(key);
        if (!cur)
            return nullptr;
    }
    return cur;
}

std::vector<std::string> gapNames(const std::vector<recording::Gap> &gaps)
{
    std::vector<std::string> out;
    for (const recording::Gap &g : gaps)
        out.push_back(g.name);
    return out;
}

const recording::Gap *findGap(const std::vector<recording::Gap> &gaps, std::string_view name)
{
    for (const recording::Gap &g : gaps)
        if (g.name == name)
            return &g;
    return nullptr;
}

const recording::PartCheck *findCheck(const CallView &view, std::string_view part)
{
    for (const recording::PartCheck &c : view.checks)
        if (c.part == part)
            return &c;
    return nullptr;
}

// The events of a type between this call's llm_end and the next call's llm_start (its route and tool brackets).
std::vector<const recording::Event *> eventsAfterCall(const Run &run, std::size_t call, std::string_view type)
{
    std::vector<const recording::Event *> out;
    const auto &rec = run.calls.at(call);
    if (!rec.llmEndEvent)
        return out;
    const std::size_t stop = call + 1 < run.calls.size() && run.calls[call + 1].llmStartEvent
                                 ? *run.calls[call + 1].llmStartEvent
                                 : run.events.size();
    for (std::size_t i = *rec.llmEndEvent + 1; i < stop; ++i)
        if (run.events[i].type == type)
            out.push_back(&run.events[i]);
    return out;
}

// ---- expectations for the three event-bearing samples (§10.2-§10.4) --------------------------------------------

struct CallExpect
{
    const char *stage;
    int messages;
    std::size_t systemUnits;
    std::vector<std::string> pieceSources;
    std::vector<std::string> tools;
    const char *route;
    double usageIn, usageOut;
    std::vector<std::string> toolCallIds; // tool_start ids after the call, in order
    std::size_t tokens;                   // stream.token events of this iteration
};

struct SampleExpect
{
    const char *file;
    recording::RecordingShape shape;
    const char *runId;
    std::size_t events;
    recording::FoldBasis basis;
    bool hasChart;
    const char *reactMode;
    const char *model;
    std::vector<CallExpect> calls;
    std::vector<std::optional<bool>> systemUnchanged;
    std::vector<std::optional<bool>> prefixReusable;
    double turnIn, turnOut, turnDurationMs;
    bool schemasOnRecord;
};

const std::vector<SampleExpect> &eventSamples()
{
    using S = recording::RecordingShape;
    using F = recording::FoldBasis;
    static const std::vector<std::string> demoTools = {"itunes_lookup", "wiki_plot", "wiki_reception"};
    static const std::vector<std::string> lensTools = {"walk_graph", "summarize"};
    static const std::vector<SampleExpect> samples = {
        {"agentfootprint-demo-turn.json",
         S::BoundaryCapture,
         "run-1785158793554-1",
         84,
         F::SubflowLogs,
         false,
         "",
         "mock-1",
         {{"call-llm#18", 1, 351, {"base"}, demoTools, "tool-calls", 97, 0, {"t0"}, 0},
          {"call-llm#40", 3, 351, {"base"}, demoTools, "tool-calls", 122, 0, {"t1"}, 0},
          {"call-llm#62", 5, 351, {"base"}, demoTools, "tool-calls", 147, 0, {"t2"}, 0},
          {"call-llm#84", 7, 351, {"base"}, demoTools, "final", 180, 15, {}, 8}},
         {std::nullopt, true, true, true},
         {std::nullopt, true, true, true},
         546,
         15,
         283,
         true},
        {"lens-tool-progress-turn.json",
         S::Recording,
         "run-1787172385228-1",
         79,
         F::EventsOnly,
         true,
         "dynamic",
         "mock",
         {{"call-llm#18", 1, 37, {"base"}, lensTools, "tool-calls", 24, 9, {"c1"}, 6},
          {"call-llm#40", 3, 37, {"base"}, lensTools, "tool-calls", 42, 9, {"c2"}, 6},
          {"call-llm#62", 5, 37, {"base"}, lensTools, "final", 63, 19, {}, 12}},
         {std::nullopt, true, true},
         {std::nullopt, true, true},
         129,
         37,
         807,
         false},
        {"lens-skill-route-refusal.json",
         S::Recording,
         "run-1786766876536-1",
         102,
         F::EventsOnly,
         true,
         "",
         "mock",
         {{"call-llm#19", 1, 75, {"base", "skill"}, {"read_skill"}, "tool-calls", 28, 9, {"c1"}, 6},
          {"call-llm#42", 3, 75, {"base", "skill"}, {"read_skill"}, "tool-calls", 65, 9, {"c2"}, 6},
          {"call-llm#65",
           5,
           120,
           {"base", "skill", "skill"},
           {"read_skill", "get_volume_by_wwn"},
           "tool-calls",
           98,
           6,
           {"c3"},
           4},
          {"call-llm#88",
           7,
           155,
           {"base", "skill", "skill", "skill"},
           {"read_skill", "get_volume_by_wwn", "get_audit"},
           "final",
           120,
           10,
           {},
           7}},
         {std::nullopt, true, false, false},
         {std::nullopt, true, false, false},
         311,
         34,
         764,
         false},
    };
    return samples;
}

} // namespace

class TestSamples : public QObject
{
    Q_OBJECT

private slots:
    void eventSample_data();
    void eventSample();
    void eventSampleBadgesWithoutReceipt_data() { eventSample_data(); }
    void eventSampleBadgesWithoutReceipt();
    void eventSampleStreams_data() { eventSample_data(); }
    void eventSampleStreams();
    void demoTurnCache();
    void lensToolProgressTools();
    void lensSkillRouteRefusal();

    void referenceRun();
    void referenceArmedBySchemasAlone();
    void referenceCalls();
    void referenceViewEqualsServed_data();
    void referenceViewEqualsServed();
    void referenceFindingsPiece();
    void referenceReceiptChecks();
    void referenceRequestMeasurement();
    void referenceCache();
    void referenceLedger();
    void summaryMatchesViews_data();
    void summaryMatchesViews();
};

// ---- event-bearing samples --------------------------------------------------------------------------------------

void TestSamples::eventSample_data()
{
    QTest::addColumn<int>("index");
    for (std::size_t i = 0; i < eventSamples().size(); ++i)
        QTest::newRow(eventSamples()[i].file) << int(i);
}

void TestSamples::eventSample()
{
    QFETCH(int, index);
    const SampleExpect &x = eventSamples().at(std::size_t(index));
    const auto run = load(x.file);
    QCOMPARE(run->shape, x.shape);
    QCOMPARE(q(run->runId), QByteArray(x.runId));
    QCOMPARE(run->events.size(), x.events);
    QCOMPARE(run->basis, x.basis);
    QCOMPARE(run->hasChart, x.hasChart);
    QCOMPARE(run->hasSnapshot, false);
    QCOMPARE(q(run->reactMode), QByteArray(x.reactMode));
    QCOMPARE(q(run->model), QByteArray(x.model));
    QCOMPARE(q(run->provider), QByteArray("mock"));
    QVERIFY(run->unknownEventTypes.empty());
    QVERIFY2(run->warnings.empty(), run->warnings.empty() ? "" : run->warnings.front().c_str());
    QVERIFY(!run->finalLedger());
    QVERIFY(!run->constants.armed);
    QVERIFY(!run->constants.findingsServe);
    // turn_end totals (§10.2-§10.4).
    QCOMPARE(run->totalInputTokens, std::optional<double>(x.turnIn));
    QCOMPARE(run->totalOutputTokens, std::optional<double>(x.turnOut));
    QCOMPARE(run->durationMs, std::optional<double>(x.turnDurationMs));
    QVERIFY(run->finalAnswer.has_value());

    QCOMPARE(run->calls.size(), x.calls.size());
    for (std::size_t i = 0; i < x.calls.size(); ++i) {
        const CallExpect &c = x.calls[i];
        const CallView view = recording::buildCallView(*run, i);
        const QByteArray where = QByteArray(x.file) + " call " + QByteArray::number(qsizetype(i));
        QCOMPARE(view.epoch, int(i) + 1);
        QVERIFY2(!view.record->epochByPosition, where);
        QVERIFY2(!view.record->duplicateEpoch, where);
        QCOMPARE(q(view.record->callRuntimeStageId), QByteArray(c.stage));
        QVERIFY2(view.record->llmStartEvent && view.record->llmEndEvent, where);
        QCOMPARE(q(view.model), QByteArray(x.model));

        // Messages (§5.4, §5.9): the count on record, and llm_start.messagesCount agrees.
        QVERIFY2(view.conversationOnRecord, where);
        QCOMPARE(view.asSent.size(), std::size_t(c.messages));
        QCOMPARE(view.recordedMessageCount, std::optional<std::size_t>(std::size_t(c.messages)));
        QVERIFY(view.collapsed.empty());

        // System text (§5.3, §5.9): the join of the pieces, as long as systemPromptChars, so nothing else was served.
        QVERIFY2(view.systemOnRecord, q(view.systemNote));
        QCOMPARE(text::lengthU16(view.systemText), c.systemUnits);
        QCOMPARE(view.recordedSystemLengthU16, std::optional<std::size_t>(c.systemUnits));
        std::vector<std::string> sources, texts;
        for (const auto &p : view.systemPieces) {
            sources.push_back(p.source);
            texts.push_back(p.text);
            QCOMPARE(q(p.slot), QByteArray("system-prompt"));
        }
        QCOMPARE(q(joined(sources)), q(joined(c.pieceSources)));
        QCOMPARE(q(view.systemText), q(joined(texts, "\n\n")));

        // No findings piece where none is expected (§10: no ledger, every join length equals systemPromptChars).
        QVERIFY2(!view.piece, where);
        QVERIFY(!view.noPieceReason.empty());
        QVERIFY(!view.ledgerOnRecord);

        // Tools (§5.5, §5.9).
        std::vector<std::string> names;
        for (const auto &t : view.tools) {
            names.push_back(t.name);
            QCOMPARE(t.schema.has_value(), x.schemasOnRecord);
            QVERIFY2(t.description && !t.description->empty(), q(t.name));
        }
        QCOMPARE(q(joined(names)), q(joined(c.tools)));
        QVERIFY(!view.forcedTool);
        QVERIFY(!view.withheld);

        // Events: route, usage (no cache counts: unmeasured), tool calls.
        QCOMPARE(view.route, std::optional<std::string>(c.route));
        QCOMPARE(view.usage.input, std::optional<double>(c.usageIn));
        QCOMPARE(view.usage.output, std::optional<double>(c.usageOut));
        QVERIFY(!view.usage.cacheRead);
        QVERIFY(!view.usage.cacheWrite);
        QCOMPARE(view.cache.verdict, recording::CacheVerdict::Unmeasured);
        std::vector<std::string> toolCallIds;
        for (const std::size_t e : view.record->toolEvents)
            if (run->events[e].type == recording::eventtype::ToolStart)
                toolCallIds.push_back(str(run->payload(run->events[e]).find("toolCallId")));
        QCOMPARE(q(joined(toolCallIds)), q(joined(c.toolCallIds)));

        // Cache facts (§7.3): the first call has no previous epoch (null, not false); later calls compare rebuilt
        // bytes, since there is no receipt.
        QCOMPARE(optBool(view.cache.systemUnchanged), optBool(x.systemUnchanged[i]));
        QCOMPARE(optBool(view.cache.prefixReusable), optBool(x.prefixReusable[i]));
        QVERIFY(!view.cache.fromStoredHashes);
        QVERIFY(!view.cache.applied);

        // Messages of call k > 1 are iteration_end(k-1).history exactly; call 1 is the user's prompt.
        if (i == 0) {
            QCOMPARE(q(str(view.asSent.at(0).find("role"))), QByteArray("user"));
            const recording::Event *turn = nullptr;
            for (const auto &e : run->events)
                if (e.type == recording::eventtype::TurnStart)
                    turn = &e;
            QVERIFY(turn);
            QCOMPARE(q(str(view.asSent.at(0).find("content"))), q(str(run->payload(*turn).find("userPrompt"))));
        } else {
            std::optional<json::Value> history;
            for (const auto &e : run->events) {
                const json::Value payload = run->payload(e);
                if (e.type == recording::eventtype::IterationEnd && payload.findNumber("iterIndex") &&
                    payload.findNumber("iterIndex")->asNumber() == double(i))
                    history = *payload.findArray("history");
            }
            QVERIFY2(history, where);
            QVERIFY2(json::deepEqual(view.committed, *history), where);
            QVERIFY2(json::deepEqual(view.asSent, *history), where);
        }
    }
}

void TestSamples::eventSampleBadgesWithoutReceipt()
{
    QFETCH(int, index);
    const SampleExpect &x = eventSamples().at(std::size_t(index));
    const auto run = load(x.file);
    for (std::size_t i = 0; i < run->calls.size(); ++i) {
        const CallView view = recording::buildCallView(*run, i);
        const QByteArray where = QByteArray(x.file) + " call " + QByteArray::number(qsizetype(i));
        QCOMPARE(view.receiptState, CallView::ReceiptState::None);
        QVERIFY(!view.damaged);
        // §6.6 step 1: no receipt → every rebuilt row Reconstructed, receipt-only fields Not on record.
        const recording::Gap *gap = findGap(view.gaps, "no-receipt-on-chart");
        QVERIFY2(gap, q(joined(gapNames(view.gaps))));
        QCOMPARE(q(gap->cause), QByteArray("no-receipt-committed"));
        QCOMPARE(gap->kind, recording::Gap::Kind::Missing);
        QVERIFY(findGap(view.gaps, "cache-transform"));
        QVERIFY(findGap(view.gaps, "no-run-log"));
        QVERIFY(!findGap(view.gaps, "provider-defaults")); // only when a receipt exists
        QCOMPARE(findGap(view.gaps, "no-fold-base") != nullptr, x.basis == recording::FoldBasis::SubflowLogs);
        for (const char *field : {"basis", "params", "cache", "omittedForAttention", "requestMeasurement"}) {
            const recording::PartCheck *c = findCheck(view, field);
            QVERIFY2(c, field);
            QCOMPARE(c->badge, Badge::NotOnRecord);
        }
        QCOMPARE(findCheck(view, "system.text")->badge, Badge::Reconstructed);
        QCOMPARE(findCheck(view, "tools.names")->badge, Badge::Reconstructed);
        for (std::size_t p = 0; p < view.systemPieces.size(); ++p)
            QCOMPARE(findCheck(view, "system.pieces[" + std::to_string(p) + "]")->badge, Badge::Reconstructed);
        for (std::size_t m = 0; m < view.asSent.size(); ++m)
            QCOMPARE(findCheck(view, "messages[" + std::to_string(m) + "]")->badge, Badge::Reconstructed);
        for (const auto &t : view.tools)
            QCOMPARE(findCheck(view, "tools.schema[" + t.name + "]")->badge,
                     x.schemasOnRecord ? Badge::Reconstructed : Badge::NotOnRecord);
        for (const recording::PartCheck &c : view.checks)
            QVERIFY2(c.badge != Badge::Verified && c.badge != Badge::Damaged, where + " " + q(c.part));
        // one check per rebuilt row plus the five receipt-only fields
        QCOMPARE(view.checks.size(), 2 + view.systemPieces.size() + view.asSent.size() + view.tools.size() + 5);
    }
}

void TestSamples::eventSampleStreams()
{
    QFETCH(int, index);
    const SampleExpect &x = eventSamples().at(std::size_t(index));
    const auto run = load(x.file);
    // §10.1: one run id across all events, wallClockMs − runOffsetMs constant, no systemPromptText, no cache counts.
    std::optional<double> start;
    for (const auto &e : run->events) {
        QCOMPARE(q(std::string(e.runId)), QByteArray(x.runId));
        QVERIFY(e.wallClockMs && e.runOffsetMs);
        const double s = *e.wallClockMs - *e.runOffsetMs;
        if (!start)
            start = s;
        QCOMPARE(s, *start);
        const json::Value payload = run->payload(e);
        if (e.type == recording::eventtype::LlmStart)
            QVERIFY(!payload.contains("systemPromptText"));
        if (e.type == recording::eventtype::LlmEnd) {
            QVERIFY(!payload.find("usage")->contains("cacheRead"));
            QVERIFY(!payload.find("usage")->contains("cacheWrite"));
        }
    }
    // Stream tokens per iteration.
    for (std::size_t i = 0; i < x.calls.size(); ++i) {
        std::size_t tokens = 0;
        for (const auto &e : run->events)
            if (e.type == recording::eventtype::Token && e.iteration() == int(i) + 1)
                ++tokens;
        QCOMPARE(tokens, x.calls[i].tokens);
    }
}

void TestSamples::demoTurnCache()
{
    const auto run = load("agentfootprint-demo-turn.json");
    // §10.2: one system candidate on every call from sf-cache#n, gate apply-markers, applied not on record.
    const json::Value expected = parseJson(kSystemCandidate);
    for (std::size_t i = 0; i < run->calls.size(); ++i) {
        const CallView view = recording::buildCallView(*run, i);
        QVERIFY(view.cache.candidates);
        QVERIFY2(json::deepEqual(*view.cache.candidates, expected), q(json::stringify(*view.cache.candidates)));
        QCOMPARE(view.cache.gateBranch, std::optional<std::string>("apply-markers"));
        QVERIFY(!view.cache.applied);
        // Schemas come from the sf-tools#n subflow logs.
        QCOMPARE(view.tools.size(), std::size_t(3));
        for (const auto &t : view.tools)
            QCOMPARE(q(str(t.schema->find("name"))), q(t.name));
    }
}

void TestSamples::lensToolProgressTools()
{
    const auto run = load("lens-tool-progress-turn.json");
    // §10.3: c1 walk_graph {start:"svc-a"} with three tool_progress (an object, then two strings), result object;
    // c2 summarize {nodes:12}, result object.
    const auto starts0 = eventsAfterCall(*run, 0, recording::eventtype::ToolStart);
    QCOMPARE(starts0.size(), std::size_t(1));
    QVERIFY(json::deepEqual(*run->payload(*starts0[0]).find("args"), parseJson(R"({"start":"svc-a"})")));
    QCOMPARE(q(str(run->payload(*starts0[0]).find("toolName"))), QByteArray("walk_graph"));
    const auto progress = eventsAfterCall(*run, 0, recording::eventtype::ToolProgress);
    QCOMPARE(progress.size(), std::size_t(3));
    QVERIFY(
        json::deepEqual(*run->payload(*progress[0]).find("payload"), parseJson(R"({"hop":1,"of":3,"node":"svc-a"})")));
    QVERIFY(run->payload(*progress[1]).find("payload")->isString());
    QVERIFY(run->payload(*progress[2]).find("payload")->isString());
    for (const auto *p : progress)
        QCOMPARE(q(str(run->payload(*p).find("toolCallId"))), QByteArray("c1"));
    const auto ends0 = eventsAfterCall(*run, 0, recording::eventtype::ToolEnd);
    QCOMPARE(ends0.size(), std::size_t(1));
    QVERIFY(json::deepEqual(*run->payload(*ends0[0]).find("result"),
                            parseJson(R"({"nodes":12,"cycles":3,"unreachable":2})")));
    // The call's own record lists the same brackets.
    QCOMPARE(run->calls[0].toolEvents.size(), std::size_t(5));

    const auto starts1 = eventsAfterCall(*run, 1, recording::eventtype::ToolStart);
    QCOMPARE(starts1.size(), std::size_t(1));
    QCOMPARE(q(str(run->payload(*starts1[0]).find("toolName"))), QByteArray("summarize"));
    QVERIFY(json::deepEqual(*run->payload(*starts1[0]).find("args"), parseJson(R"({"nodes":12})")));
    const auto ends1 = eventsAfterCall(*run, 1, recording::eventtype::ToolEnd);
    QCOMPARE(ends1.size(), std::size_t(1));
    QVERIFY(run->payload(*ends1[0]).find("result")->isObject());
    QVERIFY(eventsAfterCall(*run, 2, recording::eventtype::ToolStart).empty());

    // The object result appears as compact JSON in the next call's history (§2.3).
    const CallView second = recording::buildCallView(*run, 1);
    QCOMPARE(q(str(second.asSent.at(2).find("content"))), QByteArray(R"({"nodes":12,"cycles":3,"unreachable":2})"));
    QCOMPARE(q(str(second.asSent.at(2).find("toolCallId"))), QByteArray("c1"));
    // System text identical across the three calls.
    const CallView first = recording::buildCallView(*run, 0), third = recording::buildCallView(*run, 2);
    QCOMPARE(q(first.systemText), q(second.systemText));
    QCOMPARE(q(second.systemText), q(third.systemText));
}

void TestSamples::lensSkillRouteRefusal()
{
    const auto run = load("lens-skill-route-refusal.json");
    // c1 read_skill {id:"audit-log"} is refused: skill.rejected (current triage, allowed [volume-lookup]).
    const auto rejected = eventsAfterCall(*run, 0, "agentfootprint.skill.rejected");
    QCOMPARE(rejected.size(), std::size_t(1));
    QCOMPARE(q(str(run->payload(*rejected[0]).find("requestedId"))), QByteArray("audit-log"));
    QCOMPARE(q(str(run->payload(*rejected[0]).find("currentSkillId"))), QByteArray("triage"));
    QVERIFY(json::deepEqual(*run->payload(*rejected[0]).find("allowed"), parseJson(R"(["volume-lookup"])")));
    const auto start0 = eventsAfterCall(*run, 0, recording::eventtype::ToolStart);
    QCOMPARE(start0.size(), std::size_t(1));
    QVERIFY(json::deepEqual(*run->payload(*start0[0]).find("args"), parseJson(R"({"id":"audit-log"})")));
    const auto start1 = eventsAfterCall(*run, 1, recording::eventtype::ToolStart);
    QVERIFY(json::deepEqual(*run->payload(*start1.at(0)).find("args"), parseJson(R"({"id":"volume-lookup"})")));
    const auto start2 = eventsAfterCall(*run, 2, recording::eventtype::ToolStart);
    QCOMPARE(q(str(run->payload(*start2.at(0)).find("toolName"))), QByteArray("get_volume_by_wwn"));
    QVERIFY(json::deepEqual(*run->payload(*start2.at(0)).find("args"), parseJson(R"({"wwn":"50:06"})")));
    QVERIFY(run->events.size() > 0);
    // cursorMove.by per iteration.
    std::vector<std::string> by;
    for (const auto &e : run->events)
        if (e.type == recording::eventtype::ContextEvaluated)
            by.push_back(str(at(run->payload(e), {"cursorMove", "by"})));
    QCOMPARE(q(joined(by)), QByteArray("entry,stay,model-pick,route"));

    // The read_skill description (its reachable menu) changes on epochs 3 and 4; the skill pieces are triage,
    // volume-lookup, audit-log in arrival order.
    std::vector<CallView> views;
    for (std::size_t i = 0; i < run->calls.size(); ++i)
        views.push_back(recording::buildCallView(*run, i));
    QCOMPARE(views[0].tools[0].description, views[1].tools[0].description);
    QVERIFY(views[1].tools[0].description != views[2].tools[0].description);
    QVERIFY(views[2].tools[0].description != views[3].tools[0].description);
    QCOMPARE(q(views[0].systemText), q(views[1].systemText));
    QVERIFY(views[1].systemText != views[2].systemText);
    QVERIFY(views[2].systemText != views[3].systemText);
    // The earlier pieces keep their text as skills arrive.
    for (std::size_t k = 1; k < views.size(); ++k)
        for (std::size_t p = 0; p < views[k - 1].systemPieces.size(); ++p)
            QCOMPARE(q(views[k].systemPieces[p].text), q(views[k - 1].systemPieces[p].text));
    QVERIFY(!views[2].cache.reason.empty());
}

// ---- the byte-identity reference (§10.5) -----------------------------------------------------------------------

void TestSamples::referenceRun()
{
    const auto run = load("agentfootprint-reference-agent-findings.json");
    QCOMPARE(run->shape, recording::RecordingShape::Reference);
    QVERIFY(run->events.empty());
    QVERIFY(run->runId.empty()); // the salt is a placeholder; no event-meta run id is on record
    QCOMPARE(run->basis, recording::FoldBasis::LogOnly);
    QCOMPARE(run->commitCount, std::size_t(53));
    QCOMPARE(run->servedViews.size(), std::size_t(3));
    QCOMPARE(q(run->provider), QByteArray("byte-identity-mock"));
    QCOMPARE(q(run->model), QByteArray("mock"));
    QCOMPARE(q(run->reactMode), QByteArray("dynamic"));
    QVERIFY(!run->hasChart);
    QCOMPARE(run->constants.findingsServe, std::optional<std::string>("ledger-and-facts"));
    QVERIFY(!run->constants.findingsAnswerAsk);
    QVERIFY(!run->constants.forcedOutputToolName);
    QVERIFY(run->constants.armed);
    QVERIFY(!run->totalInputTokens); // no events: provider usage and turn totals are not on record
    QVERIFY(!run->totalOutputTokens);
    // After idx 51 finalContent has no value; the answer is llmLatestContent as the route stage rewrote it.
    QCOMPARE(run->finalAnswer, std::optional<std::string>(R"({"done":true})"));
    const auto names = gapNames(run->gaps);
    for (const char *g : {"no-events", "no-chart", "no-run-id"})
        QVERIFY2(std::find(names.begin(), names.end(), g) != names.end(), g);
}

// The loader's fold reads rows shallow (LogRows::foldRowAt): a run is armed by the `_findings` member its final
// tool schemas carry three levels down, which that fold does not build; the journal must rebuild them. The
// reference run without its findingsServe (renamed in the text, so nothing else moves) is armed by its schemas alone.
void TestSamples::referenceArmedBySchemasAlone()
{
    QFile in(QString::fromStdString(samplePath("agentfootprint-reference-agent-findings.json")));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QByteArray text = in.readAll();
    QVERIFY(text.contains("\"findingsServe\""));
    text.replace("findingsServe", "findingsServX");
    QTemporaryDir dir;
    QFile out(dir.filePath("unserved.json"));
    QVERIFY(out.open(QIODevice::WriteOnly));
    QCOMPARE(out.write(text), qint64(text.size()));
    out.close();
    const recording::LoadResult result = recording::loadRecording(out.fileName().toStdString());
    QVERIFY2(result.run, result.error.c_str());
    QVERIFY(!result.run->constants.findingsServe);
    QVERIFY(result.run->constants.armed);
}

void TestSamples::referenceCalls()
{
    const auto run = load("agentfootprint-reference-agent-findings.json");
    QCOMPARE(run->calls.size(), std::size_t(3));
    const char *stages[] = {"call-llm#18", "call-llm#38", "call-llm#58"};
    const std::size_t bundles[] = {15, 32, 49};
    const char *roles[] = {"user", "user,assistant,tool", "user,assistant,tool,assistant,tool"};
    const char *keys[] = {"-", "-,-,c1", "-,-,c1,-,c2"};
    const std::size_t units[] = {1304, 1304, 2184}, bytes[] = {1314, 1314, 2199};
    for (std::size_t i = 0; i < 3; ++i) {
        const CallView view = recording::buildCallView(*run, i);
        QCOMPARE(view.epoch, int(i) + 1);
        QVERIFY(!view.record->epochByPosition);
        QCOMPARE(q(view.record->callRuntimeStageId), QByteArray(stages[i]));
        QCOMPARE(view.record->bundleIndex, std::optional<std::size_t>(bundles[i]));
        QCOMPARE(q(view.record->logName), QByteArray("run"));
        QCOMPARE(view.record->basis, recording::FoldBasis::LogOnly);
        // "no fold base" on every view, then the two caveats the stored views carry.
        QCOMPARE(q(joined(gapNames(view.gaps))), QByteArray("no-fold-base,cache-transform,provider-defaults"));
        std::vector<std::string> r, k;
        for (const json::Value &m : view.asSent) {
            r.push_back(str(m.find("role")));
            k.push_back(m.contains("toolCallId") ? str(m.find("toolCallId")) : "-");
        }
        QCOMPARE(q(joined(r)), QByteArray(roles[i]));
        QCOMPARE(q(joined(k)), QByteArray(keys[i]));
        QVERIFY(view.collapsed.empty()); // the only standing at epoch 3 is `fact`, kept verbatim
        QCOMPARE(text::lengthU16(view.systemText), units[i]);
        QCOMPARE(text::toUtf8Lossy(view.systemText).size(), bytes[i]);
        QCOMPARE(view.tools.size(), std::size_t(1));
        QCOMPARE(q(view.tools[0].name), QByteArray("alpha_tool"));
        QVERIFY(view.tools[0].schema);
        // base `bot`, instructions findings-ledger (1181 units), instructions output-schema (116 units)
        QVERIFY(view.systemPieces.size() >= 3);
        QCOMPARE(q(view.systemPieces[0].source), QByteArray("base"));
        QCOMPARE(q(view.systemPieces[0].text), QByteArray("bot"));
        QCOMPARE(q(view.systemPieces[1].source), QByteArray("instructions"));
        QCOMPARE(text::lengthU16(view.systemPieces[1].text), std::size_t(1181));
        QCOMPARE(q(view.systemPieces[2].source), QByteArray("instructions"));
        QCOMPARE(text::lengthU16(view.systemPieces[2].text), std::size_t(116));
    }
    // Tool calls as committed, with `_findings` (§10.5).
    const CallView third = recording::buildCallView(*run, 2);
    const json::Value &call1 = third.committed.at(1).find("toolCalls")->at(0);
    QCOMPARE(q(str(call1.find("id"))), QByteArray("c1"));
    QCOMPARE(q(str(call1.find("name"))), QByteArray("alpha_tool"));
    QVERIFY(json::deepEqual(*call1.find("args"),
                            parseJson(R"({"q":"nodes","_findings":{"basis":"exploratory","expect":"low"}})")));
    const json::Value &call2 = third.committed.at(3).find("toolCalls")->at(0);
    QCOMPARE(q(str(call2.find("id"))), QByteArray("c2"));
    QCOMPARE(q(str(at(call2, {"args", "q"}))), QByteArray("node-1"));
    QCOMPARE(q(str(at(call2, {"args", "_findings", "basis"}))), QByteArray("direct"));
    QCOMPARE(q(str(at(call2, {"args", "_findings", "expect"}))), QByteArray("high"));
    const json::Value *previous = at(call2, {"args", "_findings", "previous"});
    QVERIFY(previous && previous->isArray() && previous->size() == 1);
    QCOMPARE(q(str(previous->at(0).find("standing"))), QByteArray("fact"));
}

void TestSamples::referenceViewEqualsServed_data()
{
    QTest::addColumn<int>("k");
    QTest::newRow("served[0]") << 0;
    QTest::newRow("served[1]") << 1;
    QTest::newRow("served[2]") << 2;
}

void TestSamples::referenceViewEqualsServed()
{
    QFETCH(int, k);
    const auto run = load("agentfootprint-reference-agent-findings.json");
    const CallView view = recording::buildCallView(*run, std::size_t(k));
    const json::Value &served = run->servedViews.at(std::size_t(k));
    const json::Value &v = *served.find("view");
    QCOMPARE(served.find("epoch")->asNumber(), double(view.epoch));
    QCOMPARE(v.find("epoch")->asNumber(), double(view.epoch));
    QCOMPARE(q(str(v.find("callRuntimeStageId"))), q(view.record->callRuntimeStageId));
    QCOMPARE(q(str(at(v, {"basis", "model"}))), q(view.model));
    QCOMPARE(q(str(at(v, {"basis", "provider"}))), q(view.provider));

    // System text and pieces, byte for byte.
    QCOMPARE(q(view.systemText), q(str(at(v, {"system", "text"}))));
    const json::Value &pieces = *at(v, {"system", "pieces"});
    QCOMPARE(view.systemPieces.size(), pieces.size());
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        QCOMPARE(q(view.systemPieces[i].slot), q(str(pieces.at(i).find("slot"))));
        QCOMPARE(q(view.systemPieces[i].source), q(str(pieces.at(i).find("source"))));
        QCOMPARE(q(view.systemPieces[i].text), q(str(pieces.at(i).find("text"))));
    }

    // Messages as sent (compared as JSON values: the file's members are sorted) and no request-only lines.
    QVERIFY2(json::deepEqual(view.asSent, *at(v, {"messages", "asSent"})), q(json::stringify(view.asSent)).left(2000));
    QCOMPARE(at(v, {"messages", "requestOnly"})->size(), std::size_t(0));
    QVERIFY(!findCheck(view, "messages.requestOnly[0]"));

    // Tools: names and schemas; neither forced nor withheld.
    const json::Value &names = *at(v, {"tools", "names"});
    const json::Value &schemas = *at(v, {"tools", "schemas"});
    QCOMPARE(view.tools.size(), names.size());
    QCOMPARE(view.tools.size(), schemas.size());
    for (std::size_t i = 0; i < view.tools.size(); ++i) {
        QCOMPARE(q(view.tools[i].name), q(str(&names.at(i))));
        QVERIFY(view.tools[i].schema);
        QVERIFY2(json::deepEqual(*view.tools[i].schema, schemas.at(i)), q(view.tools[i].name));
    }
    QVERIFY(!at(v, {"tools", "forced"}) && !view.forcedTool);
    QVERIFY(!at(v, {"tools", "withheld"}) && !view.withheld);

    // Gaps: apart from no-fold-base, the rebuilt gaps are the stored ones, down to the covered fields and the
    // upstream `why` sentences.
    std::vector<recording::Gap> rebuilt;
    for (const recording::Gap &g : view.gaps)
        if (g.name != "no-fold-base")
            rebuilt.push_back(g);
    const json::Value &stored = *v.find("gaps");
    QCOMPARE(rebuilt.size(), stored.size());
    for (std::size_t i = 0; i < rebuilt.size(); ++i) {
        const json::Value &s = stored.at(i);
        QCOMPARE(q(rebuilt[i].name), q(str(s.find("gap"))));
        QCOMPARE(q(rebuilt[i].why), q(str(s.find("why"))));
        QCOMPARE(rebuilt[i].cause.empty(), !s.contains("cause"));
        std::vector<std::string> fields;
        for (const json::Value &f : *s.find("fields"))
            fields.emplace_back(f.asString());
        QCOMPARE(q(joined(rebuilt[i].fields)), q(joined(fields)));
    }
}

void TestSamples::referenceFindingsPiece()
{
    const auto run = load("agentfootprint-reference-agent-findings.json");
    const CallView first = recording::buildCallView(*run, 0);
    const CallView second = recording::buildCallView(*run, 1);
    const CallView third = recording::buildCallView(*run, 2);
    // Epoch 1: no ledger; epoch 2: a basis row only (no standing) → no piece; epoch 3: the piece, last.
    QVERIFY(!first.piece);
    QVERIFY(!first.ledgerOnRecord);
    QVERIFY(!second.piece);
    QVERIFY(second.ledgerOnRecord);
    QVERIFY(third.piece);
    QCOMPARE(third.piece->lengthU16(), std::size_t(878));
    QCOMPARE(q(third.systemPieces.back().source), QByteArray("findings"));
    QCOMPARE(third.systemPieces.size(), std::size_t(4));
    // The recomposed piece equals served[2].view.system.pieces[3].text byte for byte.
    const json::Value *stored = at(run->servedViews.at(2), {"view", "system", "pieces"});
    QVERIFY(stored && stored->size() == 4);
    const std::string storedText = str(stored->at(3).find("text"));
    QCOMPARE(q(str(stored->at(3).find("source"))), QByteArray("findings"));
    QCOMPARE(q(text::toWtf8(third.piece->text)), q(storedText));
    QCOMPARE(q(third.systemPieces.back().text), q(storedText));
    // Its first 757 units are the fixed header (§6.5).
    const std::u16string header = third.piece->text.substr(0, 757);
    QVERIFY(header == findings::pieceHeader(findings::HeaderTable::Short));
    QCOMPARE(QByteArray::fromStdString(crypto::Sha256::hexDigest(text::toUtf8Lossy(header))),
             QByteArray("5c11ddf6db91bf3d533d79bdd7dc4cc3dddf238fa86ed8f673e84d21ca49f7c1"));
    // Buckets: the fact on c1, and c2 undeclared.
    const std::string piece = text::toWtf8(third.piece->text);
    QVERIFY2(piece.find("node/node-1 · state = up ← tool:c1") != std::string::npos, piece.c_str());
    QCOMPARE(q(joined(third.undeclaredIds)), QByteArray("c2"));
    QCOMPARE(q(joined(third.servedIds)), QByteArray("c1,c2"));
    QVERIFY(third.pieceChangedSincePrevious);
}

void TestSamples::referenceReceiptChecks()
{
    const auto run = load("agentfootprint-reference-agent-findings.json");
    const std::size_t checks[] = {8, 10, 13};
    for (std::size_t i = 0; i < 3; ++i) {
        const CallView view = recording::buildCallView(*run, i);
        // Placeholder receipts (§6.6 step 2): never Verified, never Damaged; every row Reconstructed.
        QCOMPARE(view.receiptState, CallView::ReceiptState::Placeholder);
        QVERIFY(std::find(view.notes.begin(), view.notes.end(), "receipt hashes are normalised in this file") !=
                view.notes.end());
        QVERIFY(!view.damaged);
        QCOMPARE(view.checks.size(), checks[i]);
        for (const recording::PartCheck &c : view.checks)
            QVERIFY2(c.badge == Badge::Reconstructed, q(c.part + ": " + c.reason));
        // The structural checks all pass: chars, pieces by (slot, source), roles and keys, names.
        QVERIFY(findCheck(view, "system.text"));
        QVERIFY2(findCheck(view, "system.text")->reason.find("length matches") != std::string::npos,
                 q(findCheck(view, "system.text")->reason));
        QVERIFY(findCheck(view, "tools.names"));
        QVERIFY(findCheck(view, "tools.schema[alpha_tool]"));
        QVERIFY(!findCheck(view, "basis.epoch")); // epochs agree
        QVERIFY(!findCheck(view, "messages.count"));
        QVERIFY(!findCheck(view, "receipt.system.pieces[0]"));
        QVERIFY(!findCheck(view, "receipt.messages.entries[0]"));
        const json::Value &receipt = *view.receiptAfter;
        QCOMPARE(at(receipt, {"basis", "epoch"})->asNumber(), double(i + 1));
        QCOMPARE(at(receipt, {"system", "chars"})->asNumber(), double(text::lengthU16(view.systemText)));
        QCOMPARE(at(receipt, {"messages", "count"})->asNumber(), double(view.asSent.size()));
        QCOMPARE(at(receipt, {"system", "pieces"})->size(), view.systemPieces.size());
    }
}

void TestSamples::referenceRequestMeasurement()
{
    const auto run = load("agentfootprint-reference-agent-findings.json");
    struct Sizes
    {
        std::size_t chars, bytes;
    };
    const Sizes system[] = {{1319, 1329}, {1319, 1329}, {2211, 2226}};
    const Sizes messages[] = {{32, 32}, {272, 272}, {664, 664}};
    const Sizes tools[] = {{2508, 2512}, {2588, 2594}, {2593, 2599}};
    const Sizes total[] = {{3912, 3926}, {4232, 4248}, {5521, 5542}};
    const auto sizes = [](const std::string &jsonText) {
        return Sizes{text::lengthU16(jsonText), text::toUtf8Lossy(jsonText).size()};
    };
    for (std::size_t i = 0; i < 3; ++i) {
        const CallView view = recording::buildCallView(*run, i);
        const recording::PartCheck *check = findCheck(view, "requestMeasurement");
        QVERIFY(check);
        QCOMPARE(check->badge, Badge::Reconstructed);
        QCOMPARE(q(check->reason), QByteArray("slot sizes (units/bytes) match the rebuild"));
        // Recompute the figures from the rebuilt request, independently of the verifier.
        json::Value schemas = json::Value::array();
        for (const auto &t : view.tools)
            schemas.push_back(*t.schema);
        const Sizes s = sizes(json::jsQuoted(view.systemText));
        const Sizes m = sizes(json::stringify(view.asSent));
        const Sizes t = sizes(json::stringify(schemas));
        QCOMPARE(s.chars, system[i].chars);
        QCOMPARE(s.bytes, system[i].bytes);
        QCOMPARE(m.chars, messages[i].chars);
        QCOMPARE(m.bytes, messages[i].bytes);
        QCOMPARE(t.chars, tools[i].chars);
        QCOMPARE(t.bytes, tools[i].bytes);
        // The total covers {systemPrompt, messages, tools, model}; no dial was set (params {}).
        json::Value request = json::Value::object();
        request.set("systemPrompt", json::Value::string(view.systemText));
        request.set("messages", view.asSent);
        request.set("tools", schemas);
        request.set("model", json::Value::string(view.model));
        const Sizes all = sizes(json::stringify(request));
        QCOMPARE(all.chars, total[i].chars);
        QCOMPARE(all.bytes, total[i].bytes);
        const json::Value &stored = *at(*view.receiptAfter, {"requestMeasurement", "total"});
        QCOMPARE(stored.find("jsonChars")->asNumber(), double(all.chars));
        QCOMPARE(stored.find("jsonBytes")->asNumber(), double(all.bytes));
    }
}

void TestSamples::referenceCache()
{
    const auto run = load("agentfootprint-reference-agent-findings.json");
    const json::Value candidate = parseJson(kSystemCandidate);
    const std::optional<bool> systemUnchanged[] = {std::nullopt, true, false};
    const char *offer[] = {nullptr, R"("enum":["c1"])", R"("enum":["c2","c1"])"};
    const std::string kNoOffer = "\"enum\":[\"c"; // an enum of result ids
    std::string previousSchema;
    for (std::size_t i = 0; i < 3; ++i) {
        const CallView view = recording::buildCallView(*run, i);
        QVERIFY(view.cache.candidates);
        QVERIFY2(json::deepEqual(*view.cache.candidates, candidate), q(json::stringify(*view.cache.candidates)));
        QVERIFY(view.cache.applied); // markersApplied: [] is a statement: none applied
        QVERIFY(view.cache.applied->isArray() && view.cache.applied->size() == 0);
        const json::Value &receipt = *view.receiptAfter;
        QCOMPARE(q(str(at(receipt, {"cache", "strategy"}))), QByteArray("*"));
        QCOMPARE(q(str(at(receipt, {"cache", "transform"}))), QByteArray("unchanged"));
        // Text equal 1→2, different 2→3 (the findings piece arrived); the schema moves every call, so the prefix
        // is never reusable. Placeholder hashes: the rebuilt bytes are compared, not the stored hashes.
        QCOMPARE(optBool(view.cache.systemUnchanged), optBool(systemUnchanged[i]));
        QCOMPARE(optBool(view.cache.toolsUnchanged), optBool(i == 0 ? std::nullopt : std::optional<bool>(false)));
        QCOMPARE(optBool(view.cache.prefixReusable), optBool(i == 0 ? std::nullopt : std::optional<bool>(false)));
        QVERIFY(!view.cache.fromStoredHashes);
        QCOMPARE(view.cache.verdict, recording::CacheVerdict::Unmeasured);
        QVERIFY(!view.usage.input && !view.usage.output && !view.usage.cacheRead && !view.usage.cacheWrite);
        const std::string schema = json::sortedKeyJson(*view.tools[0].schema);
        if (offer[i])
            QVERIFY2(schema.find(offer[i]) != std::string::npos, offer[i]);
        else
            QVERIFY(schema.find(kNoOffer) == std::string::npos);
        if (i > 0)
            QVERIFY(schema != previousSchema);
        previousSchema = schema;
    }
}

void TestSamples::referenceLedger()
{
    const auto run = load("agentfootprint-reference-agent-findings.json");
    // At the call: absent, 1 row (basis c1), 3 rows (basis c1, standing c1 fact, basis c2). The noise standing on
    // c2 is filed after the call (sf-route#59) and must not show at epoch 3.
    const char *atCall[] = {"", "basis:c1", "basis:c1,standing:c1:fact,basis:c2"};
    const auto describe = [](const json::Value &rows) {
        std::vector<std::string> out;
        for (const json::Value &r : rows) {
            std::string d = str(r.find("kind")) + ":" + str(r.find("toolCallId"));
            if (r.contains("standing"))
                d += ":" + str(r.find("standing"));
            out.push_back(d);
        }
        return joined(out);
    };
    for (std::size_t i = 0; i < 3; ++i) {
        const CallView view = recording::buildCallView(*run, i);
        QCOMPARE(view.ledgerOnRecord, i > 0);
        QCOMPARE(q(describe(view.ledger)), QByteArray(atCall[i]));
    }
    // At the end: 4 rows, the last two standings declared on {toolCallId:"c2"} and on the answer.
    QVERIFY(run->finalLedger());
    QCOMPARE(q(describe(*run->finalLedger())), QByteArray("basis:c1,standing:c1:fact,basis:c2,standing:c2:noise"));
    QVERIFY(json::deepEqual(*run->finalLedger()->at(1).find("declaredOn"), parseJson(R"({"toolCallId":"c2"})")));
    QCOMPARE(q(str(run->finalLedger()->at(3).find("declaredOn"))), QByteArray("answer"));
}

// ---- summarizeCalls agrees with buildCallView on every sample ---------------------------------------------------

void TestSamples::summaryMatchesViews_data()
{
    QTest::addColumn<QString>("file");
    for (const char *f : {"agentfootprint-demo-turn.json", "lens-tool-progress-turn.json",
                          "lens-skill-route-refusal.json", "agentfootprint-reference-agent-findings.json"})
        QTest::newRow(f) << QString::fromUtf8(f);
}

void TestSamples::summaryMatchesViews()
{
    QFETCH(QString, file);
    const auto run = load(file.toUtf8().constData());
    const auto calls = recording::summarizeCalls(*run);
    QCOMPARE(calls.size(), run->calls.size());
    for (std::size_t i = 0; i < calls.size(); ++i) {
        const CallView view = recording::buildCallView(*run, i);
        const recording::CallSummary &s = calls[i];
        QCOMPARE(s.epoch, view.epoch);
        QCOMPARE(q(s.callRuntimeStageId), q(view.record->callRuntimeStageId));
        QCOMPARE(s.messageCount, std::optional<std::size_t>(view.asSent.size()));
        QCOMPARE(s.input, view.usage.input);
        QCOMPARE(s.output, view.usage.output);
        QCOMPARE(optBool(s.systemUnchanged), optBool(view.cache.systemUnchanged));
        QCOMPARE(optBool(s.prefixReusable), optBool(view.cache.prefixReusable));
        QCOMPARE(s.pieceLengthU16.has_value(), view.piece.has_value());
        QVERIFY(s.checks() == view.checks);
        QCOMPARE(s.verified, std::size_t(0));
        QCOMPARE(s.damagedParts, std::size_t(0));
        QCOMPARE(s.damaged, false);
        QCOMPARE(s.reconstructed + s.notOnRecord, s.checks().size());
        QCOMPARE(q(joined(gapNames(s.gaps()))), q(joined(gapNames(view.gaps))));
    }
}

QTEST_APPLESS_MAIN(TestSamples)
#include "tst_samples.moc"
