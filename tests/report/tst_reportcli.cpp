// `tracefold-cli report` and `tracefold-cli search` end to end: exit codes, one stderr line on bad input, the
// sidecar's notes in the report, the recording and the sidecar never written, and the PDF through the helper.
#include "core/crypto/sha256.h"
#include "core/generate/recordinggenerator.h"
#include "core/json/parser.h"
#include "core/recording/recordingloader.h"
#include "core/report/backtrack.h"
#include "core/report/callselection.h"
#include "core/report/notes.h"
#include "tests/clirun.h"
#include "tests/report/pdftext.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <set>

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
    void reportPdfReadsLikeAReport();
    void detailOption();

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

    // What the model wrote is searched on request only: the answer is in no call's served context, and with
    // --responses it is the last call's response text and its turn's answer, listed after the served parts.
    const QString answer = QStringLiteral("throws CRC bursts; replace");
    QVERIFY(cli({QStringLiteral("search"), m_recording, answer})
                .out.startsWith("no call's served context contains the text"));
    const Result wrote = cli({QStringLiteral("search"), m_recording, answer, QStringLiteral("--responses")});
    QCOMPARE(wrote.exitCode, 0);
    QVERIFY2(wrote.out.startsWith(QStringLiteral("call %1 ").arg(m_calls).toUtf8()) &&
                 wrote.out.contains("2 matches: response.text, answer"),
             wrote.out.constData());
    const Result wroteJson =
        cli({QStringLiteral("search"), m_recording, answer, QStringLiteral("--responses"), QStringLiteral("--json")});
    const std::string wroteText = wroteJson.out.toStdString();
    const json::Value wroteDoc = json::parse(wroteText, arena, error);
    QVERIFY(!error.failed());
    QVERIFY(wroteDoc.find("includesResponses")->asBool());
    QCOMPARE(std::string(wroteDoc.findObject("firstAppearance")->findString("location")->asString()),
             std::string("response.text"));
    QVERIFY(!doc.find("includesResponses")); // absent without the option: the document is what it was
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

void TestReportCli::reportPdfReadsLikeAReport()
{
#ifndef TRACEFOLD_PDF_HELPER
    QSKIP("built without the GUI: no PDF helper");
#else
    // The bundled 80-call sample, with a bookmark on call 40 and a note on call 41.
    const QString dir = m_dir.filePath(QStringLiteral("sample"));
    QVERIFY(QDir().mkpath(dir));
    const QString recording = dir + QStringLiteral("/tracefold-sample.json");
    QVERIFY(QFile::copy(QStringLiteral(TRACEFOLD_SAMPLE), recording));
    const auto loaded = recording::loadRecording(recording.toStdString());
    QVERIFY(loaded.run);
    const recording::Run &run = *loaded.run;
    QCOMPARE(run.calls.size(), std::size_t(80));
    notes::Sidecar sidecar;
    sidecar.bookmarks.push_back({notes::callRefOf(run.calls[39]), ""});
    sidecar.notes.push_back(
        {{notes::TargetKind::Call, notes::callRefOf(run.calls[40]), std::nullopt, std::nullopt}, "why here?", ""});
    writeAll(QString::fromStdString(notes::sidecarPathFor(recording.toStdString())),
             QByteArray::fromStdString(notes::serializeSidecar(sidecar)));
    const QString pdf = dir + QStringLiteral("/report.pdf");
    const Result r = cli({QStringLiteral("report"), recording, QStringLiteral("--pdf"), pdf});
    QVERIFY2(r.exitCode == 0, r.err.constData());

    // Landscape A4, and short: 388 portrait pages before, when every call was in full. What remains is the summary
    // and backtrack (2 pages), the 80-row timeline (3), a row per call in the conversation with the detailed calls'
    // messages in full (5), the five calls that matter here (the answer's call, with its whole piece and ledger,
    // about 7; the others 1 to 3 each) and the closing sections (2): 25 pages as measured. 32 leaves a quarter for
    // fonts that set wider, and no room for another call in full per page of slack.
    const QString info = testsupport::popplerOutput("pdfinfo", {pdf});
    QVERIFY2(!info.isEmpty(), "pdfinfo failed");
    QVERIFY2(info.contains(QRegularExpression(QStringLiteral(
                 "Page size:\\s+841\\.89 x 595\\.276 pts \\(A4\\)|Page size:\\s+842 x 595 pts \\(A4\\)"))),
             qPrintable(info));
    const QRegularExpressionMatch pages = QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)")).match(info);
    QVERIFY(pages.hasMatch());
    QVERIFY2(pages.captured(1).toInt() >= 5 && pages.captured(1).toInt() <= 32, qPrintable(pages.captured(1)));

    const QString text = testsupport::popplerOutput("pdftotext", {pdf, QStringLiteral("-")});
    const QString layout =
        testsupport::popplerOutput("pdftotext", {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
    QVERIFY2(!text.isEmpty() && !layout.isEmpty(), "pdftotext failed");

    // Headings keep the space between their number and their title.
    for (const char *heading : {"1 Summary", "2 Final answer and backtrack", "3 Timeline", "4 Conversation", "5 Calls",
                                "6 Gaps", "7 Bookmarks and notes", "8 How to read this report"})
        QVERIFY2(text.contains(QRegularExpression(QStringLiteral("(^|\\n)") + QString::fromLatin1(heading) +
                                                  QStringLiteral("\\n"))),
                 heading);
    QVERIFY(!text.contains(QRegularExpression(QStringLiteral("\\n\\d(Summary|Timeline|Calls|Gaps)"))));

    // No word of the timeline or the chips is split over two lines ("COLLAP" / "SED", "reusab" / "le"): a split
    // leaves both halves as words of their own in the laid-out text.
    QSet<QString> words;
    for (const QRegularExpressionMatch &m : QRegularExpression(QStringLiteral("[A-Za-z_]+")).globalMatch(layout))
        words.insert(m.captured(0));
    for (const char *known : {"COLLAPSED", "RESPONSE", "RECEIPT", "PREFIX", "LEDGER", "MARKS", "FRESH", "reusable",
                              "moved", "unknown", "tool_use", "write", "only", "returned", "Reconstructed", "verified",
                              "unmeasured", "bookmarked", "iteration"}) {
        const QString word = QString::fromLatin1(known);
        QVERIFY2(words.contains(word), known);
        for (qsizetype k = 2; k + 2 <= word.size(); ++k)
            QVERIFY2(!(words.contains(word.left(k)) && words.contains(word.mid(k))),
                     qPrintable(word.left(k) + QStringLiteral(" / ") + word.mid(k)));
    }

    // Counts agree with their nouns.
    QVERIFY(text.contains(QStringLiteral("1 note, 1 bookmark")));
    QVERIFY(text.contains(QStringLiteral("80 LLM calls")));
    const QRegularExpression wrongPlural(QStringLiteral(
        "(^|[^0-9,.])1 (notes|bookmarks|calls|rows|units|parts|messages|events|pieces|tool results)\\b"));
    QVERIFY2(!text.contains(wrongPlural), qPrintable(wrongPlural.match(text).captured(0)));

    // The calls in full are exactly the ones that matter, by the core's rule, and the PDF says why.
    const std::vector<recording::CallSummary> calls = recording::summarizeCalls(run);
    const report::CallSelection selection =
        report::selectCalls(calls, run.outcome, run.limits, report::backtrackAnswer(run), {{39}, {40}, {}, {}},
                            report::ReportDetail::Relevant);
    std::set<int> expected, detailed;
    for (std::size_t o : selection.detailedCalls())
        expected.insert(int(o + 1));
    for (const QRegularExpressionMatch &m :
         QRegularExpression(QStringLiteral("Call (\\d+) \u00B7 iteration")).globalMatch(text))
        detailed.insert(m.captured(1).toInt());
    QCOMPARE(detailed, expected);
    QVERIFY(expected.count(1) && expected.count(40) && expected.count(41) && expected.count(80));
    QVERIFY(expected.size() < 10);
    QVERIFY(text.contains(QStringLiteral("Why it is detailed").toUpper()) ||
            text.contains(QStringLiteral("Why it is detailed")));
    QVERIFY(text.contains(QStringLiteral("bookmarked")));
    // The timeline still has every call: its last row and the ones between the detailed calls.
    QVERIFY(layout.contains(QRegularExpression(QStringLiteral("\\n\\s*57\\s+21:51:26"))));
#endif
}

void TestReportCli::detailOption()
{
    // --detail relevant shortens the HTML report too; a bad value is a usage error.
    const QString out = m_dir.filePath(QStringLiteral("relevant.html"));
    QCOMPARE(cli({QStringLiteral("report"), m_recording, QStringLiteral("-o"), out, QStringLiteral("--no-notes"),
                  QStringLiteral("--detail"), QStringLiteral("relevant")})
                 .exitCode,
             0);
    const QByteArray html = readAll(out);
    const std::size_t sections = std::size_t(html.count("<section class=\"call\""));
    QVERIFY2(sections >= 2 && sections < m_calls, QByteArray::number(qulonglong(sections)).constData());
    QVERIFY(html.contains("Why it is detailed"));
    QCOMPARE(cli({QStringLiteral("report"), m_recording, QStringLiteral("-o"), out, QStringLiteral("--detail"),
                  QStringLiteral("some")})
                 .exitCode,
             2);
    QCOMPARE(cli({QStringLiteral("report"), m_recording, QStringLiteral("-o"), out, QStringLiteral("--no-notes"),
                  QStringLiteral("--detail"), QStringLiteral("all")})
                 .exitCode,
             0);
    QCOMPARE(std::size_t(readAll(out).count("<section class=\"call\"")), m_calls);
}

QTEST_APPLESS_MAIN(TestReportCli)
#include "tst_reportcli.moc"
