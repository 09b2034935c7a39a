#include "core/json/jsnumber.h"
#include "core/json/parser.h"
#include "core/json/stringbody.h"
#include "core/json/stringends.h"
#include "core/json/writer.h"
#include "core/text/utf.h"

#include <QTest>

#include <random>

using namespace tf;

namespace {

json::Value parseOk(std::string_view text, json::StringArena &arena)
{
    json::ParseError error;
    json::Value v = json::parse(text, arena, error);
    if (error.failed())
        qFatal("unexpected parse error: %s", error.describe().c_str());
    return v;
}

} // namespace

class TestJson : public QObject
{
    Q_OBJECT

private slots:
    void jsNumbers_data();
    void jsNumbers();
    void propertyOrder_data();
    void propertyOrder();
    void loneSurrogateRoundTrips();
    void quotedLengthsAreTheQuotedText_data();
    void quotedLengthsAreTheQuotedText();
    void pairedEscapesBecomeOneCharacter();
    void duplicateKeyKeepsFirstPositionLastValue();
    void sortedKeyJson_data();
    void sortedKeyJson();
    void errors_data();
    void errors();
    void deepNestingIsRefused();
    void appendCopiesSharedStorage();
    void copyOnWrite();
    void utf16Lengths();
    void utf16LengthMatchesCodeUnits();
    void deferredStrings_data();
    void deferredStrings();
    void deferredStringErrorsMatchEager_data();
    void deferredStringErrorsMatchEager();
    void bulkPassesKeepNoDecodedCopy();
    void memberNames_data();
    void memberNames();
    void sharedNodesOutliveTheirFirstHolder();
    void sharedStringBlocks();
    void skimmedItemsKeepTypeAndOffset();
    void skimmedErrorsMatchBuilt_data();
    void skimmedErrorsMatchBuilt();
    void endOfValueAgain_data();
    void endOfValueAgain();
    void stoppedParseIsNotLocated();
    void endOfStringBodyMatchesAScalarScan();
    void reparsesWithStringEndsMatch();
    void stringEndsAreTrusted();
    void bodyCutAfterABackslashDecodesInBounds();
    void bodyFactsMatchTheDecoding();
};

void TestJson::jsNumbers_data()
{
    QTest::addColumn<QString>("literal");
    QTest::addColumn<QString>("expected");
    QTest::newRow("1e21") << "1e21"
                          << "1e+21";
    QTest::newRow("1e-7") << "1e-7"
                          << "1e-7";
    QTest::newRow("1e-6") << "1e-6"
                          << "0.000001";
    QTest::newRow("large-int-float") << "123456789012345680000"
                                     << "123456789012345680000";
    QTest::newRow("point-three") << "0.30000000000000004"
                                 << "0.30000000000000004";
    QTest::newRow("denormal-min") << "5e-324"
                                  << "5e-324";
    QTest::newRow("hundred") << "100"
                             << "100";
    QTest::newRow("zero") << "0"
                          << "0";
    QTest::newRow("negative-zero") << "-0"
                                   << "0";
    QTest::newRow("2^53+2") << "9007199254740994"
                            << "9007199254740994";
    QTest::newRow("2^53+1-rounds") << "9007199254740993"
                                   << "9007199254740992";
    QTest::newRow("1.5e300") << "1.5e300"
                             << "1.5e+300";
    QTest::newRow("1.50") << "1.50"
                          << "1.5";
    QTest::newRow("1E2") << "1E2"
                         << "100";
    QTest::newRow("20-digit-int") << "12345678901234567890"
                                  << "12345678901234567000";
    QTest::newRow("negative-fraction") << "-0.5"
                                       << "-0.5";
    QTest::newRow("overflow-is-infinity-null") << "1e400"
                                               << "null";
}

void TestJson::jsNumbers()
{
    QFETCH(QString, literal);
    QFETCH(QString, expected);
    json::StringArena arena;
    const json::Value v = parseOk(literal.toStdString(), arena);
    QCOMPARE(QString::fromStdString(json::stringify(v)), expected);
}

void TestJson::propertyOrder_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    QTest::newRow("index-keys-first") << R"({"1":false,"2":true,"b":4,"a":2,"01":3})"
                                      << R"({"1":false,"2":true,"b":4,"a":2,"01":3})";
    QTest::newRow("index-keys-sorted") << R"(["x",{"9":3,"10":2,"z":1}])"
                                       << R"(["x",{"9":3,"10":2,"z":1}])";
    QTest::newRow("reordered-on-parse") << R"({"z":1,"10":2,"9":3,"4294967295":4})"
                                        << R"({"9":3,"10":2,"z":1,"4294967295":4})";
}

void TestJson::propertyOrder()
{
    QFETCH(QString, input);
    QFETCH(QString, expected);
    json::StringArena arena;
    QCOMPARE(QString::fromStdString(json::stringify(parseOk(input.toStdString(), arena))), expected);
}

void TestJson::quotedLengthsAreTheQuotedText_data()
{
    QTest::addColumn<QByteArray>("wtf8");
    QTest::newRow("empty") << QByteArray();
    QTest::newRow("ascii") << QByteArray("plain text");
    QTest::newRow("quotes and backslashes") << QByteArray("say \"hi\" \\ there");
    QTest::newRow("short escapes") << QByteArray("a\bb\fc\nd\re\tf");
    QTest::newRow("other controls") << QByteArray("\x01\x1f\x7f", 3);
    QTest::newRow("two- and three-byte") << QByteArray("caf\xc3\xa9 \xe6\xbc\xa2\xe5\xad\x97");
    QTest::newRow("astral: two units, four bytes") << QByteArray("x\xf0\x9f\x98\x80y");
    QTest::newRow("lone high surrogate") << QByteArray("a\xed\xa0\x80"
                                                       "b");
    QTest::newRow("lone low surrogate at the end") << QByteArray("a\xed\xbf\xbf");
    QTest::newRow("cut surrogate at the end") << QByteArray("a\xed\xa0");
    QTest::newRow("everything") << QByteArray("\"\x02\xf0\x9f\x98\x80\xed\xb0\x80\n\xc3\xa9\\");
}

// The lengths the writer gives without writing (a receipt's slot sizes, a packed recording's expansion) are those of
// what it writes: UTF-16 code units and UTF-8 bytes of jsQuoted.
void TestJson::quotedLengthsAreTheQuotedText()
{
    QFETCH(QByteArray, wtf8);
    const std::string_view s(wtf8.constData(), std::size_t(wtf8.size()));
    const std::string quoted = json::jsQuoted(s);
    const json::JsStringSize size = json::jsStringSize(s);
    QCOMPARE(size.utf8Bytes, quoted.size());
    QCOMPARE(size.utf16Units, text::lengthU16(quoted));
    QCOMPARE(json::jsStringLength(s), quoted.size());
}

void TestJson::loneSurrogateRoundTrips()
{
    json::StringArena arena;
    const json::Value v = parseOk(R"(["a\ud83d", "\uDC00b"])", arena);
    QCOMPARE(json::stringify(v), std::string(R"(["a\ud83d","\udc00b"])"));
    QCOMPARE(text::toUtf16(v.at(0).asString()), std::u16string(u"a\xD83D"));
    QCOMPARE(text::lengthU16(v.at(0).asString()), std::size_t(2));
    QCOMPARE(text::toUtf8Lossy(v.at(0).asString()), std::string("a\xEF\xBF\xBD"));
}

void TestJson::pairedEscapesBecomeOneCharacter()
{
    json::StringArena arena;
    const json::Value v = parseOk(R"("\ud83d\ude00")", arena);
    QCOMPARE(v.asString(), std::string_view("\xF0\x9F\x98\x80"));
    QCOMPARE(json::stringify(v), std::string("\"\xF0\x9F\x98\x80\""));
    QCOMPARE(text::lengthU16(v.asString()), std::size_t(2));
}

void TestJson::duplicateKeyKeepsFirstPositionLastValue()
{
    json::StringArena arena;
    QCOMPARE(json::stringify(parseOk(R"({"a":1,"b":2,"a":3})", arena)), std::string(R"({"a":3,"b":2})"));
}

void TestJson::sortedKeyJson_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    QTest::newRow("nested-and-index")
        << QString::fromUtf8(R"({"b":1,"a":[{"d":2,"c":null}],"10":"x","9":"y","é":"\u0007/"})")
        << QString::fromUtf8(R"({"9":"y","10":"x","a":[{"c":null,"d":2}],"b":1,"é":"\u0007/"})");
    QTest::newRow("utf16-order") << QString::fromUtf8(R"({"ﬁ":1,"😀":2,"Z":3,"a":4})")
                                 << QString::fromUtf8(R"({"Z":3,"a":4,"😀":2,"ﬁ":1})");
    QTest::newRow("index-key-limits") << R"({"01":1,"1":2,"4294967294":3,"4294967295":4,"-1":5})"
                                      << R"({"1":2,"4294967294":3,"-1":5,"01":1,"4294967295":4})";
    QTest::newRow("lone") << R"({"lone":"\ud800x"})"
                          << R"({"lone":"\ud800x"})";
    QTest::newRow("numbers") << R"({"n":[1e21,1e-7,0.30000000000000004,-0,1.5,5e-324]})"
                             << R"({"n":[1e+21,1e-7,0.30000000000000004,0,1.5,5e-324]})";
}

void TestJson::sortedKeyJson()
{
    QFETCH(QString, input);
    QFETCH(QString, expected);
    json::StringArena arena;
    const std::string in = input.toStdString();
    QCOMPARE(QString::fromStdString(json::sortedKeyJson(parseOk(in, arena))), expected);
}

void TestJson::errors_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<int>("offset");
    QTest::addColumn<QString>("reasonPart");
    QTest::newRow("truncated-object") << R"({"a":)" << 5 << "end of input";
    QTest::newRow("missing-colon") << R"({"a" 1})" << 5 << "expected ':'";
    QTest::newRow("bad-literal") << "[tru]" << 1 << "expected 'true'";
    QTest::newRow("unterminated-string") << R"(["abc)" << 1 << "unterminated string";
    QTest::newRow("bad-escape") << R"(["\x"])" << 2 << "invalid escape";
    QTest::newRow("leading-zero") << "[01]" << 2 << "expected ',' or ']'";
    QTest::newRow("trailing-comma") << "[1,]" << 3 << "expected a value";
    QTest::newRow("raw-control") << "[\"a\tb\"]" << 3 << "control character";
}

void TestJson::errors()
{
    QFETCH(QString, input);
    QFETCH(int, offset);
    QFETCH(QString, reasonPart);
    json::StringArena arena;
    json::ParseError error;
    const std::string in = input.toStdString();
    json::parse(in, arena, error);
    QVERIFY(error.failed());
    QCOMPARE(int(error.offset), offset);
    QVERIFY2(error.reason.find(reasonPart.toStdString()) != std::string::npos, error.reason.c_str());
}

void TestJson::deepNestingIsRefused()
{
    const std::string deep(100000, '[');
    json::StringArena arena;
    json::ParseError error;
    json::parse(deep, arena, error);
    QVERIFY(error.failed());
    QVERIFY(error.reason.find("nesting deeper") != std::string::npos);
    QCOMPARE(error.offset, std::size_t(512));
}

void TestJson::appendCopiesSharedStorage()
{
    json::Value a = json::Value::array();
    a.push_back(json::Value::number(1));
    const void *alone = a.identity();
    a.push_back(json::Value::number(2)); // the only holder: in place
    QCOMPARE(a.identity(), alone);
    json::Value b = a;                   // shares the node
    b.push_back(json::Value::number(3)); // a holds it too (maybe on another thread): b copies first
    QVERIFY(a.identity() != b.identity());
    QCOMPARE(a.identity(), alone);
    a.push_back(json::Value::number(4)); // the node is a's alone again
    QCOMPARE(a.identity(), alone);
    QCOMPARE(json::stringify(a), std::string("[1,2,4]"));
    QCOMPARE(json::stringify(b), std::string("[1,2,3]"));
}

void TestJson::copyOnWrite()
{
    json::StringArena arena;
    json::Value a = parseOk(R"({"k":{"x":1}})", arena);
    json::Value b = a;
    b.memberRef("k").set("x", json::Value::number(2));
    b.set("0", json::Value::boolean(true));
    QCOMPARE(json::stringify(a), std::string(R"({"k":{"x":1}})"));
    QCOMPARE(json::stringify(b), std::string(R"({"0":true,"k":{"x":2}})"));
}

void TestJson::utf16Lengths()
{
    QCOMPARE(text::lengthU16("\xC3\xA9 \xE2\x80\x94 \xE2\x80\xA6"), std::size_t(5));
    QCOMPARE(text::lengthU16("\xF0\x9F\x98\x80"), std::size_t(2));
    QCOMPARE(text::sizeUtf8Lossy(u"a\xD83D"), std::size_t(4));
    QCOMPARE(text::findInvalidUtf8("ok\xED\xA0\x80"), std::size_t(2)); // raw surrogate bytes are not UTF-8
    QCOMPARE(text::findInvalidUtf8("\xC0\xAF"), std::size_t(0));       // overlong
}

void TestJson::utf16LengthMatchesCodeUnits()
{
    // The word-at-a-time count against the decoder, at every alignment and with every sequence length straddling
    // word boundaries.
    const std::string pieces[] = {"a", "\xC3\xA9", "\xE2\x80\x94", "\xF0\x9F\x98\x80", "\xED\xA0\x80", "\x7F"};
    std::uint32_t seed = 12345;
    for (int round = 0; round < 2000; ++round) {
        std::string s;
        const int count = round % 40;
        for (int i = 0; i < count; ++i) {
            seed = seed * 1103515245u + 12345u;
            s += pieces[(seed >> 16) % std::size(pieces)];
        }
        QCOMPARE(text::lengthU16(s), text::toUtf16(s).size());
    }
}

void TestJson::deferredStrings_data()
{
    QTest::addColumn<QByteArray>("literal");
    QTest::addColumn<bool>("stringifyForm");
    QTest::newRow("quotes-and-backslashes") << QByteArray(R"("say \"hi\" \\ there")") << true;
    QTest::newRow("short-escapes") << QByteArray(R"("a\nb\tc\rd\be\ff")") << true;
    QTest::newRow("control-as-u") << QByteArray(R"("x\u0001y\u001f")") << true;
    QTest::newRow("control-uppercase-hex") << QByteArray(R"("x\u001F")") << false;
    QTest::newRow("newline-as-u") << QByteArray(R"("x\u000a")") << false;
    QTest::newRow("solidus") << QByteArray(R"("a\/b")") << false;
    QTest::newRow("letter-as-u") << QByteArray(R"("\u0041BC")") << false;
    QTest::newRow("lone-high") << QByteArray(R"("cut \ud83d")") << true;
    QTest::newRow("lone-low") << QByteArray(R"("\ude00 tail")") << true;
    QTest::newRow("lone-uppercase") << QByteArray(R"("\uD83D")") << false;
    QTest::newRow("escaped-pair") << QByteArray(R"("\ud83d\ude00")") << false;
    QTest::newRow("high-then-pair") << QByteArray(R"("\ud83d\ud83d\ude00")") << false;
    QTest::newRow("raw-utf8-and-escape") << QByteArray("\"\xC3\xA9\xF0\x9F\x98\x80 \\\"\"") << true;
    QTest::newRow("json-in-json") << QByteArray(R"("{\"tool\":\"grep\",\"hits\":[1,2],\"text\":\"line\\nnext\"}")")
                                  << true;
}

void TestJson::deferredStrings()
{
    QFETCH(QByteArray, literal);
    QFETCH(bool, stringifyForm);
    const std::string text = "[" + literal.toStdString() + "]";
    json::StringArena eagerArena, deferredArena;
    json::ParseError error;
    json::ParseLimits never;
    never.deferEscapedStringBytes = SIZE_MAX;
    json::ParseLimits always;
    always.deferEscapedStringBytes = 0;
    const json::Value eager = json::parse(text, eagerArena, error, 0, nullptr, never);
    QVERIFY2(!error.failed(), error.describe().c_str());
    const json::Value deferred = json::parse(text, deferredArena, error, 0, nullptr, always);
    QVERIFY2(!error.failed(), error.describe().c_str());
    const json::Value &e = eager.at(0);
    const json::Value &d = deferred.at(0);
    QVERIFY(!e.isDeferredString());
    QVERIFY(d.isDeferredString());

    // Every way of reading the text agrees with the eager decoding.
    const std::string expected(e.asString());
    QCOMPARE(d.decodedString(), expected);
    std::string scratch;
    QCOMPARE(std::string(d.stringView(scratch)), expected);
    std::string appended = "<";
    d.appendString(appended);
    QCOMPARE(appended, "<" + expected);
    QVERIFY(d.stringEquals(expected));
    QVERIFY(!d.stringEquals(expected + "x"));
    QVERIFY(json::deepEqual(e, d));
    QCOMPARE(json::stringify(deferred), json::stringify(eager));
    QCOMPARE(json::sortedKeyJson(deferred), json::sortedKeyJson(eager));

    // The writer may copy the body only when it is exactly JSON.stringify's form.
    std::string_view body;
    QCOMPARE(d.stringifyBody(body), stringifyForm);
    if (stringifyForm)
        QCOMPARE("\"" + std::string(body) + "\"", json::jsQuoted(expected));
    else
        QVERIFY(json::stringify(deferred) != text);
    QCOMPARE(std::string(d.asString()), expected); // the caching read, last
}

void TestJson::deferredStringErrorsMatchEager_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::newRow("bad-escape") << QByteArray(R"(["ok \"q\" \x"])");
    QTest::newRow("short-hex") << QByteArray(R"(["\"\u12"])");
    QTest::newRow("bad-hex") << QByteArray(R"(["\"\u12G4"])");
    QTest::newRow("raw-control") << QByteArray("[\"\\\"a\x01\"]");
    QTest::newRow("bad-utf8-after-escape") << QByteArray("[\"\\n\xC3\x28\"]");
    QTest::newRow("unterminated") << QByteArray(R"(["\"abc)");
    QTest::newRow("backslash-at-end") << QByteArray("[\"abc\\");
}

void TestJson::deferredStringErrorsMatchEager()
{
    QFETCH(QByteArray, input);
    const std::string text = input.toStdString();
    json::StringArena a, b;
    json::ParseError eagerError, deferredError;
    json::ParseLimits never;
    never.deferEscapedStringBytes = SIZE_MAX;
    json::ParseLimits always;
    always.deferEscapedStringBytes = 0;
    json::parse(text, a, eagerError, 0, nullptr, never);
    json::parse(text, b, deferredError, 0, nullptr, always);
    QVERIFY(eagerError.failed());
    QCOMPARE(deferredError.describe(), eagerError.describe());
}

void TestJson::bulkPassesKeepNoDecodedCopy()
{
    std::string text = "{\"content\":\"";
    for (int i = 0; i < 2000; ++i)
        text += "\\\"k\\\":\\\"v\\\",";
    text += "\"}";
    json::StringArena arena;
    const json::Value v = parseOk(text, arena);
    const json::Value *content = v.find("content");
    QVERIFY(content && content->isDeferredString());
    const std::size_t before = json::deferredStringsKept();
    const std::string json = json::stringify(v);
    QCOMPARE(json, text);
    QVERIFY(!content->stringEquals("short"));
    QVERIFY(content->decodedString().size() > 10000);
    QCOMPARE(json::deferredStringsKept(), before);
    QCOMPARE(content->asString().substr(0, 10), std::string_view("\"k\":\"v\",\"k"));
    QCOMPARE(json::deferredStringsKept(), before + 1);
}

void TestJson::memberNames_data()
{
    QTest::addColumn<QByteArray>("name");
    QTest::newRow("empty") << QByteArray();
    QTest::newRow("short") << QByteArray("role");
    QTest::newRow("15 bytes, the last inline size") << QByteArray("abcdefghijklmno");
    QTest::newRow("16 bytes, the first on the heap") << QByteArray("abcdefghijklmnop");
    QTest::newRow("embedded NULs") << QByteArray("a\0b\0c", 5);
    QTest::newRow("long") << QByteArray(5000, 'k');
}

// json::Key keeps up to 15 bytes inline and the rest on the heap: every name survives copies, moves, assignment
// and a parse/write round trip byte for byte, on either side of the boundary.
void TestJson::memberNames()
{
    QFETCH(QByteArray, name);
    const std::string_view text(name.constData(), std::size_t(name.size()));
    json::Key key(text);
    QCOMPARE(key.size(), text.size());
    QVERIFY(key == text);
    json::Key copy = key;
    QVERIFY(copy == text);
    json::Key moved = std::move(copy);
    QVERIFY(moved == text);
    json::Key assigned("other");
    assigned = moved;
    QVERIFY(assigned == text);
    const json::Key &self = assigned;
    assigned = self; // self-assignment keeps the name
    QVERIFY(assigned == text);
    QVERIFY(json::Key("a") < json::Key("b"));

    json::Value object = json::Value::object();
    object.set(text, json::Value::number(1));
    object.set("after", json::Value::number(2));
    const std::string written = json::stringify(object);
    json::StringArena arena;
    json::ParseError error;
    const json::Value back = json::parse(written, arena, error);
    QVERIFY(!error.failed());
    QCOMPARE(back.memberCount(), std::size_t(2));
    QVERIFY(back.memberBegin()->key == text);
    QVERIFY(back.find(text) && back.find(text)->asNumber() == 1);
    QCOMPARE(json::stringify(back), written);
}

// Nodes are counted in place: a copy made before a write still sees the old node, and values taken out of a
// document stay valid after the document's own tree is gone.
void TestJson::sharedNodesOutliveTheirFirstHolder()
{
    json::Value kept;
    json::Value alias;
    {
        json::Value original = json::Value::object();
        original.set("list", json::Value::array());
        original.memberRef("list").push_back(json::Value::string(std::string(100, 'x')));
        alias = original;
        kept = *original.find("list");
        original.set("list", json::Value::number(0)); // copy-on-write: alias keeps the array
    }
    QCOMPARE(kept.size(), std::size_t(1));
    QCOMPARE(kept.at(0).asString(), std::string_view(std::string(100, 'x')));
    QVERIFY(alias.find("list") && alias.find("list")->isArray());
    QCOMPARE(alias.find("list")->identity(), kept.identity());
}

void TestJson::sharedStringBlocks()
{
    std::vector<json::Value> kept;
    {
        json::SharedStringWriter writer;
        // The first string may be empty: there is no block yet (the sanitizer build once caught a memcpy from null).
        kept.push_back(writer.copy({}));
        for (int i = 0; i < 2000; ++i)
            kept.push_back(writer.copy(std::string(std::size_t(i % 97), char('a' + i % 26))));
        kept.push_back(writer.copy(std::string(40000, 'z'))); // larger than any block so far
        kept.push_back(writer.copy("after"));
    } // the writer is gone; its blocks live on in the strings
    QCOMPARE(kept.front().asString(), std::string_view());
    for (int i = 0; i < 2000; ++i) {
        const json::Value &v = kept[std::size_t(i) + 1];
        QVERIFY(v.isString());
        QCOMPARE(v.asString(), std::string_view(std::string(std::size_t(i % 97), char('a' + i % 26))));
    }
    QCOMPARE(kept[2001].asString().size(), std::size_t(40000));
    QVERIFY(kept[2001].isBlockString());
    QCOMPARE(kept.back().asString(), std::string_view("after"));
    // Short strings share blocks rather than taking one each: one follows another in memory, but where a block ends.
    int blockStarts = 0;
    for (std::size_t i = 2; i <= 2000; ++i) {
        QVERIFY(kept[i].isBlockString() || kept[i].asString().empty());
        const std::string_view before = kept[i - 1].asString(), here = kept[i].asString();
        if (!here.empty() && !before.empty() && before.data() + before.size() != here.data())
            ++blockStarts;
    }
    QVERIFY2(blockStarts > 0 && blockStarts < 100, qPrintable(QString::number(blockStarts)));
}

namespace {

// Streams the array at member "items" of `text`, building each item `depth` levels deep (SIZE_MAX: whole). The
// items' strings may live in `arena`, so the caller keeps it as long as the items.
std::vector<json::Value> streamedItems(const std::string &text, std::size_t depth, json::StringArena &arena,
                                       json::ParseError &error)
{
    std::vector<json::Value> items;
    json::ParseLimits limits;
    limits.streamArrayAt = [](const std::vector<std::string> &path) {
        return path == std::vector<std::string>{"items"};
    };
    limits.onStreamedItem = [&](json::Value item, std::size_t, std::size_t) {
        items.push_back(std::move(item));
        return true;
    };
    if (depth != SIZE_MAX)
        limits.streamedItemDepth = [depth](const std::vector<std::string> &) { return depth; };
    json::parse(text, arena, error, 0, nullptr, limits);
    return items;
}

} // namespace

void TestJson::skimmedItemsKeepTypeAndOffset()
{
    const std::string text =
        R"({"items": [{"type": "a", "payload": {"n": 7, "id": "x\"y", "deep": {"k": [1, 2]}, "list": [3]}}, 5]})";
    json::ParseError error;
    json::StringArena wholeArena;
    const std::vector<json::Value> whole = streamedItems(text, SIZE_MAX, wholeArena, error);
    QVERIFY(!error.failed());
    json::StringArena shallowArena;
    const std::vector<json::Value> shallow = streamedItems(text, 2, shallowArena, error);
    QVERIFY(!error.failed());
    QCOMPARE(shallow.size(), std::size_t(2));
    // Two levels in: the payload's scalars are read, its containers are empty but keep their type and offset.
    const json::Value *payload = shallow[0].findObject("payload");
    QVERIFY(payload);
    QCOMPARE(shallow[0].findString("type")->asString(), std::string_view("a"));
    QCOMPARE(payload->findNumber("n")->asNumber(), 7.0);
    QCOMPARE(payload->findString("id")->decodedString(), std::string("x\"y"));
    const json::Value *deep = payload->findObject("deep");
    const json::Value *list = payload->findArray("list");
    QVERIFY(deep && list);
    QCOMPARE(deep->memberCount(), std::size_t(0));
    QCOMPARE(list->size(), std::size_t(0));
    const json::Value &wholePayload = *whole[0].findObject("payload");
    QCOMPARE(deep->sourceOffset(), wholePayload.findObject("deep")->sourceOffset());
    QCOMPARE(list->sourceOffset(), wholePayload.findArray("list")->sourceOffset());
    QCOMPARE(json::stringify(json::parseAgain(text, std::size_t(deep->sourceOffset()))), std::string(R"({"k":[1,2]})"));
    QCOMPARE(shallow[1].asNumber(), 5.0);
    // Not at all: the item is an empty container where it starts.
    json::StringArena noneArena;
    const std::vector<json::Value> none = streamedItems(text, 0, noneArena, error);
    QVERIFY(!error.failed());
    QVERIFY(none[0].isObject());
    QCOMPARE(none[0].memberCount(), std::size_t(0));
    QCOMPARE(none[0].sourceOffset(), whole[0].sourceOffset());
    // parseAgainShallow: the members, their containers empty.
    const json::Value members = json::parseAgainShallow(text, std::size_t(wholePayload.sourceOffset()), 1);
    QCOMPARE(members.memberCount(), std::size_t(4));
    QCOMPARE(members.findObject("deep")->memberCount(), std::size_t(0));
    QCOMPARE(members.findString("id")->decodedString(), std::string("x\"y"));
}

void TestJson::skimmedErrorsMatchBuilt_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::newRow("bad-escape-deep") << QByteArray(R"({"items": [{"p": {"q": ["\x"]}}]})");
    QTest::newRow("bad-utf8-deep") << QByteArray("{\"items\": [{\"p\": {\"q\": [\"\xC3\x28\"]}}]}");
    QTest::newRow("bad-number-deep") << QByteArray(R"({"items": [{"p": {"q": [01]}}]})");
    QTest::newRow("bad-literal-deep") << QByteArray(R"({"items": [{"p": {"q": {"r": nul}}}]})");
    QTest::newRow("missing-colon-deep") << QByteArray(R"({"items": [{"p": {"q": {"r" 1}}}]})");
    QTest::newRow("bad-key-escape") << QByteArray(R"({"items": [{"p": {"q": {"\x": 1}}}]})");
    QTest::newRow("unterminated") << QByteArray(R"({"items": [{"p": {"q": [1, 2)");
    QTest::newRow("too-deep") << QByteArray(QByteArray(R"({"items": [)") + QByteArray(600, '['));
}

void TestJson::skimmedErrorsMatchBuilt()
{
    // What is skimmed is validated as a full parse would: the same error at the same place.
    QFETCH(QByteArray, input);
    const std::string text = input.toStdString();
    json::ParseError built, skimmed, none;
    json::StringArena arena;
    streamedItems(text, SIZE_MAX, arena, built);
    streamedItems(text, 1, arena, skimmed);
    streamedItems(text, 0, arena, none);
    QVERIFY(built.failed());
    QCOMPARE(skimmed.describe(), built.describe());
    QCOMPARE(none.describe(), built.describe());
}

void TestJson::endOfValueAgain_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("offset");
    QTest::newRow("object") << QByteArray(R"([{"a": "}]\"", "b": [1, {"c": []}]}, 2])") << 1;
    QTest::newRow("array") << QByteArray(R"({"x": [ "[", ["]"], {} ] })") << 6;
    QTest::newRow("leading-space") << QByteArray(R"([  {"a": 1}])") << 1;
    QTest::newRow("number") << QByteArray(R"([12.5e3, 1])") << 1;
    QTest::newRow("string") << QByteArray(R"(["a\"b", 1])") << 1;
}

void TestJson::endOfValueAgain()
{
    QFETCH(QByteArray, input);
    QFETCH(int, offset);
    const std::string text = input.toStdString();
    std::size_t end = 0;
    json::parseAgain(text, std::size_t(offset), &end);
    QVERIFY(end > std::size_t(offset));
    QCOMPARE(json::endOfValueAgain(text, std::size_t(offset)), end);
}

void TestJson::stoppedParseIsNotLocated()
{
    // A parse its caller stopped (cancelled by the progress callback, or an item that was enough) has nothing wrong to
    // point at: it says where it stopped, and does not count the lines up to there (a pass over all it read). A real
    // error in the same text is still located.
    std::string text = "[";
    for (int i = 0; i < 2000; ++i)
        text += (i ? ",\n" : "\n") + std::string("{\"k\":\"") + std::string(100, 'x') + "\"}";
    text += "\n]";
    json::StringArena arena;
    json::ParseLimits cancelling;
    cancelling.progressIntervalBytes = 4096;
    cancelling.progress = [](std::size_t offset) { return offset < 100000; };
    json::ParseError cancelled;
    json::parse(text, arena, cancelled, 0, nullptr, cancelling);
    QCOMPARE(cancelled.reason, std::string("cancelled"));
    QVERIFY(cancelled.offset >= 100000);
    QCOMPARE(cancelled.line, std::size_t(0));

    json::ParseLimits streaming;
    streaming.streamArrayAt = [](const std::vector<std::string> &path) { return path.empty(); };
    int items = 0;
    streaming.onStreamedItem = [&](json::Value, std::size_t, std::size_t) { return ++items < 1500; };
    json::ParseError stopped;
    json::parse(text, arena, stopped, 0, nullptr, streaming);
    QCOMPARE(stopped.reason, std::string("stopped"));
    QCOMPARE(stopped.line, std::size_t(0));

    std::string broken = text;
    broken[broken.size() - 3] = ';';
    json::ParseError error;
    json::parse(broken, arena, error);
    QVERIFY(error.failed());
    QCOMPARE(error.line, std::size_t(2001));
}

namespace {

// Up to `maxPieces - 1` pieces of `alphabet`, drawn at random: the bodies the string tests read.
template <std::size_t N>
std::string randomPieces(std::mt19937 &rng, const std::string (&alphabet)[N], unsigned maxPieces)
{
    std::string text;
    const unsigned pieces = rng() % maxPieces;
    for (unsigned i = 0; i < pieces; ++i)
        text += alphabet[rng() % N];
    return text;
}

} // namespace

void TestJson::endOfStringBodyMatchesAScalarScan()
{
    // The closing quote is the first quote not escaped, whatever the escapes around it and wherever the 16-byte windows
    // fall: JSON inside JSON (an escape every few bytes), runs of backslashes, non-ASCII text, no closing quote.
    const auto scalar = [](std::string_view text, std::size_t p) {
        while (p < text.size()) {
            if (text[p] == '"')
                return p;
            p += text[p] == '\\' ? 2 : 1;
        }
        return text.size();
    };
    std::mt19937 rng(18);
    const std::string alphabet[] = {
        "a", "\"", "\\", "\\\"", "\\\\", "\\u0022", "{\\\"k\\\":", "\xC3\xA9", "0123456789abcdef", " "};
    int checked = 0;
    for (int round = 0; round < 3000; ++round) {
        const std::string text = randomPieces(rng, alphabet, 40);
        for (std::size_t start = 0; start <= std::min<std::size_t>(text.size(), 20); ++start) {
            if (start > 0 && text[start - 1] == '\\')
                continue; // a body never starts inside an escape
            const std::size_t got = json::endOfStringBody(text, start), want = scalar(text, start);
            if (got != want)
                QFAIL(qPrintable(QStringLiteral("start %1 of %2: %3, expected %4")
                                     .arg(start)
                                     .arg(QString::fromStdString(text))
                                     .arg(got)
                                     .arg(want)));
            ++checked;
        }
    }
    QVERIFY(checked > 10000);
    // A body that ends in a lone backslash has no closing quote.
    QCOMPARE(json::endOfStringBody("abc\\", 0), std::size_t(4));
    QCOMPARE(json::endOfStringBody(std::string(100, 'x') + "\\\"\"", 0), std::size_t(102));
}

namespace {

// The same tree, read alike: types, members in order, numbers, decoded strings, and for every string whether it is
// deferred and whether its body may be copied as JSON.stringify's form.
bool sameReading(const json::Value &a, const json::Value &b, std::string &where)
{
    if (a.type() != b.type()) {
        where = "type";
        return false;
    }
    if (a.isString()) {
        std::string_view bodyA, bodyB;
        if (a.decodedString() != b.decodedString() || a.isDeferredString() != b.isDeferredString() ||
            a.stringifyBody(bodyA) != b.stringifyBody(bodyB) || bodyA != bodyB) {
            where = "string " + a.decodedString().substr(0, 40);
            return false;
        }
        return true;
    }
    if (a.isArray() || a.isObject()) {
        if (a.size() != b.size() || a.sourceOffset() != b.sourceOffset()) {
            where = "container";
            return false;
        }
        if (a.isArray()) {
            for (std::size_t i = 0; i < a.size(); ++i)
                if (!sameReading(a.at(i), b.at(i), where))
                    return false;
            return true;
        }
        for (const json::Member *m = a.memberBegin(), *n = b.memberBegin(); m != a.memberEnd(); ++m, ++n)
            if (m->key.view() != n->key.view() || !sameReading(m->value, n->value, where))
                return false;
        return true;
    }
    return json::deepEqual(a, b) || (where = "scalar", false);
}

void collectContainerOffsets(const json::Value &v, std::vector<std::size_t> &out)
{
    if (!v.isArray() && !v.isObject())
        return;
    out.push_back(std::size_t(v.sourceOffset()));
    if (v.isArray())
        for (const json::Value &item : v)
            collectContainerOffsets(item, out);
    else
        for (const json::Member *m = v.memberBegin(); m != v.memberEnd(); ++m)
            collectContainerOffsets(m->value, out);
}

} // namespace

void TestJson::reparsesWithStringEndsMatch()
{
    // A text is parsed once, validated, recording where its long strings end; every span of it parsed again with that
    // record reads exactly as without it: where each string ends, whether it is deferred, whether its body is
    // JSON.stringify's form (a solidus, an uppercase or needless \u, an escaped pair: not), and where the span ends.
    std::mt19937 rng(2026);
    const std::string pieces[] = {"plain text ",
                                  "{\\\"k\\\":\\\"v\\\"}",
                                  "\\\\",
                                  "\\n",
                                  "\\/",
                                  "\\u0041",
                                  "\\u001f",
                                  "\\u001F",
                                  "\\ud83d\\ude00",
                                  "\\ud83d",
                                  "\xC3\xA9\xE2\x80\x94",
                                  "\xF0\x9F\x98\x80",
                                  "[1,2]",
                                  "\\\"",
                                  "\\t"};
    const auto longString = [&] {
        std::string s = "\"";
        const std::size_t target = json::StringEnds::kMinBodyBytes - 40 + rng() % 1400;
        while (s.size() < target)
            s += pieces[rng() % std::size(pieces)];
        return s + "\"";
    };
    std::size_t recorded = 0, spans = 0;
    for (int round = 0; round < 60; ++round) {
        std::string text = "{\"calls\":[";
        for (int i = 0, n = 1 + int(rng() % 12); i < n; ++i) {
            text += i ? "," : "";
            text += "{\"role\":\"tool\",\"content\":" + longString() + ",\"n\":" + std::to_string(rng() % 1000) +
                    ",\"parts\":[" + longString() + ",\"short\",{\"" + std::string(300, 'k') + "\":" + longString() +
                    "}]}";
        }
        text += "]}";
        json::StringArena arena;
        json::StringEnds ends;
        json::ParseLimits recording;
        recording.selfContained = true;
        recording.recordStringEnds = &ends;
        json::ParseError error;
        const json::Value root = json::parse(text, arena, error, 0, nullptr, recording);
        QVERIFY2(!error.failed(), error.describe().c_str());
        recorded += ends.size();

        std::vector<std::size_t> offsets;
        collectContainerOffsets(root, offsets);
        for (const std::size_t offset : offsets) {
            std::size_t endWithout = 0, endWith = 0;
            const json::Value without = json::parseAgain(text, offset, &endWithout);
            const json::Value with = json::parseAgain(text, offset, &endWith, &ends);
            std::string where;
            QVERIFY2(sameReading(without, with, where), where.c_str());
            QCOMPARE(endWith, endWithout);
            QCOMPARE(json::endOfValueAgain(text, offset, &ends), endWithout);
            QVERIFY2(sameReading(json::parseAgainShallow(text, offset, 1),
                                 json::parseAgainShallow(text, offset, 1, &ends), where),
                     where.c_str());
            ++spans;
        }
    }
    QVERIFY(recorded > 500);
    QVERIFY(spans > 900);
}

void TestJson::stringEndsAreTrusted()
{
    // The record is what a parse again believes about its text: kept with the text it was made from (a Run keeps both),
    // it is right; shown another text, it is believed. This is what makes the record worth keeping, and why it must
    // never outlive or leave its text.
    const std::string body(300, 'x');
    const std::string recordedText = "[\"" + body + "\"]";
    json::StringArena arena;
    json::StringEnds ends;
    json::ParseLimits recording;
    recording.recordStringEnds = &ends;
    json::ParseError error;
    json::parse(recordedText, arena, error, 0, nullptr, recording);
    QVERIFY(!error.failed());
    QCOMPARE(ends.size(), std::size_t(1));
    // Recorded only once: a second validating parse of the same text adds nothing.
    json::parse(recordedText, arena, error, 0, nullptr, recording);
    QCOMPARE(ends.size(), std::size_t(1));

    std::string other = recordedText;
    other[150] = '"';
    other[151] = ',';
    other[152] = '"';
    QCOMPARE(json::parseAgain(other, 0).size(), std::size_t(2));
    const json::Value believed = json::parseAgain(other, 0, nullptr, &ends);
    QCOMPARE(believed.size(), std::size_t(1));
    QCOMPARE(believed.at(0).decodedString().size(), body.size());
    // A parse that validates is never told: it reads the text.
    json::ParseLimits validating;
    QCOMPARE(json::parse(other, arena, error, 0, nullptr, validating).size(), std::size_t(2));
}

void TestJson::bodyCutAfterABackslashDecodesInBounds()
{
    // A body no scan accepted (the record believed over a file rewritten under it) may end in a backslash: decoding
    // keeps it and reads nothing past the body (a view of a larger buffer, so reading on would find the quote).
    const std::string buffer = "ab\\\"";
    std::string out;
    json::decodeStringBody(std::string_view(buffer).substr(0, 3), out);
    QCOMPARE(out, std::string("ab\\"));
    out.clear();
    json::decodeStringBody("x\\u00", out);
    QCOMPARE(out, std::string("x") + char(0));
}

void TestJson::bodyFactsMatchTheDecoding()
{
    // A body's length and surrogate facts, and a decoded prefix, read without decoding it whole, against its whole
    // decoding: every kind of escape, raw characters of every width, JSON inside JSON, pairs and lone surrogates.
    const std::string alphabet[] = {"a",           "plain text ",     "\\n",      "\\\"",           "\\\\",
                                    "\\/",         "\\u00e9",         "\\u0001",  "\\ud83d\\ude00", "\\ud800",
                                    "\\udc00x",    "\\uDBFF",         "\xC3\xA9", "\xE4\xB8\xAD",   "\xF0\x9F\x98\x80",
                                    "{\\\"k\\\":", "0123456789abcdef"};
    std::mt19937 rng(77);
    int prefixes = 0;
    for (int round = 0; round < 2000; ++round) {
        const std::string body = randomPieces(rng, alphabet, 60);
        const std::string quoted = body + '"';
        QVERIFY(json::scanStringBody(quoted, 0).error.empty());
        std::string whole;
        json::decodeStringBody(body, whole);
        const json::DecodedTextFacts facts = json::decodedTextFacts(body);
        QCOMPARE(facts.lengthU16, text::lengthU16(whole));
        if (text::hasLoneSurrogate(whole))
            QVERIFY(facts.mayHoldLoneSurrogate);
        QCOMPARE(facts.mayHoldLoneSurrogate,
                 body.find("\\ud") != std::string::npos || body.find("\\uD") != std::string::npos);
        for (std::size_t limit = 0; limit <= whole.size() + 1; limit += 1 + rng() % 7) {
            std::string prefix = "kept";
            const bool all = json::decodeStringBodyPrefix(body, prefix, limit);
            QVERIFY(prefix.starts_with("kept"));
            prefix.erase(0, 4);
            QCOMPARE(all, prefix == whole);
            QVERIFY(whole.starts_with(prefix));
            if (!all) {
                QVERIFY2(prefix.size() >= limit && prefix.size() < limit + 4, body.c_str());
                QVERIFY((static_cast<unsigned char>(whole[prefix.size()]) & 0xC0) != 0x80); // whole characters
            }
            ++prefixes;
        }
    }
    QVERIFY(prefixes > 10000);

    // Bodies no scan accepted (a file rewritten under its string-end record): the facts still describe what decoding
    // gives, and the prefix stays inside the body.
    const std::string hostile[] = {"\\",
                                   "\\u",
                                   "\\u12",
                                   "\\u\xC3\xA9\x31\x32",
                                   "\\u\xF0\x9F\x98\x80",
                                   "\"",
                                   "\\\xC3\xA9",
                                   "\xED\xA0\x80",
                                   "\\ud83d",
                                   "\xF0\x9F\x98\x80",
                                   "a",
                                   "\\uZZZZ",
                                   "\\n"};
    for (int round = 0; round < 3000; ++round) {
        const std::string body = randomPieces(rng, hostile, 12);
        std::string whole;
        json::decodeStringBody(body, whole);
        const json::DecodedTextFacts facts = json::decodedTextFacts(body);
        QVERIFY2(facts.lengthU16 == text::lengthU16(whole), QByteArray::fromStdString(body).toHex().constData());
        if (text::hasLoneSurrogate(whole))
            QVERIFY2(facts.mayHoldLoneSurrogate, body.c_str());
        std::string prefix;
        const bool all = json::decodeStringBodyPrefix(body, prefix, 3);
        QVERIFY(whole.starts_with(prefix));
        QCOMPARE(all, prefix == whole);
    }
}

QTEST_APPLESS_MAIN(TestJson)
#include "tst_json.moc"
