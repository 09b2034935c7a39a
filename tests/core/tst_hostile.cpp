// Hostile input (issue 8): what a recording from anywhere must not be able to do to the engine. Each case is small
// enough for every ctest run (also under ASan); the README's "Limits on hostile input" lists the full-size figures.

#include "core/json/parser.h"
#include "core/json/writer.h"
#include "core/recording/commitlogfold.h"
#include "core/recording/recordingloader.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTest>

#include <map>
#include <string>

using namespace tf;

namespace {

struct Parsed
{
    std::string text;
    json::StringArena arena;
    json::ParseError error;
    json::Value value;
};

void parseInto(Parsed &p, std::string text)
{
    p.text = std::move(text);
    p.value = json::parse(p.text, p.arena, p.error);
}

std::string commitLogRecording(const std::string &row)
{
    return R"({"snapshot":{"commitLog":[)" + row + R"(]},"events":[]})";
}

// The JavaScript property order of a set of keys: index keys ascending, then the others in first-insertion order.
std::vector<std::string> jsOrder(const std::vector<std::string> &insertionOrder)
{
    std::vector<std::string> index, named;
    for (const std::string &k : insertionOrder)
        (json::isArrayIndexKey(k) ? index : named).push_back(k);
    std::sort(index.begin(), index.end(),
              [](const std::string &a, const std::string &b) { return std::stoull(a) < std::stoull(b); });
    index.insert(index.end(), named.begin(), named.end());
    return index;
}

} // namespace

class TestHostile : public QObject
{
    Q_OBJECT

private slots:
    void deepNestingIsRefusedWithItsPosition();
    void objectIndexAgreesWithAScan();
    void manyNamesInOneObjectAreLinear();
    void foldMergesAMillionNamesInLinearTime();
    void foldWritesManyNamesOneByOneInLinearTime();
    void foldRefusesAPathTooDeepToWalk();
    void everyRefusalNamesTheFile();
    void tooManyCallsAreRefused();
};

void TestHostile::deepNestingIsRefusedWithItsPosition()
{
    Parsed p;
    parseInto(p, std::string(1'000'000, '[') + std::string(1'000'000, ']'));
    QVERIFY(p.error.failed());
    QCOMPARE(p.error.offset, std::size_t(512));
    QVERIFY(p.error.reason.find("nesting deeper than 512") != std::string::npos);

    const auto result = recording::loadRecordingFromBytes(
        R"({"events":)" + std::string(100'000, '[') + std::string(100'000, ']') + "}", "deep.json");
    QVERIFY(!result.run);
    QVERIFY2(result.error.rfind("deep.json: invalid JSON at byte 521", 0) == 0, result.error.c_str());
}

// The object index (ObjectNode::index) must give the same answers as the scan it replaces, through every write.
void TestHostile::objectIndexAgreesWithAScan()
{
    QRandomGenerator generator(8); // fixed: a failure replays
    auto *rng = &generator;
    for (int round = 0; round < 20; ++round) {
        json::Value object = json::Value::object();
        std::vector<std::string> order; // insertion order of the live keys
        std::map<std::string, double> model;
        json::Value snapshot; // a copy taken midway must not see later writes
        std::map<std::string, double> snapshotModel;
        const int ops = 400;
        for (int op = 0; op < ops; ++op) {
            const quint32 r = rng->bounded(100u);
            const bool indexKey = rng->bounded(2u) == 0;
            const std::string key =
                indexKey ? std::to_string(rng->bounded(150u)) : "k" + std::to_string(rng->bounded(150u));
            if (r < 70) {
                if (!model.count(key))
                    order.push_back(key);
                model[key] = op;
                object.set(key, json::Value::number(op));
            } else {
                const bool had = model.erase(key) != 0;
                if (had)
                    order.erase(std::find(order.begin(), order.end(), key));
                QCOMPARE(object.erase(key), had);
            }
            if (op == ops / 2) {
                snapshot = object;
                snapshotModel = model;
            }
            QCOMPARE(object.memberCount(), model.size());
        }
        const std::vector<std::string> expected = jsOrder(order);
        QCOMPARE(object.memberCount(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const json::Member &m = object.memberBegin()[i];
            QCOMPARE(m.key, expected[i]);
            QCOMPARE(m.value.asNumber(), model.at(std::string(m.key)));
            QVERIFY(object.find(m.key) == &m.value);
        }
        for (int k = 0; k < 150; ++k)
            for (const std::string &key : {std::to_string(k), "k" + std::to_string(k)}) {
                QCOMPARE(object.find(key) != nullptr, model.count(key) == 1);
                QCOMPARE(snapshot.find(key) != nullptr, snapshotModel.count(key) == 1);
                if (snapshotModel.count(key))
                    QCOMPARE(snapshot.find(key)->asNumber(), snapshotModel.at(key));
            }
    }
}

void TestHostile::manyNamesInOneObjectAreLinear()
{
    std::string text = "{";
    for (int i = 0; i < 300'000; ++i)
        text += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(i);
    text += "}";
    Parsed p;
    QElapsedTimer timer;
    timer.start();
    parseInto(p, text);
    QVERIFY(!p.error.failed());
    json::Value copy = p.value;
    for (int i = 0; i < 300'000; ++i) {
        const std::string key = "k" + std::to_string(i);
        const json::Value *v = p.value.find(key);
        QVERIFY(v && v->asNumber() == i);
        copy.set("n" + std::to_string(i), json::Value::number(i)); // appends stay O(1) with the index kept current
    }
    QCOMPARE(copy.memberCount(), std::size_t(600'000));
    QCOMPARE(p.value.memberCount(), std::size_t(300'000)); // copy-on-write: the parsed value is unchanged
    // A scan per lookup would be 300k x 300k comparisons: minutes, not this.
    QVERIFY2(timer.elapsed() < 20'000, qPrintable(QString::number(timer.elapsed())));
}

void TestHostile::foldMergesAMillionNamesInLinearTime()
{
    // One merge entry whose `updates` holds a million names, half of them index keys, into an object that already
    // holds names: one insert per key would shift the names after it every time.
    std::string updates = R"({"p":{"a":0,)";
    for (int i = 0; i < 500'000; ++i)
        updates += "\"k" + std::to_string(i) + "\":1,\"" + std::to_string(999'999 - i) + "\":2,";
    updates.back() = '}';
    updates += '}';
    Parsed p;
    parseInto(p, R"([{"runtimeStageId":"s#0","trace":[{"path":"p","verb":"set"},{"path":"p","verb":"merge"}],)"
                 R"("overwrite":{"p":{"z":0}},"updates":)" +
                     updates + "}]");
    QVERIFY(!p.error.failed());
    QElapsedTimer timer;
    timer.start();
    recording::CommitLogFold fold(nullptr);
    QVERIFY(fold.apply(p.value.at(0)));
    const json::Value *object = fold.state().find("p");
    QVERIFY(object && object->isObject());
    QCOMPARE(object->memberCount(), std::size_t(1'000'002));
    // JavaScript order: the index keys ascending first, then z (set first), a, k0, k1, ...
    QCOMPARE(object->memberBegin()[0].key, std::string("500000"));
    QCOMPARE(object->memberBegin()[499'999].key, std::string("999999"));
    QCOMPARE(object->memberBegin()[500'000].key, std::string("z"));
    QCOMPARE(object->memberBegin()[500'001].key, std::string("a"));
    QCOMPARE(object->memberBegin()[500'002].key, std::string("k0"));
    QVERIFY2(timer.elapsed() < 20'000, qPrintable(QString::number(timer.elapsed())));
}

void TestHostile::foldWritesManyNamesOneByOneInLinearTime()
{
    // 200k trace entries, each setting one new name of the same object.
    std::string trace, overwrite;
    for (int i = 0; i < 200'000; ++i) {
        trace += std::string(i ? "," : "") + R"({"path":"p\u001fk)" + std::to_string(i) + R"(","verb":"set"})";
        overwrite += std::string(i ? "," : "") + "\"k" + std::to_string(i) + "\":" + std::to_string(i);
    }
    Parsed p;
    parseInto(p, R"([{"runtimeStageId":"s#0","trace":[)" + trace + R"(],"overwrite":{"p":{)" + overwrite + "}}}]");
    QVERIFY(!p.error.failed());
    QElapsedTimer timer;
    timer.start();
    recording::CommitLogFold fold(nullptr);
    QVERIFY(fold.apply(p.value.at(0)));
    QCOMPARE(fold.state().find("p")->memberCount(), std::size_t(200'000));
    QCOMPARE(fold.state().find("p")->find("k199999")->asNumber(), 199'999.0);
    QVERIFY2(timer.elapsed() < 20'000, qPrintable(QString::number(timer.elapsed())));
}

void TestHostile::foldRefusesAPathTooDeepToWalk()
{
    // A path of a million segments would build a state a million objects deep: freeing it, writing it out or
    // comparing it recurses once per level and overflows the stack. Such an entry is not applied.
    std::string path;
    for (int i = 0; i < 1'000'000; ++i)
        path += i ? "\\u001fa" : "a";
    Parsed p;
    parseInto(p, R"([{"runtimeStageId":"s#0","trace":[{"path":")" + path +
                     R"(","verb":"set"},{"path":"ok","verb":"set"}],"overwrite":{"ok":1}}])");
    QVERIFY(!p.error.failed());
    recording::CommitLogFold fold(nullptr);
    QVERIFY(fold.apply(p.value.at(0)));
    QCOMPARE(fold.refusedPathCount(), std::size_t(1));
    QCOMPARE(json::stringify(fold.state()), std::string(R"({"ok":1})"));

    // At the limit the path is applied.
    std::string limit;
    for (std::size_t i = 0; i < recording::kMaxPathSegments; ++i)
        limit += i ? "\\u001fa" : "a";
    Parsed q;
    parseInto(q, R"([{"runtimeStageId":"s#0","trace":[{"path":")" + limit +
                     R"(","verb":"merge"}],)"
                     R"("updates":{}}])");
    recording::CommitLogFold atLimit(nullptr);
    QVERIFY(atLimit.apply(q.value.at(0)));
    QCOMPARE(atLimit.refusedPathCount(), std::size_t(0));

    // Through the loader too: it opens, and the fold base is reported as usual.
    const auto result = recording::loadRecordingFromBytes(
        commitLogRecording(R"({"runtimeStageId":"s#0","trace":[{"path":")" + path + R"(","verb":"set"}]})"),
        "deep-path.json");
    QVERIFY2(result.run, result.error.c_str());
}

void TestHostile::everyRefusalNamesTheFile()
{
    for (const char *text :
         {"", "[]", "{", "{\"a\":1} x", "{\"events\":[1]}", "{\"type\":\"x\",\"payload\":{}}\n[1]\n"}) {
        const auto result = recording::loadRecordingFromBytes(text, "named.json");
        QVERIFY2(!result.run, text);
        QVERIFY2(result.error.rfind("named.json:", 0) == 0, result.error.c_str());
    }
}

void TestHostile::tooManyCallsAreRefused()
{
    // kMaxCalls + 1 bare llm_start events: each is a call (events only).
    std::string text = R"({"events":[)";
    const std::string event = R"({"type":"agentfootprint.stream.llm_start","payload":{},"meta":{}})";
    for (std::size_t i = 0; i <= recording::kMaxCalls; ++i)
        text += (i ? "," : "") + event;
    text += "]}";
    const auto result = recording::loadRecordingFromBytes(text, "many.json");
    QVERIFY(!result.run);
    QCOMPARE(result.error, "many.json: " + std::to_string(recording::kMaxCalls + 1) +
                               " LLM calls; Tracefold opens recordings of at most " +
                               std::to_string(recording::kMaxCalls) + " calls");
}

QTEST_GUILESS_MAIN(TestHostile)
#include "tst_hostile.moc"
