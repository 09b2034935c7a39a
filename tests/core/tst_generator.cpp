#include "core/findings/ledgerfold.h"
#include "core/json/parser.h"
#include "core/json/writer.h"
#include "core/report/inspectreport.h"
#include "core/generate/recordinggenerator.h"
#include "core/recording/callview.h"
#include "core/recording/recordingloader.h"

#include <QTest>

#include <set>

using namespace tf;
using recording::Badge;

namespace {

std::shared_ptr<const recording::Run> loadGenerated(const generate::GeneratorOptions &options)
{
    auto result = recording::loadRecordingFromBytes(generate::generateRecording(options), "generated.json");
    if (!result.run)
        qFatal("generated recording failed to load: %s", result.error.c_str());
    return result.run;
}

bool isHashedPart(const std::string &part)
{
    return part == "system.text" || part.rfind("system.pieces[", 0) == 0 || part.rfind("messages[", 0) == 0 ||
           part.rfind("tools.schema[", 0) == 0;
}

std::vector<std::string> damagedParts(const recording::CallView &view)
{
    std::vector<std::string> out;
    for (const auto &c : view.checks)
        if (c.badge == Badge::Damaged)
            out.push_back(c.part);
    return out;
}

} // namespace

class TestGenerator : public QObject
{
    Q_OBJECT

private slots:
    void deterministicBySeed();
    void untouchedVerifiesEveryHashedPart_data();
    void untouchedVerifiesEveryHashedPart();
    void everyRowKindAndFeature();
    void messageByteDamagesThatMessageOnly();
    void pieceChangeDamagesThePiece();
    void schemaByteDamagesThatSchemaOnly();
    void indexingKeepsNoDecodedCopies();
    void inspectTextIsTheDocument_data();
    void inspectTextIsTheDocument();
};

void TestGenerator::deterministicBySeed()
{
    generate::GeneratorOptions a;
    a.calls = 9;
    a.seed = 42;
    QCOMPARE(generate::generateRecording(a), generate::generateRecording(a));
    generate::GeneratorOptions b = a;
    b.seed = 43;
    QVERIFY(generate::generateRecording(a) != generate::generateRecording(b));
}

void TestGenerator::untouchedVerifiesEveryHashedPart_data()
{
    QTest::addColumn<int>("calls");
    QTest::addColumn<qulonglong>("seed");
    QTest::newRow("one-call") << 1 << qulonglong(1);
    QTest::newRow("12-calls-seed-1") << 12 << qulonglong(1);
    QTest::newRow("30-calls-seed-2") << 30 << qulonglong(2);
    QTest::newRow("45-calls-seed-99") << 45 << qulonglong(99);
}

void TestGenerator::untouchedVerifiesEveryHashedPart()
{
    QFETCH(int, calls);
    QFETCH(qulonglong, seed);
    generate::GeneratorOptions options;
    options.calls = calls;
    options.seed = seed;
    auto run = loadGenerated(options);
    QCOMPARE(int(run->calls.size()), calls);
    for (std::size_t i = 0; i < run->calls.size(); ++i) {
        const recording::CallView view = recording::buildCallView(*run, i);
        QCOMPARE(view.epoch, int(i) + 1);
        QVERIFY2(!view.damaged, damagedParts(view).empty() ? "?" : damagedParts(view).front().c_str());
        QCOMPARE(view.receiptState, recording::CallView::ReceiptState::Hashed);
        std::size_t hashed = 0;
        for (const auto &c : view.checks) {
            if (isHashedPart(c.part)) {
                ++hashed;
                QVERIFY2(c.badge == Badge::Verified, (c.part + ": " + c.reason).c_str());
            } else if (c.part == "tools.names" || c.part == "requestMeasurement") {
                // Names are never hashed and sizes are no hash: consistent, but only Reconstructed (§6.6).
                QCOMPARE(c.badge, Badge::Reconstructed);
            }
        }
        // text + every piece + every message + three schemas
        QCOMPARE(hashed, 1 + view.systemPieces.size() + view.asSent.size() + 3);
    }
}

void TestGenerator::everyRowKindAndFeature()
{
    generate::GeneratorOptions options;
    options.calls = 30;
    options.seed = 2;
    auto run = loadGenerated(options);
    const std::optional<json::Value> finalLedger = run->finalLedger();
    QVERIFY(finalLedger.has_value());
    std::set<findings::RowKind> kinds;
    const auto summaries = recording::summarizeCalls(*run);
    for (std::size_t i = 0; i < run->calls.size(); ++i) {
        const auto view = recording::buildCallView(*run, i);
        for (const json::Value &row : view.ledger)
            kinds.insert(findings::rowKindOf(row));
    }
    for (const json::Value &row : *finalLedger)
        kinds.insert(findings::rowKindOf(row));
    for (auto kind : {findings::RowKind::Basis, findings::RowKind::Standing, findings::RowKind::Conflict,
                      findings::RowKind::Judgment, findings::RowKind::JudgmentError, findings::RowKind::Contingent,
                      findings::RowKind::UnsettledByAbsence})
        QVERIFY2(kinds.count(kind), findings::rowKindName(kind));
    std::size_t changedPieces = 0, collapsedCalls = 0, hits = 0, misses = 0;
    for (const auto &s : summaries) {
        changedPieces += s.pieceLengthU16 && s.pieceChangedSincePrevious;
        collapsedCalls += !s.collapsedIds.empty();
        hits += s.verdict == recording::CacheVerdict::Hit;
        misses += s.verdict == recording::CacheVerdict::WriteOnly || s.verdict == recording::CacheVerdict::Miss;
    }
    QVERIFY(changedPieces >= 5);
    QVERIFY(collapsedCalls >= 5);
    QVERIFY(hits >= 1);
    QVERIFY(misses >= 5);
}

void TestGenerator::messageByteDamagesThatMessageOnly()
{
    generate::GeneratorOptions options;
    options.calls = 8;
    options.seed = 3;
    options.damage = {generate::Damage::Kind::MessageByte, 4};
    auto run = loadGenerated(options);
    for (std::size_t i = 0; i < run->calls.size(); ++i) {
        const auto view = recording::buildCallView(*run, i);
        const auto damaged = damagedParts(view);
        if (view.epoch < 4) {
            QVERIFY(damaged.empty());
            continue;
        }
        if (view.epoch == 4) {
            // Exactly one message: the first tool result filed after call 3.
            QCOMPARE(damaged.size(), std::size_t(1));
            QVERIFY(damaged.front().rfind("messages[", 0) == 0);
        }
        for (const auto &c : view.checks)
            if (isHashedPart(c.part) && c.part.rfind("messages[", 0) != 0)
                QCOMPARE(c.badge, Badge::Verified);
        QVERIFY(damaged.size() <= 1);
    }
}

void TestGenerator::pieceChangeDamagesThePiece()
{
    generate::GeneratorOptions options;
    options.calls = 8;
    options.seed = 3;
    options.damage = {generate::Damage::Kind::PieceRow, 4};
    auto run = loadGenerated(options);
    bool sawDamage = false;
    for (std::size_t i = 0; i < run->calls.size(); ++i) {
        const auto view = recording::buildCallView(*run, i);
        const auto damaged = damagedParts(view);
        if (view.epoch < 4) {
            QVERIFY(damaged.empty());
            continue;
        }
        if (damaged.empty())
            continue;
        sawDamage = true;
        // The findings piece is the last piece; the joined text contains it, so both differ, and so does the
        // measured size of the system slot (the change adds a character). Nothing else does.
        const std::string pieceIndex = "system.pieces[" + std::to_string(view.systemPieces.size() - 1) + "]";
        QCOMPARE(view.systemPieces.back().source, std::string("findings"));
        QCOMPARE(std::set<std::string>(damaged.begin(), damaged.end()),
                 (std::set<std::string>{"system.text", pieceIndex, "requestMeasurement"}));
    }
    QVERIFY(sawDamage);
}

void TestGenerator::schemaByteDamagesThatSchemaOnly()
{
    generate::GeneratorOptions options;
    options.calls = 6;
    options.seed = 5;
    options.damage = {generate::Damage::Kind::SchemaByte, 3};
    auto run = loadGenerated(options);
    for (std::size_t i = 0; i < run->calls.size(); ++i) {
        const auto view = recording::buildCallView(*run, i);
        const auto damaged = damagedParts(view);
        if (view.epoch == 3)
            QCOMPARE(damaged, (std::vector<std::string>{"tools.schema[lookup_port]", "requestMeasurement"}));
        else
            QVERIFY(damaged.empty());
    }
}

void TestGenerator::indexingKeepsNoDecodedCopies()
{
    // Tool results are JSON inside JSON: the parser keeps them undecoded, and the whole-run pass that `inspect`
    // makes (fold, rebuild, hash and size every message, report) must read them without keeping a decoded copy,
    // or a gigabyte recording would cost its size again in memory.
    if (json::defaultDeferEscapedStringBytes() < 1024)
        QSKIP("every string is deferred in this run: short fields are decoded and kept by design");
    generate::GeneratorOptions options;
    options.calls = 12;
    options.seed = 3;
    const auto run = loadGenerated(options);
    std::size_t deferred = 0;
    const std::size_t before = json::deferredStringsKept();
    const auto summaries = recording::summarizeCalls(*run);
    const std::string report = json::prettyPrint(report::inspectJson(*run, summaries));
    QCOMPARE(json::deferredStringsKept(), before);
    for (std::size_t k = 0; k < run->calls.size(); ++k) {
        const auto view = recording::buildCallView(*run, k);
        for (const json::Value &m : view.committed)
            if (const json::Value *c = m.find("content"); c && c->isDeferredString())
                ++deferred;
    }
    QVERIFY2(deferred > 0, "no tool result took the deferred path");
    QCOMPARE(json::deferredStringsKept(), before);
    QVERIFY(report.find("\"damaged\": false") != std::string::npos);
    QVERIFY(report.find("\"damaged\": true") == std::string::npos);
}

void TestGenerator::inspectTextIsTheDocument_data()
{
    QTest::addColumn<int>("calls");
    QTest::addColumn<int>("workers");
    QTest::newRow("one call") << 1 << 4;
    QTest::newRow("one part") << 63 << 8;
    QTest::newRow("one worker, a part of two chunks") << 300 << 1; // 1.4 MB: a part is printed a megabyte at a time
    QTest::newRow("two workers") << 300 << 2;
    QTest::newRow("uneven parts") << 300 << 3;
    QTest::newRow("more workers than parts") << 300 << 16;
}

void TestGenerator::inspectTextIsTheDocument()
{
    // inspect --json prints its calls in parts on several threads: joined, they are the document's pretty print,
    // byte for byte, however the calls divide.
    QFETCH(int, calls);
    QFETCH(int, workers);
    generate::GeneratorOptions options;
    options.calls = calls;
    options.seed = 11;
    options.resultBytes = 120;
    options.historyInIterationEnd = false;
    options.historyWindow = 12;
    options.turnCalls = 40;
    const auto run = loadGenerated(options);
    const auto summaries = recording::summarizeCalls(*run);
    const std::string text = report::inspectJsonText(*run, summaries, std::size_t(workers));
    QCOMPARE(text, json::prettyPrint(report::inspectJson(*run, summaries)) + "\n");
    const json::Value parsed = json::parseAgain(text, 0);
    QVERIFY(parsed.isObject());
    QCOMPARE(parsed.find("calls")->size(), std::size_t(calls));
}

QTEST_APPLESS_MAIN(TestGenerator)
#include "tst_generator.moc"
