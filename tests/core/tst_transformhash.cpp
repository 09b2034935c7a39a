// cache.transformHash (issue 16, spec/upstream-since-9.113.md §2): the chain-v1 rule passes every worked vector of
// tests/data/conformance/chain-v1-vectors.json link by link, the legacy bare hash too, and a receipt's hash is checked
// against the request rebuilt for its call, saying which scheme it uses and never calling a mismatch damage.

#include "recordingtext.h"

#include "core/generate/recordinggenerator.h"
#include "core/json/parser.h"
#include "core/json/writer.h"
#include "core/receipt/transformhash.h"
#include "core/recording/callview.h"
#include "core/recording/recordingloader.h"

#include <QFile>
#include <QTest>

using namespace tf;

namespace {

const testsupport::ParsedJson &vectors()
{
    static const std::unique_ptr<testsupport::ParsedJson> doc = [] {
        QFile f(QStringLiteral(TRACEFOLD_TEST_DATA "/conformance/chain-v1-vectors.json"));
        if (!f.open(QIODevice::ReadOnly))
            qFatal("cannot read the chain-v1 vectors");
        return testsupport::parseJson(f.readAll().toStdString());
    }();
    return *doc;
}

std::string str(const json::Value &o, std::string_view key)
{
    const json::Value *v = o.findString(key);
    return v ? v->decodedString() : std::string("<missing " + std::string(key) + ">");
}

// The request a test receipt claims the strategy handed back: what the verifier rebuilds from the record, written
// here from the view's parts on the test's own account (upstream's LLMRequest members).
json::Value preparedRequest(const recording::CallView &v)
{
    json::Value request = json::Value::object();
    request.set("systemPrompt", json::Value::string(v.systemText));
    request.set("messages", v.asSent);
    json::Value tools = json::Value::array();
    for (const recording::ToolView &t : v.tools)
        tools.push_back(*t.schema);
    request.set("tools", tools);
    const json::Value &receipt = *v.receiptAfter;
    request.set("model", *receipt.findObject("basis")->find("model"));
    const json::Value *params = receipt.findObject("params");
    for (const char *dial : {"temperature", "maxTokens"})
        if (const json::Value *d = params ? params->find(dial) : nullptr)
            request.set(dial, *d);
    const json::Value *applied = receipt.findObject("cache")->findArray("markersApplied");
    if (applied && applied->size())
        request.set("cacheMarkers", *applied);
    return request;
}

// The recording with the receipt of call `epoch` (1-based) claiming a rewrite fingerprinted by `hash`.
std::string withTransformHash(std::string text, int epoch, const std::string &hash)
{
    const std::string unchanged = R"("transform":"unchanged","transformHash":null)";
    std::size_t at = std::string::npos;
    for (int i = 0; i < epoch; ++i)
        at = text.find(unchanged, at == std::string::npos ? 0 : at + 1);
    if (at == std::string::npos)
        qFatal("no receipt for call %d", epoch);
    text.replace(at, unchanged.size(), R"("transform":"rewritten","transformHash":)" + json::jsQuoted(hash));
    return text;
}

} // namespace

class TestTransformHash : public QObject
{
    Q_OBJECT

private slots:
    void chainV1Vectors_data();
    void chainV1Vectors();
    void schemes_data();
    void schemes();
    void receiptsSayTheirScheme_data();
    void receiptsSayTheirScheme();
};

void TestTransformHash::chainV1Vectors_data()
{
    QTest::addColumn<int>("index");
    const json::Value *list = vectors().root.findArray("vectors");
    QVERIFY(list && list->size() == 6);
    for (std::size_t i = 0; i < list->size(); ++i)
        QTest::newRow(str(list->at(i), "name").c_str()) << int(i);
}

void TestTransformHash::chainV1Vectors()
{
    QFETCH(int, index);
    const json::Value &v = vectors().root.findArray("vectors")->at(std::size_t(index));
    const std::string salt = str(v, "runId");
    const json::Value &request = *v.find("request");
    const receipt::ChainV1Trace trace = receipt::chainV1Trace(salt, request);
    QCOMPARE(trace.link0, str(v, "link0"));
    const json::Value &links = *v.findArray("messages");
    QCOMPARE(trace.links.size(), links.size());
    for (std::size_t i = 0; i < links.size(); ++i) {
        QCOMPARE(trace.links[i].elementJson, str(links.at(i), "elementJson"));
        QCOMPARE(trace.links[i].digest, str(links.at(i), "digest"));
        QCOMPARE(trace.links[i].link, str(links.at(i), "link"));
    }
    QCOMPARE(trace.headJson, str(v, "headJson"));
    QCOMPARE(trace.hash, str(v, "hash"));
    QCOMPARE(receipt::chainV1TransformHash(salt, request), str(v, "hash"));
    QCOMPARE(receipt::legacyTransformHash(salt, request), str(v, "legacyBareHash"));
}

void TestTransformHash::schemes_data()
{
    QTest::addColumn<QString>("stored");
    QTest::addColumn<QString>("scheme");
    QTest::newRow("chain-v1") << "chain-v1:65a1f68a7163256d"
                              << "chain-v1";
    QTest::newRow("legacy-bare") << "7c7dfa544419685a"
                                 << "legacy";
    QTest::newRow("chain-v1-short") << "chain-v1:65a1f68a"
                                    << "unknown";
    QTest::newRow("upper-case-hex") << "7C7DFA544419685A"
                                    << "unknown";
    QTest::newRow("later-scheme") << "chain-v2:65a1f68a7163256d"
                                  << "unknown";
    QTest::newRow("fixture-placeholder") << "<digest>"
                                         << "unknown";
}

void TestTransformHash::schemes()
{
    QFETCH(QString, stored);
    QFETCH(QString, scheme);
    QCOMPARE(QString::fromLatin1(receipt::transformHashSchemeId(receipt::transformHashScheme(stored.toStdString()))),
             scheme);
}

void TestTransformHash::receiptsSayTheirScheme_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("badge");
    QTest::addColumn<QString>("scheme");
    QTest::addColumn<QString>("reason");
    QTest::newRow("chain-v1-reproduced") << "chain-v1" << int(recording::Badge::Verified) << "chain-v1"
                                         << "scheme chain-v1; the rebuilt prepared request reproduces it";
    QTest::newRow("legacy-reproduced") << "legacy" << int(recording::Badge::Verified) << "legacy"
                                       << "scheme legacy; the rebuilt prepared request reproduces it";
    QTest::newRow("chain-v1-not-reproduced")
        << "chain-v1-other" << int(recording::Badge::NotOnRecord) << "chain-v1"
        << "scheme chain-v1; the request rebuilt from the record does not reproduce it, and the request the cache "
           "strategy handed back is not on record";
    QTest::newRow("unknown-scheme") << "unknown" << int(recording::Badge::NotOnRecord) << "unknown"
                                    << "a scheme this version does not read; it cannot be recomputed";
}

void TestTransformHash::receiptsSayTheirScheme()
{
    QFETCH(QString, kind);
    QFETCH(int, badge);
    QFETCH(QString, scheme);
    QFETCH(QString, reason);
    constexpr int kEpoch = 4;
    const std::string plain = testsupport::generated(6, 11);
    const recording::LoadResult base = recording::loadRecordingFromBytes(plain, "plain.json");
    QVERIFY2(base.run, base.error.c_str());
    const recording::CallView before = recording::buildCallView(*base.run, kEpoch - 1);
    QVERIFY(!testsupport::findCheck(before, "cache.transformHash")); // null: nothing to check, no scheme
    QVERIFY(!before.transformHashScheme);
    const std::string salt = str(*before.receiptAfter->findObject("basis"), "runId");
    const json::Value request = preparedRequest(before);
    std::string hash = kind == "legacy"           ? receipt::legacyTransformHash(salt, request)
                       : kind == "chain-v1"       ? receipt::chainV1TransformHash(salt, request)
                       : kind == "chain-v1-other" ? receipt::chainV1TransformHash(salt + "x", request)
                                                  : "chain-v2:0123456789abcdef";
    const recording::LoadResult loaded =
        recording::loadRecordingFromBytes(withTransformHash(plain, kEpoch, hash), "rewritten.json");
    QVERIFY2(loaded.run, loaded.error.c_str());
    const recording::CallView view = recording::buildCallView(*loaded.run, kEpoch - 1);
    const recording::PartCheck *check = testsupport::findCheck(view, "cache.transformHash");
    QVERIFY(check);
    QCOMPARE(int(check->badge), badge);
    QCOMPARE(QString::fromStdString(check->reason), reason);
    QVERIFY(view.transformHashScheme);
    QCOMPARE(QString::fromLatin1(receipt::transformHashSchemeId(*view.transformHashScheme)), scheme);
    QVERIFY(!view.damaged);
    const auto summaries = recording::summarizeCalls(*loaded.run);
    QVERIFY(summaries[kEpoch - 1].transformHashScheme == view.transformHashScheme);
}

QTEST_APPLESS_MAIN(TestTransformHash)
#include "tst_transformhash.moc"
