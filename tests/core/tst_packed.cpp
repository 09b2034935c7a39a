// Packed recordings (issue 16, spec/upstream-since-9.113.md §1): `tracefold-cli unpack` writes exactly upstream's
// JSON.stringify(unpackRecording(...)) (the SHA-256 in tests/data/packed/expected.json), a packed file opens as its
// plain twin does (inspect --json alike), upstream's refusals come back by name with its message, the refusal of a
// small file that stands for gigabytes is fast and small, and nothing is ever written beside the file opened.

#include "recordingtext.h"
#include "testpacker.h"

#include "core/generate/recordinggenerator.h"
#include "core/io/bytesink.h"
#include "core/json/parser.h"
#include "core/packed/unpack.h"
#include "core/recording/recordingloader.h"
#include "tests/clirun.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <chrono>
#include <cstring>

using namespace tf;

namespace {

QString dataPath(const QString &relative)
{
    return QStringLiteral(TRACEFOLD_TEST_DATA "/") + relative;
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
}

QByteArray sha256(const QByteArray &bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

QJsonObject expected()
{
    return QJsonDocument::fromJson(readFile(dataPath(QStringLiteral("packed/expected.json")))).object();
}

using testsupport::cli;
using CliRun = testsupport::CliResult;

// Resident memory of this process from /proc/self/status ("VmRSS", "VmHWM"), in KiB; -1 when not there.
long statusKiB(const char *field)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith(QByteArray(field) + ':'))
            return line.mid(qsizetype(std::strlen(field)) + 1).trimmed().split(' ').value(0).toLong();
    return -1;
}

// Since Linux 4.0 writing 5 to clear_refs resets the peak (VmHWM) to the current resident set.
bool resetPeakResident()
{
    QFile f(QStringLiteral("/proc/self/clear_refs"));
    return f.open(QIODevice::WriteOnly) && f.write("5") == 1;
}

// inspect --json without the members that name the file as opened.
QJsonObject inspectDocument(const QString &path)
{
    const CliRun r = cli({QStringLiteral("inspect"), path, QStringLiteral("--json")});
    if (r.exitCode != 0)
        qWarning("inspect %s: %s", qPrintable(path), r.err.constData());
    QJsonObject doc = QJsonDocument::fromJson(r.out).object();
    doc.remove(QStringLiteral("file"));
    doc.remove(QStringLiteral("packed"));
    return doc;
}

// The text an Unpacked writes, or its error prefixed by "error: ".
std::string unpackText(const std::string &text, std::uint64_t maxBytes = packed::kDefaultMaxPlainBytes)
{
    packed::UnpackOptions options;
    options.maxPlainBytes = maxBytes;
    const packed::Unpacked u = packed::Unpacked::read(text, "t.json", options);
    if (!u.error().empty())
        return "error: " + u.error();
    if (!u.packed())
        return "plain";
    std::string out;
    io::StringSink sink(out);
    if (!u.write(sink))
        return "error: write failed";
    if (out.size() != u.plainSize().bytes)
        return "error: measured " + std::to_string(u.plainSize().bytes) + ", wrote " + std::to_string(out.size());
    return out;
}

std::string packedFile(const std::string &recording, const std::string &values)
{
    return R"({"format":"agentfootprint.recording.packed.v1","recording":)" + recording + R"(,"values":)" + values +
           "}";
}

} // namespace

class TestPacked : public QObject
{
    Q_OBJECT

private slots:
    void unpackMatchesUpstream_data();
    void unpackMatchesUpstream();
    void opensLikeItsPlainTwin_data();
    void opensLikeItsPlainTwin();
    void refusedWithUpstreamReason_data();
    void refusedWithUpstreamReason();
    void tooLargeIsRefusedFastAndSmall();
    void plainFilePassesThrough();
    void neverWritesTheFileOpened();
    void readingRules_data();
    void readingRules();
    void boundIsExact();
    void deeperThanTracefoldReadsIsRefused();
    void formatAfterOtherMembersIsFound();
    void largeExpansionGoesToAnUnnamedScratchFile();
    void progressAndCancel();
    void anyFaithfulPackingOpensAlike_data();
    void anyFaithfulPackingOpensAlike();

private:
    QTemporaryDir m_dir;
};

void TestPacked::unpackMatchesUpstream_data()
{
    QTest::addColumn<QString>("file");
    const QJsonObject good = expected().value(QStringLiteral("good")).toObject();
    QVERIFY(good.size() == 3);
    for (auto it = good.begin(); it != good.end(); ++it)
        QTest::newRow(qPrintable(it.key())) << it.key();
}

void TestPacked::unpackMatchesUpstream()
{
    QFETCH(QString, file);
    const QJsonObject facts = expected().value(QStringLiteral("good")).toObject().value(file).toObject();
    const QString out = m_dir.filePath(file + QStringLiteral(".unpacked.json"));
    const CliRun r =
        cli({QStringLiteral("unpack"), dataPath(QStringLiteral("packed/") + file), QStringLiteral("-o"), out});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    const QByteArray bytes = readFile(out);
    QCOMPARE(qint64(bytes.size()), qint64(facts.value(QStringLiteral("unpackedBytes")).toDouble()));
    QCOMPARE(sha256(bytes), facts.value(QStringLiteral("unpackedSha256")).toString().toLatin1());
    if (facts.value(QStringLiteral("unpackedEqualsOriginalFileBytes")).toBool())
        QVERIFY(bytes == readFile(dataPath(QStringLiteral("samples/real-9.62/") +
                                           facts.value(QStringLiteral("original")).toString())));
}

void TestPacked::opensLikeItsPlainTwin_data()
{
    QTest::addColumn<QString>("packedName");
    QTest::addColumn<QString>("plain");
    QTest::newRow("dev-1-research") << QStringLiteral("dev-1-research.packed.json")
                                    << dataPath(QStringLiteral("samples/real-9.62/dev-1-research.json"));
    QTest::newRow("dev-3-tool-errors") << QStringLiteral("dev-3-tool-errors.packed.json")
                                       << dataPath(QStringLiteral("samples/real-9.62/dev-3-tool-errors.json"));
    // Upstream packs an envelope's inner recording only: its twin is JSON.stringify of that member, written here by
    // the core's writer from the pretty-printed envelope (its hash checks the writer against upstream's bytes).
    QTest::newRow("dev-5-envelope-inner-recording") << QStringLiteral("dev-5-envelope.packed.json") << QString();
}

void TestPacked::opensLikeItsPlainTwin()
{
    QFETCH(QString, packedName);
    QFETCH(QString, plain);
    if (plain.isEmpty()) {
        const QByteArray envelope = readFile(dataPath(QStringLiteral("samples/real-9.62/dev-5-envelope.json")));
        const auto doc = testsupport::parseJson(envelope.toStdString());
        const QByteArray inner = QByteArray::fromStdString(json::stringify(*doc->root.find("recording")));
        QCOMPARE(sha256(inner), expected()
                                    .value(QStringLiteral("good"))
                                    .toObject()
                                    .value(packedName)
                                    .toObject()
                                    .value(QStringLiteral("unpackedSha256"))
                                    .toString()
                                    .toLatin1());
        plain = m_dir.filePath(QStringLiteral("dev-5-inner.json"));
        writeFile(plain, inner);
    }
    const QString packedPath = dataPath(QStringLiteral("packed/") + packedName);
    const CliRun r = cli({QStringLiteral("inspect"), packedPath, QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(r.out).object().value(QStringLiteral("packed")).toBool(false), true);
    const QJsonObject fromPacked = inspectDocument(packedPath);
    const QJsonObject fromPlain = inspectDocument(plain);
    QVERIFY(!fromPlain.isEmpty());
    QVERIFY(fromPlain.value(QStringLiteral("calls")).toArray().size() > 0);
    QCOMPARE(fromPacked, fromPlain);
    // The table says it too.
    const CliRun table = cli({QStringLiteral("inspect"), packedPath});
    QVERIFY(table.out.startsWith(packedPath.toUtf8() + ": recording {snapshot, events, structure}, packed, "));
}

void TestPacked::refusedWithUpstreamReason_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("message");
    const QJsonObject bad = expected().value(QStringLiteral("bad")).toObject();
    QVERIFY(bad.size() == 3);
    // Named and worded as Node prints upstream's error: "<errorName>: <message>".
    for (auto it = bad.begin(); it != bad.end(); ++it) {
        const QJsonObject facts = it.value().toObject();
        QTest::newRow(qPrintable(it.key()))
            << it.key()
            << facts.value(QStringLiteral("errorName")).toString() + QStringLiteral(": ") +
                   facts.value(QStringLiteral("message")).toString();
    }
}

void TestPacked::refusedWithUpstreamReason()
{
    QFETCH(QString, file);
    QFETCH(QString, message);
    const QString path = dataPath(QStringLiteral("packed/") + file);
    const QString out = m_dir.filePath(QStringLiteral("refused.json"));
    for (const QStringList &args : {QStringList{QStringLiteral("inspect"), path},
                                    QStringList{QStringLiteral("unpack"), path, QStringLiteral("-o"), out}}) {
        const CliRun r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        const QString line = QString::fromUtf8(r.err);
        QVERIFY2(line.endsWith(u'\n') && line.count(u'\n') == 1, qPrintable(line));
        // The file, the position, and upstream's reason word for word.
        QVERIFY2(line.startsWith(path + QStringLiteral(": packed recording refused at byte ")), qPrintable(line));
        QVERIFY2(line.trimmed().endsWith(message), qPrintable(line));
        QVERIFY(!QFile::exists(out));
    }
}

void TestPacked::tooLargeIsRefusedFastAndSmall()
{
    // It stands for 558 MB of JSON: a reader that expanded it, or built it as a tree, would need more than that.
    const std::string path = dataPath(QStringLiteral("packed/too-large.packed.json")).toStdString();
    if (!resetPeakResident())
        QSKIP("this kernel does not let a process reset its peak resident set");
    const long before = statusKiB("VmRSS");
    const auto start = std::chrono::steady_clock::now();
    const recording::LoadResult loaded = recording::loadRecording(path);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const long peak = statusKiB("VmHWM");
    QVERIFY(!loaded.run);
    QVERIFY(loaded.error.find("expands to more than 536870912 bytes of JSON") != std::string::npos);
    qInfo("too-large.packed.json refused in %.3f s; peak resident set %ld KiB above the %ld KiB before", seconds,
          peak - before, before);
    QVERIFY2(peak - before < 20 * 1024, qPrintable(QString::number(peak - before)));
    QVERIFY2(seconds < 1.0, qPrintable(QString::number(seconds)));
}

void TestPacked::plainFilePassesThrough()
{
    const QString in = dataPath(QStringLiteral("samples/real-9.62/dev-5-envelope.json"));
    const QString out = m_dir.filePath(QStringLiteral("plain-copy.json"));
    const CliRun r = cli({QStringLiteral("unpack"), in, QStringLiteral("-o"), out});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(readFile(out) == readFile(in));
}

void TestPacked::neverWritesTheFileOpened()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("run.packed.json"));
    QVERIFY(QFile::copy(dataPath(QStringLiteral("packed/dev-3-tool-errors.packed.json")), path));
    const QByteArray before = readFile(path);
    const QStringList listed = QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
    QCOMPARE(cli({QStringLiteral("inspect"), path}).exitCode, 0);
    const recording::LoadResult loaded = recording::loadRecording(path.toStdString());
    QVERIFY(loaded.run && loaded.run->packedFile);
    QCOMPARE(loaded.run->path, path.toStdString());
    const CliRun self = cli({QStringLiteral("unpack"), path, QStringLiteral("-o"), path});
    QCOMPARE(self.exitCode, 2);
    QVERIFY2(self.err.contains("unpack never writes the file it reads"), self.err.constData());
    QVERIFY(readFile(path) == before);
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), listed);
}

void TestPacked::readingRules_data()
{
    QTest::addColumn<QString>("recording");
    QTest::addColumn<QString>("values");
    // The expansion, or the refusal with "@" where the byte offset of `at` (its last occurrence) goes.
    QTest::addColumn<QString>("expected");
    QTest::addColumn<QString>("at");
    QTest::newRow("ref-to-a-value") << R"({"a":{"$af:ref":0},"b":{"$af:ref":0}})"
                                    << R"(["x"])"
                                    << R"({"a":"x","b":"x"})" << QString();
    QTest::newRow("values-refer-to-values") << R"([{"$af:ref":1}])"
                                            << R"([[1,2],{"k":{"$af:ref":0}}])"
                                            << R"([{"k":[1,2]}])" << QString();
    QTest::newRow("ref-chain") << R"({"$af:ref":0})"
                               << R"([{"$af:ref":1},{"$af:ref":2},{"end":true}])"
                               << R"({"end":true})" << QString();
    QTest::newRow("escape-is-taken-literally-its-members-unpacked") << R"({"$af:esc":{"$af:ref":{"$af:ref":0},"n":1}})"
                                                                    << R"(["v"])"
                                                                    << R"({"$af:ref":"v","n":1})" << QString();
    QTest::newRow("escape-of-a-non-object-is-ordinary") << R"({"$af:esc":[{"$af:ref":0}]})"
                                                        << R"([7])"
                                                        << R"({"$af:esc":[7]})" << QString();
    QTest::newRow("ref-with-a-second-member-is-ordinary") << R"({"$af:ref":0,"x":1})"
                                                          << R"([7])"
                                                          << R"({"$af:ref":0,"x":1})" << QString();
    QTest::newRow("js-property-order-and-numbers")
        << R"({"b":1.50,"10":2,"2":{"$af:ref":0},"z":-0,"e":1E21})"
        << R"(["\u00e9\ud800\n"])"
        << R"({"2":"é\ud800\n","10":2,"b":1.5,"z":0,"e":1e+21})" << QString();
    QTest::newRow("an-unreached-dangling-ref-is-not-read") << R"({"a":{"$af:ref":0}})"
                                                           << R"([1,{"$af:ref":9}])"
                                                           << R"({"a":1})" << QString();
    QTest::newRow("dangling") << R"({"a":{"$af:ref":2}})"
                              << R"([1])"
                              << "A reference names value 2, which this recording does not hold."
                              << R"({"$af:ref":2})";
    QTest::newRow("not-an-integer") << R"({"a":{"$af:ref":1.5}})"
                                    << R"([1,2])"
                                    << "A reference names value 1.5, which this recording does not hold."
                                    << R"({"$af:ref":1.5})";
    QTest::newRow("a-string-index") << R"({"$af:ref":"0"})"
                                    << R"([1])"
                                    << "A reference names value 0, which this recording does not hold."
                                    << R"({"$af:ref":"0"})";
    QTest::newRow("self-reference") << R"({"$af:ref":0})"
                                    << R"([[{"$af:ref":0}]])"
                                    << "Value 0 refers to itself; a recording cannot hold that."
                                    << R"({"$af:ref":0})";
    QTest::newRow("cycle-through-others") << R"([{"$af:ref":0}])"
                                          << R"([{"n":{"$af:ref":1}},[{"$af:ref":0}]])"
                                          << "Value 0 refers to itself; a recording cannot hold that."
                                          << R"({"$af:ref":0})";
}

void TestPacked::readingRules()
{
    QFETCH(QString, recording);
    QFETCH(QString, values);
    QFETCH(QString, expected);
    QFETCH(QString, at);
    const std::string file = packedFile(recording.toStdString(), values.toStdString());
    std::string want = expected.toStdString();
    if (!at.isEmpty())
        want = "error: t.json: packed recording refused at byte " + std::to_string(file.rfind(at.toStdString())) +
               ": PackedRecordingError: " + want;
    QCOMPARE(QString::fromStdString(unpackText(file)), QString::fromStdString(want));
}

void TestPacked::boundIsExact()
{
    // A 4-byte U+1F600 counts as 4 bytes (UTF-8), a lone surrogate as its 6-byte escape.
    const std::string file = packedFile(R"([{"$af:ref":0},{"$af:ref":0}])", R"(["😀\ud800"])");
    const std::string plain = unpackText(file);
    QCOMPARE(plain, std::string(R"(["😀\ud800","😀\ud800"])"));
    QCOMPARE(unpackText(file, plain.size()), plain); // equal passes
    const std::string refused = unpackText(file, plain.size() - 1);
    QVERIFY2(refused.find("This packed recording expands to more than " + std::to_string(plain.size() - 1) +
                          " bytes of JSON") != std::string::npos,
             refused.c_str());
    // Other members of the family are refused by name; a v1 marker lacking a part too, saying which.
    QVERIFY(unpackText(R"({"format":"agentfootprint.recording.packed.v9","recording":1,"values":[]})")
                .find("was handed 'agentfootprint.recording.packed.v9'") != std::string::npos);
    QVERIFY(unpackText(R"({"format":"agentfootprint.recording.packed.v1","recording":1})")
                .find("(its \"values\" is not an array)") != std::string::npos);
    QVERIFY(unpackText(R"({"format":"agentfootprint.recording.packed.v1","values":[]})")
                .find("(it has no \"recording\")") != std::string::npos);
    QCOMPARE(unpackText(R"({"format":"agentfootprint.recording.v1","recording":{}})"), std::string("plain"));
}

void TestPacked::deeperThanTracefoldReadsIsRefused()
{
    const auto nest = [](int levels, const std::string &inner) {
        return std::string(std::size_t(levels), '[') + inner + std::string(std::size_t(levels), ']');
    };
    // Each value within the parser's 512 levels; together 300 + 150 + 1 levels: fine.
    const std::string fine =
        packedFile(R"([{"$af:ref":1}])", "[" + nest(300, "0") + "," + nest(150, R"({"$af:ref":0})") + "]");
    QCOMPARE(unpackText(fine), "[" + nest(450, "0") + "]");
    // 300 + 250 + 1: deeper than any JSON Tracefold reads, refused before anything is written.
    const std::string deep =
        packedFile(R"([{"$af:ref":1}])", "[" + nest(300, "0") + "," + nest(250, R"({"$af:ref":0})") + "]");
    const std::string refused = unpackText(deep);
    QVERIFY2(refused.find("it expands to JSON nested 551 levels deep; Tracefold reads at most 512") !=
                 std::string::npos,
             refused.c_str());
    // A chain of a hundred thousand references costs no stack.
    std::string chain = "[";
    for (int i = 0; i < 100000; ++i)
        chain += R"({"$af:ref":)" + std::to_string(i + 1) + "},";
    chain += "\"end\"]";
    QCOMPARE(unpackText(packedFile(R"({"$af:ref":0})", chain)), std::string(R"("end")"));
}

void TestPacked::formatAfterOtherMembersIsFound()
{
    // Upstream writes `format` first; a file that names it later is a packed recording all the same.
    const std::string plain = testsupport::generated(3, 5);
    const auto doc = testsupport::parseJson(plain);
    const json::Value &root = doc->root;
    std::string packedText = testpacker::pack(root);
    const std::string marker = R"("format":"agentfootprint.recording.packed.v1",)";
    QVERIFY(packedText.rfind("{" + marker, 0) == 0);
    packedText.erase(1, marker.size());
    packedText.insert(packedText.size() - 1, "," + marker.substr(0, marker.size() - 1));
    QVERIFY(!packed::formatFirstNamesPackedFamily(packedText));
    const recording::LoadResult loaded = recording::loadRecordingFromBytes(packedText, "late-format.json");
    QVERIFY2(loaded.run, loaded.error.c_str());
    QVERIFY(loaded.run->packedFile);
    QVERIFY(loaded.run->source->bytes() == json::stringify(root)); // the generator ends its file with a newline
    // References in the event list, which the loader streams before it sees the format at the end.
    const std::string event = R"({"type":"agentfootprint.agent.turn_start","payload":{},"meta":{"runId":"run-1-1"}})";
    const recording::LoadResult refs =
        recording::loadRecordingFromBytes(R"({"recording":{"events":[{"$af:ref":0},{"$af:ref":0}]},"values":[)" +
                                              event + R"(],"format":"agentfootprint.recording.packed.v1"})",
                                          "refs-first.json");
    QVERIFY2(refs.run, refs.error.c_str());
    QCOMPARE(refs.run->events.size(), std::size_t(2));
    QVERIFY(refs.run->source->bytes() == R"({"events":[)" + event + "," + event + "]}");
}

void TestPacked::largeExpansionGoesToAnUnnamedScratchFile()
{
    // ~48 MB of plain JSON from a file of a few hundred kilobytes: 700 tool_end events sharing one 64 KiB result.
    std::string events = "[";
    for (int i = 0; i < 700; ++i)
        events += std::string(i ? "," : "") + R"({"$af:ref":1})";
    events += "]";
    const std::string file =
        packedFile(R"({"events":)" + events + "}",
                   "[\"" + std::string(65536, 'x') +
                       R"(",{"type":"agentfootprint.stream.tool_end","payload":{"result":{"$af:ref":0}}}])");
    QTemporaryDir scratch;
    const QByteArray oldTmp = qgetenv("TMPDIR");
    qputenv("TMPDIR", scratch.path().toLocal8Bit());
    const recording::LoadResult loaded = recording::loadRecordingFromBytes(file, "big.packed.json");
    qputenv("TMPDIR", oldTmp);
    QVERIFY2(loaded.run, loaded.error.c_str());
    QCOMPARE(loaded.run->events.size(), std::size_t(700));
    QVERIFY(loaded.run->source->bytes().size() > (32u << 20));
    QCOMPARE(loaded.run->source->path(), std::string("big.packed.json"));
    // The expansion lives in a file without a name: nothing is left in the temporary directory.
    QVERIFY(QDir(scratch.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).isEmpty());
    QVERIFY(loaded.run->source->bytes().substr(0, 12) == R"({"events":[{)");
}

void TestPacked::progressAndCancel()
{
    const QByteArray bytes = readFile(dataPath(QStringLiteral("packed/dev-1-research.packed.json")));
    std::vector<std::pair<double, std::string>> seen;
    recording::LoadControl control;
    control.progress = [&](double f, const std::string &m) { seen.emplace_back(f, m); };
    const recording::LoadResult loaded = recording::loadRecordingFromBytes(bytes.toStdString(), "p.json", control);
    QVERIFY(loaded.run);
    QVERIFY(!seen.empty());
    bool unpacking = false;
    for (std::size_t i = 0; i < seen.size(); ++i) {
        unpacking = unpacking || seen[i].second == "Unpacking";
        if (i)
            QVERIFY2(seen[i].first >= seen[i - 1].first, seen[i].second.c_str());
    }
    QVERIFY(unpacking);
    QCOMPARE(seen.back().first, 1.0);

    std::atomic<bool> cancel{true};
    recording::LoadControl cancelled;
    cancelled.cancel = &cancel;
    const recording::LoadResult stopped = recording::loadRecordingFromBytes(bytes.toStdString(), "p.json", cancelled);
    QVERIFY(!stopped.run);
    QVERIFY(stopped.cancelled);
}

void TestPacked::anyFaithfulPackingOpensAlike_data()
{
    QTest::addColumn<QString>("plain");
    QTest::newRow("dev-3-tool-errors") << dataPath(QStringLiteral("samples/real-9.62/dev-3-tool-errors.json"));
    QTest::newRow("generated-with-receipts") << QString();
}

void TestPacked::anyFaithfulPackingOpensAlike()
{
    QFETCH(QString, plain);
    if (plain.isEmpty()) {
        plain = m_dir.filePath(QStringLiteral("generated.json"));
        writeFile(plain, QByteArray::fromStdString(testsupport::generated(12, 3)));
    }
    const QByteArray bytes = readFile(plain);
    const auto doc = testsupport::parseJson(bytes.toStdString());
    const json::Value &root = doc->root;
    const std::string &text = doc->text;
    const std::string packedText = testpacker::pack(root);
    QVERIFY(packedText.size() < text.size());
    QVERIFY(packedText.find("$af:ref") != std::string::npos);
    const QString packedPath = m_dir.filePath(QFileInfo(plain).completeBaseName() + QStringLiteral(".repacked.json"));
    writeFile(packedPath, QByteArray::fromStdString(packedText));
    const QString out = m_dir.filePath(QStringLiteral("roundtrip.json"));
    QCOMPARE(cli({QStringLiteral("unpack"), packedPath, QStringLiteral("-o"), out}).exitCode, 0);
    // JSON.stringify of the plain recording (the generator ends its file with a newline, which JSON drops).
    QVERIFY(readFile(out) == QByteArray::fromStdString(json::stringify(root)));
    QCOMPARE(inspectDocument(packedPath), inspectDocument(plain));
}

QTEST_APPLESS_MAIN(TestPacked)
#include "tst_packed.moc"
