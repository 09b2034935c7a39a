// `tracefold-cli report` and `tracefold-cli search` end to end: exit codes, one stderr line on bad input, the
// sidecar's notes in the report, the recording and the sidecar never written, and the PDF through the helper.
#include "core/crypto/sha256.h"
#include "core/generate/recordinggenerator.h"
#include "core/json/parser.h"
#include "core/recording/recordingloader.h"
#include "core/report/notes.h"
#include "tests/clirun.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace tf;

namespace {

using testsupport::cli;
using Result = testsupport::CliResult;

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeAll(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

// A PDF page object is "/Type /Page" not followed by "s" (that one is the page tree).
int pdfPages(const QByteArray &pdf)
{
    int pages = 0;
    for (qsizetype at = pdf.indexOf("/Type /Page"); at >= 0; at = pdf.indexOf("/Type /Page", at + 1))
        if (at + 11 >= pdf.size() || pdf[at + 11] != 's')
            ++pages;
    return pages;
}

// How QPdfWriter writes an Info string: a literal of UTF-16BE with a byte-order mark.
QByteArray pdfUtf16(const QString &s)
{
    QByteArray out("\xFE\xFF", 2);
    for (QChar c : s) {
        out += char(c.unicode() >> 8);
        out += char(c.unicode() & 0xFF);
    }
    return out;
}

} // namespace

class TestReportCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void reportWritesHtml();
    void reportIncludesSidecarNotes();
    void reportNeverWritesInputs();
    void brokenSidecarIsUnreadableInput();
    void unreadableRecording();
    void usageErrors();
    void searchText();
    void searchJsonAndCase();
    void reportPdf();

private:
    QTemporaryDir m_dir;
    QString m_recording;
    std::string m_runId;
    std::size_t m_calls = 0;
    std::string m_stage3;
};

void TestReportCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_recording = m_dir.filePath(QStringLiteral("run.json"));
    generate::GeneratorOptions options;
    options.calls = 12;
    options.seed = 21;
    const std::string bytes = generate::generateRecording(options);
    writeAll(m_recording, QByteArray::fromStdString(bytes));
    const auto loaded = recording::loadRecordingFromBytes(bytes, m_recording.toStdString());
    QVERIFY(loaded.run);
    m_runId = loaded.run->runId;
    m_calls = loaded.run->calls.size();
    m_stage3 = loaded.run->calls[2].callRuntimeStageId;
}

void TestReportCli::reportWritesHtml()
{
    const QString out = m_dir.filePath(QStringLiteral("plain.html"));
    const Result r =
        cli({QStringLiteral("report"), m_recording, QStringLiteral("-o"), out, QStringLiteral("--no-notes")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.err.isEmpty());
    const QByteArray html = readAll(out);
    QVERIFY(html.startsWith("<!DOCTYPE html>"));
    QVERIFY(html.contains(QByteArray::fromStdString(m_runId)));
    QCOMPARE(std::size_t(html.count("<section class=\"call\"")), m_calls);
    QVERIFY(!QFileInfo::exists(out + QStringLiteral(".partial")));
}

void TestReportCli::reportIncludesSidecarNotes()
{
    const QString dir = m_dir.filePath(QStringLiteral("withnotes"));
    QVERIFY(QDir().mkpath(dir));
    const QString recording = dir + QStringLiteral("/run.json");
    QVERIFY(QFile::copy(m_recording, recording));
    notes::Sidecar sidecar;
    sidecar.notes.push_back({{notes::TargetKind::Call, {3, m_stage3}, std::nullopt, std::nullopt},
                             "Reviewer: this is where the port flaps",
                             "2025-01-31T12:00:00Z"});
    sidecar.notes.push_back(
        {{notes::TargetKind::Call, {50, "call-llm#5000"}, std::nullopt, std::nullopt}, "a call that is gone", ""});
    sidecar.bookmarks.push_back({{3, m_stage3}, ""});
    writeAll(QString::fromStdString(notes::sidecarPathFor(recording.toStdString())),
             QByteArray::fromStdString(notes::serializeSidecar(sidecar)));
    const QString out = dir + QStringLiteral("/report.html");
    const Result r = cli({QStringLiteral("report"), recording, QStringLiteral("-o"), out});
    QCOMPARE(r.exitCode, 0);
    const QByteArray html = readAll(out);
    QVERIFY(html.contains("Reviewer: this is where the port flaps"));
    QVERIFY(html.contains("a call that is gone"));
    QVERIFY(html.contains(">Orphaned</span>"));
    QVERIFY(html.contains("\xE2\x98\x85 bookmarked"));
    // --no-notes leaves them out.
    const Result bare =
        cli({QStringLiteral("report"), recording, QStringLiteral("-o"), out, QStringLiteral("--no-notes")});
    QCOMPARE(bare.exitCode, 0);
    QVERIFY(!readAll(out).contains("Reviewer: this is where the port flaps"));
}

void TestReportCli::reportNeverWritesInputs()
{
    const QString dir = m_dir.filePath(QStringLiteral("readonly-check"));
    QVERIFY(QDir().mkpath(dir));
    const QString recording = dir + QStringLiteral("/run.json");
    QVERIFY(QFile::copy(m_recording, recording));
    const QString sidecarPath = QString::fromStdString(notes::sidecarPathFor(recording.toStdString()));
    notes::Sidecar sidecar;
    sidecar.notes.push_back({{notes::TargetKind::Call, {1, "x"}, std::nullopt, std::nullopt}, "n", ""});
    writeAll(sidecarPath, QByteArray::fromStdString(notes::serializeSidecar(sidecar)));
    const QByteArray recordingBefore = readAll(recording);
    const QByteArray sidecarBefore = readAll(sidecarPath);
    const QDateTime sidecarTime = QFileInfo(sidecarPath).lastModified();
    QCOMPARE(cli({QStringLiteral("report"), recording, QStringLiteral("-o"), dir + QStringLiteral("/r.html")}).exitCode,
             0);
    QCOMPARE(cli({QStringLiteral("search"), recording, QStringLiteral("port")}).exitCode, 0);
    QCOMPARE(readAll(recording), recordingBefore);
    QCOMPARE(readAll(sidecarPath), sidecarBefore);
    QCOMPARE(QFileInfo(sidecarPath).lastModified(), sidecarTime);
    // No sidecar appears where there was none.
    QVERIFY(!QFileInfo::exists(m_recording + QStringLiteral(".tracefold.json")));
}

void TestReportCli::brokenSidecarIsUnreadableInput()
{
    const QString dir = m_dir.filePath(QStringLiteral("broken"));
    QVERIFY(QDir().mkpath(dir));
    const QString recording = dir + QStringLiteral("/run.json");
    QVERIFY(QFile::copy(m_recording, recording));
    writeAll(recording + QStringLiteral(".tracefold.json"), "{\"version\": 1, \"notes\": [");
    const Result r = cli({QStringLiteral("report"), recording, QStringLiteral("-o"), dir + QStringLiteral("/r.html")});
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(r.err.contains(".tracefold.json"));
    QVERIFY(r.err.contains("--no-notes"));
    QCOMPARE(cli({QStringLiteral("report"), recording, QStringLiteral("-o"), dir + QStringLiteral("/r.html"),
                  QStringLiteral("--no-notes")})
                 .exitCode,
             0);
}

void TestReportCli::unreadableRecording()
{
    const QString missing = m_dir.filePath(QStringLiteral("missing\nname.json"));
    for (const QStringList &args : {QStringList{QStringLiteral("report"), missing, QStringLiteral("-o"),
                                                m_dir.filePath(QStringLiteral("x.html"))},
                                    QStringList{QStringLiteral("search"), missing, QStringLiteral("port")}}) {
        const Result r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count('\n'), 1); // one line, even with a newline in the file name
        QVERIFY(r.out.isEmpty());
    }
    const QString garbage = m_dir.filePath(QStringLiteral("garbage.json"));
    writeAll(garbage, "{\"events\": [1, 2");
    const Result r = cli({QStringLiteral("search"), garbage, QStringLiteral("x")});
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.err.count('\n'), 1);
}

void TestReportCli::usageErrors()
{
    QCOMPARE(cli({QStringLiteral("report")}).exitCode, 2);
    QCOMPARE(cli({QStringLiteral("report"), m_recording}).exitCode, 2); // neither -o nor --pdf
    QCOMPARE(cli({QStringLiteral("report"), m_recording, QStringLiteral("--bogus")}).exitCode, 2);
    QCOMPARE(cli({QStringLiteral("search"), m_recording}).exitCode, 2);
    QCOMPARE(cli({QStringLiteral("search"), m_recording, QString()}).exitCode, 2);
    QCOMPARE(cli({QStringLiteral("search"), m_recording, QStringLiteral("a"), QStringLiteral("b")}).exitCode, 2);
    const Result help = cli({QStringLiteral("--help")});
    QVERIFY(help.out.contains("report FILE -o"));
    QVERIFY(help.out.contains("search FILE TEXT"));
}

void TestReportCli::searchText()
{
    const Result r = cli({QStringLiteral("search"), m_recording, QStringLiteral("lookup_port")});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(std::size_t(r.out.count("\ncall ") + (r.out.startsWith("call ") ? 1 : 0)), m_calls);
    QVERIFY(r.out.contains("first appeared: call 1"));
    QVERIFY(r.out.contains("tools[lookup_port]"));
    const Result none = cli({QStringLiteral("search"), m_recording, QStringLiteral("no such text anywhere")});
    QCOMPARE(none.exitCode, 0);
    QVERIFY(none.out.startsWith("no call's served context contains the text"));
}

void TestReportCli::searchJsonAndCase()
{
    const Result r = cli({QStringLiteral("search"), m_recording, QStringLiteral("LOOKUP_PORT"),
                          QStringLiteral("--json"), QStringLiteral("-i")});
    QCOMPARE(r.exitCode, 0);
    json::StringArena arena;
    json::ParseError error;
    const std::string text = r.out.toStdString();
    const json::Value doc = json::parse(text, arena, error);
    QVERIFY2(!error.failed(), error.describe().c_str());
    QCOMPARE(doc.findNumber("schema")->asNumber(), 1.0);
    QVERIFY(doc.find("caseInsensitive")->asBool());
    QCOMPARE(std::size_t(doc.findNumber("matchingCalls")->asNumber()), m_calls);
    QCOMPARE(doc.findObject("firstAppearance")->findNumber("epoch")->asNumber(), 1.0);
    const Result exact =
        cli({QStringLiteral("search"), m_recording, QStringLiteral("LOOKUP_PORT"), QStringLiteral("--json")});
    QVERIFY(exact.out.contains("\"matchingCalls\": 0"));
    // A text that starts with a dash is searched for once the file is named.
    QCOMPARE(cli({QStringLiteral("search"), m_recording, QStringLiteral("-not-an-option")}).exitCode, 0);
}

void TestReportCli::reportPdf()
{
#ifndef TRACEFOLD_PDF_HELPER
    QSKIP("built without the GUI: no PDF helper");
#else
    QVERIFY(QFileInfo::exists(QStringLiteral(TRACEFOLD_PDF_HELPER)));
    const QString html = m_dir.filePath(QStringLiteral("both.html"));
    const QString pdf = m_dir.filePath(QStringLiteral("both.pdf"));
    const Result r = cli({QStringLiteral("report"), m_recording, QStringLiteral("-o"), html, QStringLiteral("--pdf"),
                          pdf, QStringLiteral("--no-notes")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QByteArray bytes = readAll(pdf);
    QVERIFY(bytes.startsWith("%PDF-"));
    QVERIFY(bytes.trimmed().endsWith("%%EOF"));
    QVERIFY2(pdfPages(bytes) > 1, QByteArray::number(pdfPages(bytes)).constData());
    QVERIFY(bytes.contains(pdfUtf16(QStringLiteral("Tracefold report ") + QString::fromStdString(m_runId))));
    QVERIFY(readAll(html).startsWith("<!DOCTYPE html>"));
    // --pdf alone is enough; a missing helper is a failure, not a silent skip.
    const QString only = m_dir.filePath(QStringLiteral("only.pdf"));
    QCOMPARE(cli({QStringLiteral("report"), m_recording, QStringLiteral("--pdf"), only, QStringLiteral("--no-notes")})
                 .exitCode,
             0);
    QVERIFY(readAll(only).startsWith("%PDF-"));
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("TRACEFOLD_REPORT_PDF"), m_dir.filePath(QStringLiteral("no-such-helper")));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(TRACEFOLD_CLI), {QStringLiteral("report"), m_recording, QStringLiteral("--pdf"),
                                            m_dir.filePath(QStringLiteral("never.pdf")), QStringLiteral("--no-notes")});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 1);
    QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("never.pdf"))));
#endif
}

QTEST_APPLESS_MAIN(TestReportCli)
#include "tst_reportcli.moc"
