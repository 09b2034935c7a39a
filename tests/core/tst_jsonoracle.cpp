// The core's JSON reader against nlohmann_json (issue 17, item 5; tests/fuzz/jsonoracle.h): every stored input —
// the fuzz corpora and regressions, the samples (each NDJSON line too), the broken fixtures, the conformance
// vectors (each line and each file), the packed recordings, generated runs — must get the same verdict and the
// same tree from both, or differ only in a documented way. The documented differences are checked to be
// recognised for what they are, and nothing else is let through.

#include "jsonoracle.h"

#include "core/generate/recordinggenerator.h"

#include <QDirIterator>
#include <QFile>
#include <QTest>

#include <map>

using namespace tf;
using tf::fuzz::oracle::Difference;

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QStringList filesUnder(const QString &dir)
{
    QStringList files;
    QDirIterator it(dir, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext())
        files.append(it.next());
    files.sort();
    return files;
}

} // namespace

class TestJsonOracle : public QObject
{
    Q_OBJECT

private slots:
    void documentedDifferences_data();
    void documentedDifferences();
    void agreement_data();
    void agreement();
    void storedInputs_data();
    void storedInputs();
};

void TestJsonOracle::documentedDifferences_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("difference");
    QTest::addColumn<bool>("coreAccepts");
    QTest::newRow("lone-high-surrogate") << QByteArray(R"({"clip":"ab\ud83d"})") << int(Difference::LoneSurrogate)
                                         << true;
    QTest::newRow("lone-low-surrogate-in-name")
        << QByteArray(R"({"\udc00":1})") << int(Difference::LoneSurrogate) << true;
    QTest::newRow("nesting-513") << QByteArray(513, '[') + QByteArray(513, ']') << int(Difference::Nesting) << false;
    QTest::newRow("byte-order-mark") << QByteArray("\xEF\xBB\xBF{\"a\":[1,2]}") << int(Difference::ByteOrderMark)
                                     << false;
    QTest::newRow("negative-zero-integer") << QByteArray("[-0]") << int(Difference::NegativeZero) << true;
    QTest::newRow("infinite-number") << QByteArray("[1e400,-1e999]") << int(Difference::InfiniteNumber) << true;
    QTest::newRow("nul-ends-input") << QByteArray("{\"a\":[]}\0\0junk", 13) << int(Difference::NulEndsInput) << false;
    QTest::newRow("index-names-first") << QByteArray(R"({"z":1,"10":2,"a":3,"2":4,"01":5})")
                                       << int(Difference::IndexNamesFirst) << true;
}

void TestJsonOracle::documentedDifferences()
{
    QFETCH(QByteArray, text);
    QFETCH(int, difference);
    QFETCH(bool, coreAccepts);
    const auto verdict = fuzz::oracle::compare(std::string_view(text.constData(), std::size_t(text.size())));
    QVERIFY2(verdict.agree, verdict.detail.c_str());
    QCOMPARE(int(verdict.documented), difference);
    QCOMPARE(verdict.accepted, coreAccepts);
}

void TestJsonOracle::agreement_data()
{
    // Cases where both must agree exactly, including the ones next to a documented difference.
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("accepted");
    QTest::newRow("surrogate-pair") << QByteArray(R"(["\ud83d\ude00"])") << true;
    QTest::newRow("duplicate-name-first-position-last-value") << QByteArray(R"({"a":1,"b":2,"a":3})") << true;
    QTest::newRow("negative-zero-double") << QByteArray("[-0.0,-0e0,0]") << true;
    QTest::newRow("numbers-at-the-edges")
        << QByteArray("[9007199254740993,18446744073709551615,18446744073709551616,-9223372036854775809,"
                      "1e308,4.9e-324,2.2250738585072011e-308,0.1,123456789012345678901234567890]")
        << true;
    QTest::newRow("underflowing-exponent") << QByteArray("[1e-400,-1e-400]") << true;
    QTest::newRow("index-name-limits") << QByteArray(R"({"4294967294":1,"4294967295":2,"-1":3})") << true;
    QTest::newRow("nesting-512") << QByteArray(512, '[') + QByteArray(512, ']') << true;
    QTest::newRow("escapes") << QByteArray(R"("\u0000\b\f\n\r\t\/\\\"\u00e9\u20AC")") << true;
    QTest::newRow("long-escaped-string-deferred") << "\"" + QByteArray(3000, 'x').replace(10, 2, "\\n") + "\"" << true;
    QTest::newRow("trailing-comma") << QByteArray("[1,]") << false;
    QTest::newRow("two-values") << QByteArray("{} {}") << false;
    QTest::newRow("leading-zero") << QByteArray("[01]") << false;
    QTest::newRow("raw-control-character") << QByteArray("[\"a\tb\"]") << false;
    QTest::newRow("invalid-utf8") << QByteArray("[\"\xC3\x28\"]") << false;
    QTest::newRow("encoded-surrogate-bytes") << QByteArray("[\"\xED\xA0\x80\"]") << false;
    QTest::newRow("empty") << QByteArray() << false;
    QTest::newRow("nul-inside-a-string") << QByteArray("[\"a\0b\"]", 7) << false;
}

void TestJsonOracle::agreement()
{
    QFETCH(QByteArray, text);
    QFETCH(bool, accepted);
    const auto verdict = fuzz::oracle::compare(std::string_view(text.constData(), std::size_t(text.size())));
    QVERIFY2(verdict.agree, verdict.detail.c_str());
    QCOMPARE(int(verdict.documented), int(Difference::None));
    QCOMPARE(verdict.accepted, accepted);
}

void TestJsonOracle::storedInputs_data()
{
    QTest::addColumn<QStringList>("files");
    QTest::addColumn<bool>("perLine");
    const QString data = QStringLiteral(TRACEFOLD_TEST_DATA);
    const QString fuzz = QStringLiteral(TRACEFOLD_TEST_DATA "/../fuzz/corpus");
    QTest::newRow("fuzz-corpora") << filesUnder(fuzz) << false;
    QTest::newRow("fuzz-regressions") << filesUnder(data + QStringLiteral("/fuzz-regressions")) << false;
    QTest::newRow("samples") << filesUnder(data + QStringLiteral("/samples")) << false;
    QTest::newRow("samples-by-line") << filesUnder(data + QStringLiteral("/samples")) << true;
    QTest::newRow("broken") << filesUnder(data + QStringLiteral("/broken")) << false;
    QTest::newRow("conformance") << filesUnder(data + QStringLiteral("/conformance")) << false;
    QTest::newRow("conformance-by-line") << filesUnder(data + QStringLiteral("/conformance")) << true;
    QTest::newRow("packed") << filesUnder(data + QStringLiteral("/packed")) << false;
}

void TestJsonOracle::storedInputs()
{
    QFETCH(QStringList, files);
    QFETCH(bool, perLine);
    QVERIFY(!files.isEmpty());
    std::map<std::string, int> tally;
    const auto check = [&](const QString &where, const QByteArray &text) {
        const auto verdict = fuzz::oracle::compare(std::string_view(text.constData(), std::size_t(text.size())));
        if (!verdict.agree)
            QFAIL(qPrintable(where + QStringLiteral(": ") + QString::fromStdString(verdict.detail)));
        ++tally[verdict.documented != Difference::None ? fuzz::oracle::nameOf(verdict.documented)
                : verdict.accepted                     ? "accepted by both"
                                                       : "refused by both"];
    };
    for (const QString &file : files) {
        const QByteArray bytes = readAll(file);
        if (!perLine) {
            check(file, bytes);
            continue;
        }
        int lineNo = 0;
        for (const QByteArray &line : bytes.split('\n')) {
            ++lineNo;
            if (!line.trimmed().isEmpty())
                check(file + QLatin1Char(':') + QString::number(lineNo), line);
        }
    }
    if (QTest::currentDataTag() == QLatin1String("samples")) {
        // Generated runs too: every row kind, collapse, damage, long histories.
        for (std::uint64_t seed = 1; seed <= 6; ++seed) {
            generate::GeneratorOptions options;
            options.calls = int(4 + seed * 3);
            options.seed = seed;
            options.historyInIterationEnd = seed % 2 == 0;
            if (seed == 5) {
                options.damage.kind = generate::Damage::Kind::MessageByte;
                options.damage.call = 2;
            }
            const std::string text = generate::generateRecording(options);
            check(QStringLiteral("generated seed %1").arg(seed), QByteArray::fromStdString(text));
        }
    }
    QString summary;
    for (const auto &[what, count] : tally)
        summary += QStringLiteral("%1 %2; ").arg(count).arg(QString::fromStdString(what));
    qInfo("%s", qPrintable(summary));
}

QTEST_APPLESS_MAIN(TestJsonOracle)
#include "tst_jsonoracle.moc"
