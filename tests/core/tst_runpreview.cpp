// The preview of a large recording's first calls (issue 18, item 1): read by skimming to the commit log and the
// event list and parsing only their first rows and events, it must say of each call it holds exactly what the full
// load says — the same inspect object — and hold only calls wholly read. Files it cannot preview (NDJSON, packed,
// references) give none, and the full load speaks for them.

#include "core/generate/recordinggenerator.h"
#include "core/io/mappedfile.h"
#include "core/json/skim.h"
#include "core/json/writer.h"
#include "core/recording/recordingloader.h"
#include "core/recording/runpreview.h"
#include "core/report/inspectreport.h"

#include "tests/core/recordingfile.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <fstream>
#include <unistd.h>

using namespace tf;

namespace {

QString dataPath(const QString &relative)
{
    return QStringLiteral(TRACEFOLD_TEST_DATA "/") + relative;
}

std::vector<std::string> inspected(const std::vector<recording::CallSummary> &calls, std::size_t count)
{
    std::vector<std::string> out;
    for (std::size_t i = 0; i < count && i < calls.size(); ++i)
        out.push_back(json::stringify(report::inspectCallJson(calls[i])));
    return out;
}

std::shared_ptr<const io::MappedFile> bytesFile(std::string text, const std::string &name)
{
    return io::MappedFile::fromString(std::move(text), name);
}

// What a skim reports: each member's path and the offset of its value, one line each.
using Found = std::vector<std::string>;
std::function<bool(const std::vector<std::string_view> &, std::size_t)> collectInto(Found &found)
{
    return [&found](const std::vector<std::string_view> &path, std::size_t at) {
        std::string line;
        for (std::string_view k : path)
            line += std::string(k) + "/";
        found.push_back(line + "@" + std::to_string(at));
        return true;
    };
}

} // namespace

class TestRunPreview : public QObject
{
    Q_OBJECT

private slots:
    void skimFindsMembers();
    void skimOfFileAgreesWithTheText_data();
    void skimOfFileAgreesWithTheText();
    void previewAgreesWithTheLoad_data();
    void previewAgreesWithTheLoad();
    void nothingToPreview_data();
    void nothingToPreview();
    void summariesSettleFromTheFirstCall();
};

void TestRunPreview::skimFindsMembers()
{
    const std::string text = R"({"a":{"b":[{"c":1}],"s":"x\"}{[","d":{"e":{"f":2}}},"g":[1,{"h":3}],"i":"}"})";
    std::vector<std::string> found;
    json::skimMembers(text, 0, 3, [&](const std::vector<std::string_view> &path, std::size_t at) {
        std::string p;
        for (std::string_view k : path)
            p += std::string(k) + "/";
        found.push_back(p + text.substr(at, 1));
        return true;
    });
    // Members through objects only, three deep: "c" (inside an array) and "f" (a fourth level) are not reached.
    const std::vector<std::string> expected = {"a/{", "a/b/[", "a/s/\"", "a/d/{", "a/d/e/{", "g/[", "i/\""};
    QCOMPARE(found, expected);
}

void TestRunPreview::skimOfFileAgreesWithTheText_data()
{
    QTest::addColumn<QString>("file"); // empty: `text`
    QTest::addColumn<QString>("text");
    // Strings that cross a chunk's end anywhere: escaped quotes and backslashes (a run of them cut in the middle),
    // brackets and commas inside strings, strings longer than a chunk, member names cut by a chunk's end.
    const QString tricky =
        QStringLiteral(R"({"a":{"b":[{"c":1}],"s":"x\"}{[\\\\\"\\","d":{"e":{"f":2}}},"long":"%1","esc":"%2",)"
                       R"("g":[1,{"h":"]\\"}],"name with \"quotes\"":{"x":[],"y":{}},"i":"}"})")
            .arg(QString(300, QLatin1Char('w')), QStringLiteral("\\\\\\\\\\\"").repeated(40));
    QTest::newRow("escapes and long strings") << QString() << tricky;
    for (const char *name :
         {"dev-1-research.json", "dev-2-conversation.json", "dev-5-envelope.json", "dev-7-paused-or-limited.json"})
        QTest::newRow(name) << dataPath(QStringLiteral("samples/real-9.62/") + QLatin1String(name)) << QString();
}

void TestRunPreview::skimOfFileAgreesWithTheText()
{
    QFETCH(QString, file);
    QFETCH(QString, text);
    const std::string bytes = file.isEmpty() ? text.toStdString() : testsupport::readFile(file);
    QTemporaryDir dir;
    const std::string path = (dir.path() + QStringLiteral("/skimmed.json")).toStdString();
    {
        std::ofstream out(path, std::ios::binary);
        out.write(bytes.data(), std::streamsize(bytes.size()));
    }
    Found expected;
    json::skimMembers(bytes, 0, 3, collectInto(expected));
    QVERIFY(expected.size() > 5);
    // Chunks a little longer than the longest member name and its quotes (25 bytes; a name longer than a chunk ends
    // the skim), odd sizes, and the default.
    for (std::size_t chunk : {std::size_t(32), std::size_t(33), std::size_t(47), std::size_t(64), std::size_t(1000),
                              json::kSkimChunkBytes}) {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        QVERIFY(fd >= 0);
        Found got;
        json::skimMembersOfFile(fd, bytes.size(), 0, 3, collectInto(got), chunk);
        ::close(fd);
        if (got != expected) {
            for (std::size_t i = 0; i < std::min(got.size(), expected.size()); ++i)
                if (got[i] != expected[i])
                    qWarning("chunk %zu: member %zu is %s, the text's skim says %s", chunk, i, got[i].c_str(),
                             expected[i].c_str());
        }
        QCOMPARE(got.size(), expected.size());
        QVERIFY(got == expected);
    }
}

void TestRunPreview::previewAgreesWithTheLoad_data()
{
    QTest::addColumn<QString>("file"); // empty: generated
    QTest::addColumn<int>("want");
    QTest::addColumn<bool>("previewed");
    // A conversation and a resumed run: the snapshot is the last run's, which the first events cannot name; the
    // preview sees that and leaves them to the full load.
    for (const auto &[name, previewed] : {std::pair{"dev-1-research.json", true},
                                          {"dev-2-conversation.json", false},
                                          {"dev-3-tool-errors.json", true},
                                          {"dev-5-envelope.json", true},
                                          {"dev-7b-resumed.json", false},
                                          {"dev-8-max-iterations.json", true}})
        for (int want : {1, 3})
            QTest::newRow(qPrintable(QStringLiteral("%1, %2").arg(QLatin1String(name)).arg(want)))
                << dataPath(QStringLiteral("samples/real-9.62/") + QLatin1String(name)) << want << previewed;
    QTest::newRow("generated, 1") << QString() << 1 << true;
    QTest::newRow("generated, 25") << QString() << 25 << true;
}

void TestRunPreview::previewAgreesWithTheLoad()
{
    QFETCH(QString, file);
    QFETCH(int, want);
    QFETCH(bool, previewed);
    std::string text;
    if (file.isEmpty()) {
        generate::GeneratorOptions options;
        options.calls = 60;
        options.seed = 7;
        options.historyWindow = 40;
        options.turnCalls = 50;
        text = generate::generateRecording(options);
    } else {
        text = testsupport::readFile(file);
    }
    const auto full = testsupport::load(text, "full.json");
    const auto fullCalls = recording::summarizeCalls(*full);
    const std::optional<recording::RunPreview> preview =
        recording::previewRun(bytesFile(text, "full.json"), std::size_t(want));
    QCOMPARE(preview.has_value(), previewed);
    if (!preview)
        return;
    QVERIFY(preview->run->preview);
    QVERIFY(preview->calls.size() >= 1);
    QVERIFY(preview->calls.size() <= std::size_t(want));
    // Every call it holds is the call the load shows, to the byte of the inspect object.
    QCOMPARE(inspected(preview->calls, preview->calls.size()), inspected(fullCalls, preview->calls.size()));
    // And so does the preview of the file on disk, whose parts are found reading it through a buffer.
    QTemporaryDir dir;
    const std::string path = (dir.path() + QStringLiteral("/on-disk.json")).toStdString();
    {
        std::ofstream out(path, std::ios::binary);
        out.write(text.data(), std::streamsize(text.size()));
    }
    std::string error;
    const auto onDisk = io::MappedFile::open(path, error);
    QVERIFY2(onDisk, error.c_str());
    const int reopened = onDisk->reopen();
    QVERIFY(reopened >= 0);
    ::close(reopened);
    const std::optional<recording::RunPreview> fromDisk = recording::previewRun(onDisk, std::size_t(want));
    QVERIFY(fromDisk.has_value());
    QCOMPARE(inspected(fromDisk->calls, fromDisk->calls.size()), inspected(preview->calls, preview->calls.size()));
    QCOMPARE(preview->run->runId, full->runId);
    QCOMPARE(preview->run->model, full->model);
}

void TestRunPreview::nothingToPreview_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("NDJSON log") << dataPath(QStringLiteral("samples/real-9.62/dev-6-events.ndjson"));
    QTest::newRow("boundary capture") << dataPath(QStringLiteral("samples/agentfootprint-demo-turn.json"));
    QTest::newRow("byte-identity reference")
        << dataPath(QStringLiteral("samples/agentfootprint-reference-agent-findings.json"));
    QTest::newRow("packed")
        << QDir(dataPath(QStringLiteral("packed"))).filePath(QStringLiteral("dev-1-research.packed.json"));
}

void TestRunPreview::nothingToPreview()
{
    QFETCH(QString, file);
    QVERIFY(!file.isEmpty());
    QVERIFY(!recording::previewRun(bytesFile(testsupport::readFile(file), "x.json"), 3));
}

// While a whole run is summarized, the summaries reported settled are the first calls', already final: each report
// extends the one before, and every settled summary is the one the pass returns.
void TestRunPreview::summariesSettleFromTheFirstCall()
{
    generate::GeneratorOptions options;
    options.calls = 700;
    options.seed = 3;
    options.historyWindow = 12;
    options.turnCalls = 90;
    const auto loaded = recording::loadRecordingFromBytes(generate::generateRecording(options), "settling.json");
    QVERIFY2(loaded.run, loaded.error.c_str());
    std::vector<std::string> seen; // inspect objects of the settled summaries, as first reported
    std::size_t reports = 0;
    double lastDone = 0;
    const auto summaries =
        recording::summarizeCalls(*loaded.run, [&](double done, std::span<const recording::CallSummary> settled) {
            ++reports;
            if (settled.size() < seen.size() || done < lastDone || done > 1.0)
                return false; // fails the comparison below: the pass returns nothing
            lastDone = done;
            for (std::size_t i = seen.size(); i < settled.size(); ++i)
                seen.push_back(json::stringify(report::inspectCallJson(settled[i])));
            return true;
        });
    QCOMPARE(summaries.size(), std::size_t(700));
    QCOMPARE(seen.size(), std::size_t(700)); // the last report settles every call
    QVERIFY(reports > 700 / 16);             // reported between calls, not once at the end
    QCOMPARE(seen, inspected(summaries, 700));
    QCOMPARE(inspected(recording::summarizeCalls(*loaded.run), 700), seen); // as without reports

    // A report that returns false stops the pass, which then returns nothing.
    std::size_t stoppedAt = 0;
    const auto stopped = recording::summarizeCalls(*loaded.run, [&](double, std::span<const recording::CallSummary> s) {
        stoppedAt = s.size();
        return s.size() < 100;
    });
    QVERIFY(stopped.empty());
    QVERIFY(stoppedAt >= 100 && stoppedAt < 700);
}

QTEST_GUILESS_MAIN(TestRunPreview)
#include "tst_runpreview.moc"
