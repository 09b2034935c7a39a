// The later of a recording's two big lists read on a second thread while the load's parse reads the rest
// (detail::ListReadAhead): whatever the file, the load must come out the same as a load by one thread — the same
// calls, events and verdicts (the inspect document), the same string ends, the same refusal word for word — and the
// second thread must really have read the list wherever the file has two.

#include "core/generate/recordinggenerator.h"
#include "core/json/skim.h"
#include "core/json/stringends.h"
#include "core/recording/recordingloader.h"
#include "core/report/inspectreport.h"

#include "tests/core/recordingfile.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <map>

using namespace tf;

namespace {

struct Loaded
{
    std::string error;
    std::string inspect;
    json::StringEnds stringEnds;
    std::size_t events = 0;
    std::size_t commits = 0;
    bool readAhead = false;
};

// Loads `text` (from `file`, when given: a mapped file, whose skim reads it through a buffer and whose passes let
// its pages go) by one thread or with the read-ahead.
Loaded loadWith(const std::string &text, bool readAhead, const QString &file = {})
{
    recording::LoadControl control;
    control.readAheadFromBytes = readAhead ? 0 : SIZE_MAX;
    const recording::LoadResult r = file.isEmpty() ? recording::loadRecordingFromBytes(text, "file.json", control)
                                                   : recording::loadRecording(file.toStdString(), control);
    Loaded out;
    out.error = r.error;
    if (r.run) {
        out.inspect = report::inspectJsonText(*r.run, recording::summarizeCalls(*r.run));
        if (r.run->stringEnds)
            out.stringEnds = *r.run->stringEnds;
        out.events = r.run->events.size();
        out.commits = r.run->commitCount;
        out.readAhead = r.run->listReadAhead;
    }
    return out;
}

// Loads `text` by one thread and with the read-ahead, from bytes and from a file, and compares them.
void compareLoads(const std::string &text, bool expectReadAhead, bool expectLoaded)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("file.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write(text.data(), qint64(text.size())) == qint64(text.size()));
    f.close();
    for (const QString &file : {QString(), path}) {
        const Loaded one = loadWith(text, false, file);
        const Loaded two = loadWith(text, true, file);
        QCOMPARE(two.error, one.error);
        QCOMPARE(one.error.empty(), expectLoaded);
        if (!expectLoaded)
            continue;
        QVERIFY(!one.readAhead);
        QCOMPARE(two.readAhead, expectReadAhead);
        QCOMPARE(two.events, one.events);
        QCOMPARE(two.commits, one.commits);
        QVERIFY(two.stringEnds == one.stringEnds);
        QVERIFY(!one.inspect.empty());
        QVERIFY(two.inspect == one.inspect);
    }
}

std::string generated(std::uint64_t seed, int calls, std::size_t resultBytes)
{
    generate::GeneratorOptions options;
    options.seed = seed;
    options.calls = calls;
    options.resultBytes = resultBytes;
    options.historyWindow = 12;
    return generate::generateRecording(options);
}

// The root's members as written: name and the bytes of its value.
std::vector<std::pair<std::string, std::string>> rootMembers(const std::string &text)
{
    std::vector<std::pair<std::string, std::string>> members;
    json::skimMembers(text, text.find('{'), 1, [&](const std::vector<std::string_view> &path, std::size_t at) {
        const std::size_t end = json::endOfValueAgain(text, at);
        members.emplace_back(std::string(path[0]), text.substr(at, end - at));
        return true;
    });
    return members;
}

// The same recording with its root's members in another order (events before the snapshot: the commit log is then
// the later list), pretty or not.
std::string withMembersFirst(const std::string &text, const std::string &first, const std::string &separator)
{
    auto members = rootMembers(text);
    std::stable_partition(members.begin(), members.end(), [&](const auto &m) { return m.first == first; });
    std::string out = "{";
    for (const auto &[name, value] : members)
        out += (out.size() > 1 ? "," + separator : separator) + "\"" + name + "\":" + value;
    return out + separator + "}";
}

// The offset of the n-th byte `c` after `from`.
std::size_t nthAfter(const std::string &text, std::size_t from, char c, int n)
{
    std::size_t at = from;
    for (int i = 0; i < n && at != std::string::npos; ++i)
        at = text.find(c, at + 1);
    if (at == std::string::npos)
        qFatal("no byte '%c' number %d after offset %zu", c, n, from);
    return at;
}

} // namespace

class TestListReadAhead : public QObject
{
    Q_OBJECT

private slots:
    void sameLoad_data();
    void sameLoad();
    void sameRefusal_data();
    void sameRefusal();
    void sameWithANameTwice_data();
    void sameWithANameTwice();
    void cancelledAlike();
};

void TestListReadAhead::sameLoad_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("twoLists"); // the file has both lists, so the second thread must have read one

    const std::string plain = generated(7, 9, 2500);
    QTest::newRow("generated") << QByteArray::fromStdString(plain) << true;
    QTest::newRow("generated, events first")
        << QByteArray::fromStdString(withMembersFirst(plain, "events", "")) << true;
    QTest::newRow("generated, events first, spaced")
        << QByteArray::fromStdString(withMembersFirst(plain, "events", "\n  ")) << true;
    QTest::newRow("generated, escapes decoded late") << QByteArray::fromStdString(generated(11, 5, 40000)) << true;

    const QString data = QStringLiteral(TRACEFOLD_TEST_DATA "/samples");
    for (const QString &dir : {data, data + QStringLiteral("/real-9.62")}) {
        const QDir d(dir);
        for (const QString &name : d.entryList({"*.json", "*.ndjson"}, QDir::Files, QDir::Name)) {
            if (name == QStringLiteral("facts.json")) // what the samples hold, not a recording
                continue;
            const std::string text = testsupport::readFile(d.filePath(name));
            // Every sample of shape A or an envelope has both; the others (NDJSON, references) have one or none.
            const bool both = text.find("\"commitLog\"") != std::string::npos &&
                              text.find("\"events\"") != std::string::npos && !name.endsWith(".ndjson") &&
                              text.find("\"served\"") == std::string::npos;
            QTest::newRow(qPrintable(name)) << QByteArray::fromStdString(text) << both;
        }
    }
}

void TestListReadAhead::sameLoad()
{
    QFETCH(QByteArray, text);
    QFETCH(bool, twoLists);
    compareLoads(text.toStdString(), twoLists, true);
}

void TestListReadAhead::sameRefusal_data()
{
    QTest::addColumn<QByteArray>("text");

    const std::string plain = generated(5, 6, 3000);
    const std::size_t events = plain.find("\"events\":[");
    const std::size_t commitLog = plain.find("\"commitLog\":[");
    QVERIFY(events != std::string::npos && commitLog != std::string::npos && commitLog < events);

    // Damage in the later list (read on the second thread), in the earlier one (the parse fails first) and after both.
    std::string badUtf8 = plain;
    badUtf8[nthAfter(plain, events, ' ', 40) + 1] = '\xFF';
    QTest::newRow("invalid UTF-8 in the events") << QByteArray::fromStdString(badUtf8);
    std::string badSyntax = plain;
    badSyntax[nthAfter(plain, events, ',', 200)] = ';';
    QTest::newRow("a broken array in the events") << QByteArray::fromStdString(badSyntax);
    std::string badFirst = plain;
    badFirst[nthAfter(plain, commitLog, ',', 50)] = ']';
    QTest::newRow("a broken commit log") << QByteArray::fromStdString(badFirst);
    QTest::newRow("cut in the events") << QByteArray::fromStdString(plain.substr(0, (events + plain.size()) / 2));
    QTest::newRow("cut after the events") << QByteArray::fromStdString(plain.substr(0, plain.size() - 3));
    std::string badEvent = plain;
    const std::size_t type = plain.find("\"type\":\"", nthAfter(plain, events, '{', 30));
    badEvent.replace(type, 8, "\"type\": 4, \"x\":\"");
    QTest::newRow("an event whose type is a number") << QByteArray::fromStdString(badEvent);
    std::string deep = plain;
    deep.insert(plain.find("\"payload\":{", nthAfter(plain, events, '{', 10)) + 10,
                std::string(600, '[') + std::string(600, ']') + ",");
    QTest::newRow("nesting too deep in the events") << QByteArray::fromStdString(deep);
    std::string deepBetween = plain;
    deepBetween.insert(events, "\"deep\":" + std::string(200000, '[') + ",");
    QTest::newRow("nesting too deep between the lists") << QByteArray::fromStdString(deepBetween);
}

void TestListReadAhead::sameRefusal()
{
    QFETCH(QByteArray, text);
    compareLoads(text.toStdString(), false, false);
}

void TestListReadAhead::sameWithANameTwice_data()
{
    // A list given twice is streamed twice by the parse, the second after the first, whichever of them the thread read.
    QTest::addColumn<QByteArray>("text");
    const std::string plain = generated(3, 4, 2000);
    std::map<std::string, std::string> member;
    for (const auto &[name, value] : rootMembers(plain))
        member[name] = value;
    const auto object = [&](std::initializer_list<const char *> names) {
        std::string out = "{";
        for (const char *name : names)
            out += (out.size() > 1 ? "," : "") + std::string("\"") + name + "\":" + member.at(name);
        return QByteArray::fromStdString(out + "}");
    };
    QTest::newRow("events after the commit log, twice") << object({"snapshot", "events", "structure", "events"});
    QTest::newRow("events before the commit log and after it") << object({"events", "snapshot", "events"});
    QTest::newRow("the snapshot twice") << object({"snapshot", "events", "snapshot"});
    // The commit log read ahead, after another at the same path: the fold takes both (Run::commitCount).
    const std::string other = member.at("snapshot");
    member["snapshot"] =
        "{\"commitLog\":[{\"idx\":0,\"stage\":\"Seed\",\"stageId\":\"seed\",\"runtimeStageId\":\"seed#0\","
        "\"trace\":[],\"updates\":{}}]}";
    std::string twoLogs = "{\"events\":" + member.at("events") + ",\"snapshot\":" + member.at("snapshot") +
                          ",\"snapshot\":" + other + "}";
    QTest::newRow("two commit logs after the events") << QByteArray::fromStdString(twoLogs);
}

void TestListReadAhead::sameWithANameTwice()
{
    QFETCH(QByteArray, text);
    compareLoads(text.toStdString(), true, true);
}

void TestListReadAhead::cancelledAlike()
{
    // Cancelled at the first report of progress, with the second thread skimming or reading.
    const std::string text = generated(13, 8, 20000);
    std::atomic<bool> cancel{false};
    recording::LoadControl control;
    control.cancel = &cancel;
    control.readAheadFromBytes = 0;
    control.progress = [&](double fraction, const std::string &) {
        if (fraction > 0)
            cancel = true;
    };
    const recording::LoadResult r = recording::loadRecordingFromBytes(text, "file.json", control);
    QVERIFY(!r.run);
    QVERIFY(r.cancelled);
    QCOMPARE(r.error, std::string("cancelled"));
}

QTEST_GUILESS_MAIN(TestListReadAhead)
#include "tst_listreadahead.moc"
