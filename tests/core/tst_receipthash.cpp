#include "core/crypto/sha256.h"
#include "core/json/parser.h"
#include "core/json/writer.h"
#include "core/receipt/contenthash.h"
#include "core/receipt/messagedigest.h"
#include "core/receipt/receipthash.h"
#include "core/text/utf.h"

#include <QFile>
#include <QTest>

#include <functional>
#include <memory>

using namespace tf;

namespace {

// Spec tables write U+001F/1E/1D/1C as the control pictures ␟␞␝␜; rows do the same and are translated here, which
// keeps them readable and avoids C++ hex escapes swallowing the letters that follow.
QByteArray controls(const char *withPictures)
{
    QByteArray s(withPictures);
    s.replace("\u241F", "\x1F");
    s.replace("\u241E", "\x1E");
    s.replace("\u241D", "\x1D");
    s.replace("\u241C", "\x1C");
    return s;
}

std::string_view view(const QByteArray &bytes)
{
    return {bytes.constData(), std::size_t(bytes.size())};
}

std::u16string_view view(const QString &s)
{
    return {reinterpret_cast<const char16_t *>(s.utf16()), std::size_t(s.size())};
}

QString fromU16(std::u16string_view u)
{
    return QString(reinterpret_cast<const QChar *>(u.data()), qsizetype(u.size()));
}

// A parsed document: the source text and the arena must outlive the values that point into them.
struct Document
{
    std::string text;
    json::StringArena arena;
    json::Value root;
};

json::Value parseOk(std::string_view text, json::StringArena &arena)
{
    json::ParseError error;
    json::Value v = json::parse(text, arena, error);
    if (error.failed())
        qFatal("unexpected parse error: %s", error.describe().c_str());
    return v;
}

std::string loadText(const QString &relativePath)
{
    QFile file(QStringLiteral(TRACEFOLD_TEST_DATA "/") + relativePath);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(file.fileName()));
    const QByteArray bytes = file.readAll();
    return std::string(bytes.constData(), std::size_t(bytes.size()));
}

std::unique_ptr<Document> loadDocument(const QString &relativePath)
{
    auto doc = std::make_unique<Document>();
    doc->text = loadText(relativePath);
    doc->root = parseOk(doc->text, doc->arena);
    return doc;
}

const Document &referenceDocument()
{
    static const std::unique_ptr<Document> doc =
        loadDocument(QStringLiteral("samples/agentfootprint-reference-agent-findings.json"));
    return *doc;
}

// served[epoch - 1].view
const json::Value &servedView(int epoch)
{
    const json::Value *served = referenceDocument().root.findArray("served");
    if (!served || served->size() < std::size_t(epoch))
        qFatal("reference sample: no served[%d]", epoch - 1);
    const json::Value *v = served->at(std::size_t(epoch - 1)).findObject("view");
    if (!v)
        qFatal("reference sample: served[%d] has no view", epoch - 1);
    return *v;
}

const json::Value &path(const json::Value &from, std::initializer_list<std::string_view> keys)
{
    const json::Value *v = &from;
    for (std::string_view key : keys) {
        v = v->find(key);
        if (!v)
            qFatal("missing key %.*s", int(key.size()), key.data());
    }
    return *v;
}

void forEachObject(const json::Value &v, const std::function<void(const json::Value &)> &visit)
{
    if (v.isObject()) {
        visit(v);
        for (const json::Member *m = v.memberBegin(); m != v.memberEnd(); ++m)
            forEachObject(m->value, visit);
    } else if (v.isArray()) {
        for (const json::Value &item : v)
            forEachObject(item, visit);
    }
}

const QString kRun1 = QStringLiteral("run-1");

} // namespace

class TestReceiptHash : public QObject
{
    Q_OBJECT

private slots:
    void receiptHash_data();
    void receiptHash();
    void separatelyWrittenHalvesHashAsThePair();
    void largeContentStreamsLikeTheCopy();
    void v1FindingsPiece();
    void isReceiptHashShaped_data();
    void isReceiptHashShaped();

    void messageDigest_data();
    void messageDigest();
    void requestOnlyLineIsRoleAndContent();
    void toolSchemaVector();

    void referenceSample_data();
    void referenceSample();
    void referenceSampleLengths_data();
    void referenceSampleLengths();
    void referenceFindingsHeaderSha256();

    void contentHash_data();
    void contentHash();
    void contentHashIsOverUtf16Units();
    void contentHashOfRecordedPieces_data();
    void contentHashOfRecordedPieces();
};

// ---------------------------------------------------------------------------------------------------------------
// receiptHash

void TestReceiptHash::receiptHash_data()
{
    QTest::addColumn<QString>("salt");
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("hash");
    const QString lone = QString(QChar(char16_t(0xD800)));
    // recording.md §6.5
    QTest::newRow("run-1-empty") << kRun1 << QString() << "5b69656befee33b3";
    QTest::newRow("run-1-abc") << kRun1 << "abc"
                               << "2d6c0239ba7f2308";
    QTest::newRow("run-2-abc") << "run-2"
                               << "abc"
                               << "c3a021afd3c3ff09";
    QTest::newRow("empty-salt-abc") << QString() << "abc"
                                    << "2aee4b04329fce7b";
    QTest::newRow("run-1-bot") << kRun1 << "bot"
                               << "6a88422434ff832d";
    QTest::newRow("run-1-e-acute-dash-ellipsis") << kRun1 << QString::fromUtf8("é — …") << "b8e692acdfb9da10";
    QTest::newRow("run-1-emoji") << kRun1 << QString::fromUtf8("😀") << "a547734d61a5cd91";
    QTest::newRow("run-1-lone-D800") << kRun1 << lone << "18be5c6c8f44070b";
    QTest::newRow("run-1-U+FFFD") << kRun1 << QString(QChar(char16_t(0xFFFD))) << "18be5c6c8f44070b";
    // findings.md §6.3
    QTest::newRow("run-1-a-lone-D83D") << kRun1 << (QStringLiteral("a") + QChar(char16_t(0xD83D)))
                                       << "d9eff24679116af9";
    QTest::newRow("run-1-a-U+FFFD") << kRun1 << (QStringLiteral("a") + QChar(char16_t(0xFFFD))) << "d9eff24679116af9";
    QTest::newRow("run-1-pair-D83D-DE00")
        << kRun1 << (QString(QChar(char16_t(0xD83D))) + QChar(char16_t(0xDE00))) << "a547734d61a5cd91";
}

void TestReceiptHash::receiptHash()
{
    QFETCH(QString, salt);
    QFETCH(QString, content);
    QFETCH(QString, hash);
    const std::string saltWtf8 = text::toWtf8(view(salt));
    const std::string contentWtf8 = text::toWtf8(view(content));
    QCOMPARE(QString::fromStdString(receipt::receiptHash(saltWtf8, contentWtf8)), hash);
    QCOMPARE(QString::fromStdString(receipt::receiptHash(saltWtf8, view(content))), hash);
    // Independent of the streaming: hash the concatenated WHATWG bytes in one go.
    const std::string preimage = text::toUtf8Lossy(saltWtf8 + "\x1F" + contentWtf8);
    QCOMPARE(QString::fromStdString(crypto::Sha256::hexDigest(preimage).substr(0, 16)), hash);
}

void TestReceiptHash::separatelyWrittenHalvesHashAsThePair()
{
    // Not valid WTF-8 (a pair has a 4-byte form), but a careless join could produce it; the text's UTF-16 view is
    // then the pair, so the hash must be the emoji's.
    const std::string halves = "\xED\xA0\xBD\xED\xB8\x80";
    QCOMPARE(receipt::receiptHash("run-1", halves), std::string("a547734d61a5cd91"));
    // A low half before a high half is two lone units.
    const std::string reversed = "\xED\xB8\x80\xED\xA0\xBD";
    QCOMPARE(receipt::receiptHash("run-1", reversed), receipt::receiptHash("run-1", std::string_view("\uFFFD\uFFFD")));
}

void TestReceiptHash::largeContentStreamsLikeTheCopy()
{
    // A few MB with lone surrogates at the edges and inside the 4 KiB encode chunks.
    std::u16string content;
    content.push_back(char16_t(0xDC00));
    for (int i = 0; i < 300000; ++i) {
        content.append(u"block é 😀 ");
        if (i % 997 == 0)
            content.push_back(char16_t(0xD83D));
    }
    content.push_back(char16_t(0xD800));
    const std::string wtf8 = text::toWtf8(content);
    const std::string expected =
        crypto::Sha256::hexDigest(std::string("run-1\x1F") + text::toUtf8Lossy(content)).substr(0, 16);
    QCOMPARE(receipt::receiptHash("run-1", content), expected);
    QCOMPARE(receipt::receiptHash("run-1", wtf8), expected);
}

void TestReceiptHash::v1FindingsPiece()
{
    // findings.md §6.3: the V1 piece is conformance case spec-V1-full-grammar.
    const std::string vectors = loadText(QStringLiteral("conformance/findings-vectors.jsonl"));
    json::StringArena arena;
    std::size_t offset = 0;
    bool found = false;
    while (offset < vectors.size()) {
        std::size_t end = vectors.find('\n', offset);
        if (end == std::string::npos)
            end = vectors.size();
        const std::string_view line(vectors.data() + offset, end - offset);
        offset = end + 1;
        if (line.find("\"spec-V1-full-grammar\"") == std::string_view::npos)
            continue;
        const json::Value c = parseOk(line, arena);
        const json::Value *name = c.findString("name");
        if (!name || name->asString() != "spec-V1-full-grammar")
            continue;
        const json::Value *piece = c.findString("piece");
        QVERIFY(piece);
        QCOMPARE(receipt::receiptHash("run-1", piece->asString()), std::string("8998ab62439fa417"));
        found = true;
    }
    QVERIFY(found);
}

void TestReceiptHash::isReceiptHashShaped_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("shaped");
    QTest::newRow("hash") << "5b69656befee33b3" << true;
    QTest::newRow("digits") << "0123456789012345" << true;
    QTest::newRow("uppercase") << "5B69656BEFEE33B3" << false;
    QTest::newRow("fifteen") << "5b69656befee33b" << false;
    QTest::newRow("seventeen") << "5b69656befee33b3a" << false;
    QTest::newRow("placeholder") << "<digest>" << false;
    QTest::newRow("volatile") << "<volatile>" << false;
    QTest::newRow("non-hex-g") << "5b69656befee33bg" << false;
    QTest::newRow("empty") << "" << false;
}

void TestReceiptHash::isReceiptHashShaped()
{
    QFETCH(QString, text);
    QFETCH(bool, shaped);
    QCOMPARE(receipt::isReceiptHashShaped(text.toStdString()), shaped);
}

// ---------------------------------------------------------------------------------------------------------------
// messageDigestInput

void TestReceiptHash::messageDigest_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QString>("hash"); // under run-1; empty where no independent value exists

    // recording.md §6.5
    QTest::newRow("user-go") << QByteArray(R"({"role":"user","content":"go"})") << controls("user␞go␞␞␞␞")
                             << "cc4a4090faf6dc1e";
    QTest::newRow("assistant-one-call")
        << QByteArray(R"({"role":"assistant","content":"","toolCalls":[{"id":"c1","name":"alpha_tool",)"
                      R"("args":{"q":"nodes","_findings":{"basis":"exploratory","expect":"low"}}}]})")
        << controls(R"(assistant␞␞␞␞c1␝alpha_tool␝{"_findings":{"basis":"exploratory","expect":"low"},"q":"nodes"}␝␞)")
        << "b445373471d40218";
    QTest::newRow("tool-result")
        << QByteArray(R"({"role":"tool","content":"alpha_tool result","toolCallId":"c1","toolName":"alpha_tool"})")
        << controls("tool␞alpha_tool result␞c1␞alpha_tool␞␞") << "0602e7a4a921cbd7";
    QTest::newRow("two-calls-provider-meta")
        << QByteArray(R"({"role":"assistant","content":"two","toolCalls":[{"id":"a","name":"x","args":{}},)"
                      R"({"id":"b","name":"y","args":{"z":1,"a":[2,1]},"providerMeta":{"thoughtSignature":"sig"}}]})")
        << controls(R"(assistant␞two␞␞␞a␝x␝{}␝␜b␝y␝{"a":[2,1],"z":1}␝{"thoughtSignature":"sig"}␞)")
        << "01bfe97414d2572f";
    QTest::newRow("thinking-blocks")
        << QByteArray(R"({"role":"assistant","content":"hm","thinkingBlocks":[{"type":"thinking","thinking":"t",)"
                      R"("signature":"s"}]})")
        << controls(R"(assistant␞hm␞␞␞␞[{"signature":"s","thinking":"t","type":"thinking"}])") << "a5537c831e922e64";
    QTest::newRow("thinking-blocks-empty") << QByteArray(R"({"role":"assistant","content":"hm","thinkingBlocks":[]})")
                                           << controls("assistant␞hm␞␞␞␞") << "daf226a9ccdbb2fc";
    QTest::newRow("collapsed-tool-result")
        << QByteArray(R"({"role":"tool","content":"{\"collapsed\":true,\"standing\":\"noise\",\"toolCallId\":\"c2\"}",)"
                      R"("toolCallId":"c2","toolName":"alpha_tool"})")
        << controls(R"(tool␞{"collapsed":true,"standing":"noise","toolCallId":"c2"}␞c2␞alpha_tool␞␞)")
        << "7c61843cf409c566";

    // Edge rules of §6.3.
    QTest::newRow("absent-everything") << QByteArray("{}") << controls("␞␞␞␞␞") << "";
    QTest::newRow("absent-role") << QByteArray(R"({"content":"x"})") << controls("␞x␞␞␞␞") << "";
    QTest::newRow("args-absent-is-unserializable")
        << QByteArray(R"({"role":"assistant","content":"","toolCalls":[{"id":"c9","name":"n"}]})")
        << controls("assistant␞␞␞␞c9␝n␝␟<unserializable>␝␞") << "";
    QTest::newRow("call-id-and-name-absent")
        << QByteArray(R"({"role":"assistant","toolCalls":[{"args":{"b":2,"a":1}}]})")
        << controls(R"(assistant␞␞␞␞␝␝{"a":1,"b":2}␝␞)") << "";
    QTest::newRow("tool-calls-empty") << QByteArray(R"({"role":"assistant","content":"x","toolCalls":[]})")
                                      << controls("assistant␞x␞␞␞␞") << "";
    QTest::newRow("empty-tool-call-id-kept")
        << QByteArray(R"({"role":"tool","content":"r","toolCallId":""})") << controls("tool␞r␞␞␞␞") << "";
    QTest::newRow("not-covered-members-ignored")
        << QByteArray(R"({"role":"user","content":"go","injectedBy":"x","notDispatched":true,"ephemeral":true})")
        << controls("user␞go␞␞␞␞") << "cc4a4090faf6dc1e";
    QTest::newRow("member-order-irrelevant")
        << QByteArray(R"({"content":"go","role":"user"})") << controls("user␞go␞␞␞␞") << "cc4a4090faf6dc1e";
    QTest::newRow("args-index-keys-first")
        << QByteArray(R"({"role":"assistant","toolCalls":[{"id":"i","name":"n","args":{"b":1,"10":2,"9":3}}]})")
        << controls(R"(assistant␞␞␞␞i␝n␝{"9":3,"10":2,"b":1}␝␞)") << "";
    QTest::newRow("lone-surrogate-escaped-in-args-raw-in-content")
        << QByteArray(
               R"({"role":"user","content":"a\ud83d","toolCalls":[{"id":"i","name":"n","args":{"v":"\ud83d"}}]})")
        << controls("user␞a\xED\xA0\xBD␞␞␞i␝n␝{\"v\":\"\\ud83d\"}␝␞") << "";

    // Damaged recordings: documented choices, never a crash.
    QTest::newRow("non-string-role-and-content") << QByteArray(R"({"role":5,"content":{"b":[true],"a":null}})")
                                                 << controls(R"(5␞{"a":null,"b":[true]}␞␞␞␞)") << "";
    QTest::newRow("null-content") << QByteArray(R"({"role":"user","content":null})") << controls("user␞null␞␞␞␞") << "";
    QTest::newRow("tool-calls-not-array") << QByteArray(R"({"role":"assistant","toolCalls":{"id":"c1"}})")
                                          << controls(R"(assistant␞␞␞␞{"id":"c1"}␞)") << "";
    QTest::newRow("tool-call-not-object") << QByteArray(R"({"role":"assistant","toolCalls":[7,null]})")
                                          << controls("assistant␞␞␞␞␝␝␟<unserializable>␝␜␝␝␟<unserializable>␝␞") << "";
    QTest::newRow("provider-meta-null")
        << QByteArray(R"({"role":"assistant","toolCalls":[{"id":"a","name":"x","args":{},"providerMeta":null}]})")
        << controls("assistant␞␞␞␞a␝x␝{}␝null␞") << "";
    QTest::newRow("thinking-blocks-null") << QByteArray(R"({"role":"assistant","content":"hm","thinkingBlocks":null})")
                                          << controls("assistant␞hm␞␞␞␞") << "daf226a9ccdbb2fc";
    QTest::newRow("thinking-blocks-object") << QByteArray(R"({"role":"assistant","thinkingBlocks":{"z":1,"a":2}})")
                                            << controls(R"(assistant␞␞␞␞␞{"a":2,"z":1})") << "";
    QTest::newRow("message-not-object") << QByteArray(R"(["user","go"])") << controls("␞␞␞␞␞") << "";
}

void TestReceiptHash::messageDigest()
{
    QFETCH(QByteArray, message);
    QFETCH(QByteArray, input);
    QFETCH(QString, hash);
    json::StringArena arena;
    const std::string text(view(message));
    const json::Value m = parseOk(text, arena);
    const std::string actual = receipt::messageDigestInput(m);
    QCOMPARE(QByteArray::fromStdString(actual), input);
    if (!hash.isEmpty())
        QCOMPARE(QString::fromStdString(receipt::receiptHash("run-1", actual)), hash);
}

void TestReceiptHash::requestOnlyLineIsRoleAndContent()
{
    json::StringArena arena;
    const json::Value m = parseOk(R"({"role":"user","content":"Use the staged refs."})", arena);
    QCOMPARE(receipt::requestOnlyDigestInput("user", "Use the staged refs."), receipt::messageDigestInput(m));
    QCOMPARE(receipt::requestOnlyDigestInput("user", "go"), std::string(view(controls("user␞go␞␞␞␞"))));
}

void TestReceiptHash::toolSchemaVector()
{
    json::StringArena arena;
    const json::Value schema =
        parseOk(R"({"name":"get_weather","description":"Weather for a city","inputSchema":)"
                R"({"type":"object","required":["city"],"properties":{"city":{"type":"string"}}}})",
                arena);
    const std::string input = receipt::schemaDigestInput(schema);
    QCOMPARE(input, std::string(R"({"description":"Weather for a city","inputSchema":{"properties":{"city":)"
                                R"({"type":"string"}},"required":["city"],"type":"object"},"name":"get_weather"})"));
    QCOMPARE(receipt::receiptHash("run-1", input), std::string("bd99ee5541261215"));
}

// ---------------------------------------------------------------------------------------------------------------
// The reference sample under the hypothetical salt run-1 (recording.md §6.5, last table)

void TestReceiptHash::referenceSample_data()
{
    QTest::addColumn<int>("epoch");
    QTest::addColumn<QString>("row");    // system | piece | message | schema
    QTest::addColumn<int>("index");      // into pieces / asSent / schemas
    QTest::addColumn<QString>("source"); // expected piece source, else empty
    QTest::addColumn<QString>("hash");

    const char *const messageHashes[] = {"cc4a4090faf6dc1e", "b445373471d40218", "0602e7a4a921cbd7", "b028f77e14f19c07",
                                         "503008a399b0cc46"};
    const char *const schemaHashes[] = {"9441ae018cf0787a", "92249ac82563d1bb", "8040ea0065d4c21d"};
    const int messageCount[] = {1, 3, 5};
    for (int epoch = 1; epoch <= 3; ++epoch) {
        QTest::addRow("epoch%d-system-text", epoch)
            << epoch << "system" << 0 << QString() << (epoch < 3 ? "966fcf14f17ed31a" : "da118725de0ce52d");
        QTest::addRow("epoch%d-piece0-base", epoch) << epoch << "piece" << 0 << "base"
                                                    << "6a88422434ff832d";
        QTest::addRow("epoch%d-piece1-instructions", epoch) << epoch << "piece" << 1 << "instructions"
                                                            << "da6250d26941e278";
        QTest::addRow("epoch%d-piece2-instructions", epoch) << epoch << "piece" << 2 << "instructions"
                                                            << "5b787881ef160c91";
        if (epoch == 3)
            QTest::addRow("epoch3-piece3-findings") << 3 << "piece" << 3 << "findings"
                                                    << "f112a18812399b07";
        for (int i = 0; i < messageCount[epoch - 1]; ++i)
            QTest::addRow("epoch%d-message%d", epoch, i) << epoch << "message" << i << QString() << messageHashes[i];
        QTest::addRow("epoch%d-schema-alpha_tool", epoch)
            << epoch << "schema" << 0 << QString() << schemaHashes[epoch - 1];
    }
}

void TestReceiptHash::referenceSample()
{
    QFETCH(int, epoch);
    QFETCH(QString, row);
    QFETCH(int, index);
    QFETCH(QString, source);
    QFETCH(QString, hash);
    const json::Value &v = servedView(epoch);
    std::string input;
    if (row == u"system") {
        input = std::string(path(v, {"system", "text"}).asString());
    } else if (row == u"piece") {
        const json::Value &pieces = path(v, {"system", "pieces"});
        QVERIFY(std::size_t(index) < pieces.size());
        const json::Value &piece = pieces.at(std::size_t(index));
        QCOMPARE(QString::fromStdString(std::string(path(piece, {"source"}).asString())), source);
        input = std::string(path(piece, {"text"}).asString());
    } else if (row == u"message") {
        const json::Value &asSent = path(v, {"messages", "asSent"});
        QVERIFY(std::size_t(index) < asSent.size());
        input = receipt::messageDigestInput(asSent.at(std::size_t(index)));
    } else {
        const json::Value &schemas = path(v, {"tools", "schemas"});
        QVERIFY(std::size_t(index) < schemas.size());
        QCOMPARE(path(schemas.at(std::size_t(index)), {"name"}).asString(), std::string_view("alpha_tool"));
        input = receipt::schemaDigestInput(schemas.at(std::size_t(index)));
    }
    QCOMPARE(QString::fromStdString(receipt::receiptHash("run-1", input)), hash);
}

void TestReceiptHash::referenceSampleLengths_data()
{
    QTest::addColumn<int>("epoch");
    QTest::addColumn<int>("units");
    QTest::addColumn<int>("bytes");
    QTest::newRow("epoch1") << 1 << 1304 << 1314;
    QTest::newRow("epoch2") << 2 << 1304 << 1314;
    QTest::newRow("epoch3") << 3 << 2184 << 2199;
}

void TestReceiptHash::referenceSampleLengths()
{
    QFETCH(int, epoch);
    QFETCH(int, units);
    QFETCH(int, bytes);
    const std::string_view text = path(servedView(epoch), {"system", "text"}).asString();
    QCOMPARE(text::lengthU16(text), std::size_t(units));
    QCOMPARE(text::toUtf8Lossy(text).size(), std::size_t(bytes));
}

void TestReceiptHash::referenceFindingsHeaderSha256()
{
    // recording.md §6.5: the epoch-3 findings piece is 878 units; its first 757 are the fixed header.
    const json::Value &pieces = path(servedView(3), {"system", "pieces"});
    QCOMPARE(pieces.size(), std::size_t(4));
    const std::u16string piece = text::toUtf16(path(pieces.at(3), {"text"}).asString());
    QCOMPARE(piece.size(), std::size_t(878));
    const std::string header = text::toUtf8Lossy(std::u16string_view(piece).substr(0, 757));
    QCOMPARE(crypto::Sha256::hexDigest(header),
             std::string("5c11ddf6db91bf3d533d79bdd7dc4cc3dddf238fa86ed8f673e84d21ca49f7c1"));
}

// ---------------------------------------------------------------------------------------------------------------
// contentHash (recording.md §2.5)

void TestReceiptHash::contentHash_data()
{
    QTest::addColumn<QString>("preimage");
    QTest::addColumn<QString>("hash");
    QTest::newRow("message-user-0-go") << "user:0:go"
                                       << "bce8e74";
    QTest::newRow("skill-unlocked-tool") << "tool:skill:audit-log:get_audit"
                                         << "b9bfe6c4";
    QTest::newRow("empty-is-offset-basis") << ""
                                           << "811c9dc5";
    // FNV-1a of one unit 'a': (0x811c9dc5 ^ 0x61) * 16777619 mod 2^32.
    QTest::newRow("single-a") << "a"
                              << "e40c292c";
}

void TestReceiptHash::contentHash()
{
    QFETCH(QString, preimage);
    QFETCH(QString, hash);
    QCOMPARE(QString::fromStdString(receipt::contentHash(view(preimage))), hash);
    QCOMPARE(QString::fromStdString(receipt::contentHash(std::string_view(preimage.toStdString()))), hash);
}

void TestReceiptHash::contentHashIsOverUtf16Units()
{
    // recording.md §2.5: the reference sample's `958e5064` (an instructions piece with non-ASCII text) matches only
    // the UTF-16 form.
    const json::Value *found = nullptr;
    forEachObject(referenceDocument().root, [&](const json::Value &o) {
        const json::Value *h = o.findString("contentHash");
        if (h && h->asString() == "958e5064" && o.contains("rawContent"))
            found = &o;
    });
    QVERIFY(found);
    const std::optional<std::u16string> preimage = receipt::injectedPiecePreimage(*found);
    QVERIFY(preimage);
    QVERIFY(text::toUtf8Lossy(*preimage).size() != preimage->size()); // non-ASCII indeed
    QCOMPARE(receipt::contentHash(*preimage), std::string("958e5064"));

    // The same preimage hashed byte by byte (UTF-8 bytes as if they were units) is another value.
    const std::string bytes = text::toUtf8Lossy(*preimage);
    std::u16string bytesAsUnits;
    for (const char c : bytes)
        bytesAsUnits.push_back(char16_t(static_cast<unsigned char>(c)));
    QVERIFY(receipt::contentHash(bytesAsUnits) != "958e5064");

    // The builders agree with the preimages of §2.5.
    QCOMPARE(fromU16(receipt::messagePiecePreimage("user", 0, "go")), QStringLiteral("user:0:go"));
    QCOMPARE(fromU16(receipt::unlockedToolPreimage("skill", "audit-log", "get_audit")),
             QStringLiteral("tool:skill:audit-log:get_audit"));
    QCOMPARE(fromU16(receipt::basePromptPreimage("bot")), QStringLiteral("sp:bot"));
    QCOMPARE(fromU16(receipt::systemPiecePreimage("instructions", "findings-ledger", "t")),
             QStringLiteral("sp:instructions:findings-ledger:t"));
    QCOMPARE(fromU16(receipt::registryToolPreimage("walk_graph", "Walk.")), QStringLiteral("tool:walk_graph:Walk."));
}

void TestReceiptHash::contentHashOfRecordedPieces_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("injectedEvents"); // agentfootprint.context.injected events with rawContent
    QTest::addColumn<int>("allPieces");      // the events plus the *Injections entries of the commit log
    QTest::newRow("lens-tool-progress-turn") << "samples/lens-tool-progress-turn.json" << 18 << 18;
    QTest::newRow("lens-skill-route-refusal") << "samples/lens-skill-route-refusal.json" << 34 << 34;
    QTest::newRow("agentfootprint-demo-turn") << "samples/agentfootprint-demo-turn.json" << 32 << 161;
    QTest::newRow("agentfootprint-reference-agent-findings")
        << "samples/agentfootprint-reference-agent-findings.json" << 0 << 13;
}

void TestReceiptHash::contentHashOfRecordedPieces()
{
    QFETCH(QString, file);
    QFETCH(int, injectedEvents);
    QFETCH(int, allPieces);
    const std::unique_ptr<Document> doc = loadDocument(file);

    int events = 0;
    QStringList failures;
    auto check = [&](const json::Value &piece) {
        const json::Value *recorded = piece.findString("contentHash");
        const std::optional<std::u16string> preimage = receipt::injectedPiecePreimage(piece);
        const std::string actual = preimage ? receipt::contentHash(*preimage) : std::string("<no preimage>");
        if (!recorded || actual != recorded->asString())
            failures << QString::fromStdString(json::stringify(piece)).left(200) + " -> " +
                            QString::fromStdString(actual);
    };
    forEachObject(doc->root, [&](const json::Value &o) {
        const json::Value *type = o.findString("type");
        if (!type || type->asString() != "agentfootprint.context.injected")
            return;
        const json::Value *payload = o.findObject("payload");
        if (payload && payload->contains("rawContent"))
            ++events;
    });
    int pieces = 0;
    forEachObject(doc->root, [&](const json::Value &o) {
        if (o.contains("contentHash") && o.contains("rawContent") && o.contains("slot")) {
            ++pieces;
            check(o);
        }
    });
    if (!failures.isEmpty())
        QFAIL(qPrintable(failures.join(QLatin1Char('\n'))));
    QCOMPARE(events, injectedEvents);
    QCOMPARE(pieces, allPieces);
    qInfo("%s: %d pieces checked (%d injected events)", qPrintable(file), pieces, events);
}

QTEST_APPLESS_MAIN(TestReceiptHash)
#include "tst_receipthash.moc"
