#include "core/generate/recordinggenerator.h"
#include "core/recording/callview.h"
#include "core/recording/recordingloader.h"
#include "core/report/htmlescape.h"
#include "core/report/htmlreport.h"
#include "core/report/notes.h"
#include "core/text/utf.h"

#include "../report/hostilerecording.h"

#include <QTest>

#include <regex>

using namespace tf;

namespace {

std::shared_ptr<const recording::Run> loadBytes(const std::string &bytes, const std::string &name = "run.json")
{
    auto result = recording::loadRecordingFromBytes(bytes, name);
    if (!result.run)
        qFatal("recording failed to load: %s", result.error.c_str());
    return result.run;
}

std::shared_ptr<const recording::Run> generated(int calls, std::uint64_t seed, generate::Damage damage = {})
{
    generate::GeneratorOptions options;
    options.calls = calls;
    options.seed = seed;
    options.damage = damage;
    return loadBytes(generate::generateRecording(options));
}

std::size_t count(const std::string &haystack, const std::string &needle)
{
    std::size_t n = 0;
    for (std::size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1))
        ++n;
    return n;
}

// The text between <body> and </body>: the stylesheet legitimately holds characters like '>' and quotes.
std::string body(const std::string &html)
{
    const std::size_t b = html.find("<body>");
    const std::size_t e = html.rfind("</body>");
    return html.substr(b, e - b);
}

} // namespace

class TestHtmlReport : public QObject
{
    Q_OBJECT

private slots:
    void escapesText_data();
    void escapesText();
    void escapedOutputHasNoMarkupCharacters();
    void selfContainedDocument();
    void everyCallHasItsSection();
    void pieceBucketsAndOverflowNotes();
    void collapsedResultsAndVerification();
    void damagedCallIsFlagged();
    void notesAndOrphans();
    void hostileRecordingIsInert();
    void deterministic();
    void printFlavorUsesPrintStylesheet();
};

void TestHtmlReport::escapesText_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("plain") << QByteArray("fc1/7 is up") << QByteArray("fc1/7 is up");
    QTest::newRow("five-specials") << QByteArray("<a href=\"x\">&'")
                                   << QByteArray("&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
    QTest::newRow("script") << QByteArray("<script>alert(1)</script>")
                            << QByteArray("&lt;script&gt;alert(1)&lt;/script&gt;");
    QTest::newRow("lone-high-surrogate") << QByteArray("a\xED\xA0\x80z") << QByteArray("a\xEF\xBF\xBDz");
    QTest::newRow("lone-low-surrogate") << QByteArray("\xED\xBF\xBF") << QByteArray("\xEF\xBF\xBD");
    QTest::newRow("astral-kept") << QByteArray("\xF0\x9F\x98\x80") << QByteArray("\xF0\x9F\x98\x80");
    QTest::newRow("nul-as-control-picture") << QByteArray("port\0fc1", 8)
                                            << QByteArray("port\xE2\x90\x80"
                                                          "fc1");
    QTest::newRow("del") << QByteArray("\x7F") << QByteArray("\xE2\x90\xA1");
    QTest::newRow("tab-newline-kept") << QByteArray("a\tb\nc") << QByteArray("a\tb\nc");
    QTest::newRow("line-separator") << QByteArray("a\xE2\x80\xA8"
                                                  "b")
                                    << QByteArray("a&#x2028;b");
    QTest::newRow("paragraph-separator") << QByteArray("\xE2\x80\xA9") << QByteArray("&#x2029;");
    QTest::newRow("bidi-override") << QByteArray("\xE2\x80\xAE"
                                                 "evil")
                                   << QByteArray("&lt;U+202E&gt;evil");
    QTest::newRow("bidi-isolate") << QByteArray("\xE2\x81\xA6") << QByteArray("&lt;U+2066&gt;");
    QTest::newRow("invalid-byte") << QByteArray("a\xFF"
                                                "b")
                                  << QByteArray("a\xEF\xBF\xBD"
                                                "b");
    QTest::newRow("truncated-sequence") << QByteArray("a\xE2\x80") << QByteArray("a\xEF\xBF\xBD\xEF\xBF\xBD");
    QTest::newRow("overlong") << QByteArray("\xC0\xBC") << QByteArray("\xEF\xBF\xBD\xEF\xBF\xBD");
}

void TestHtmlReport::escapesText()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, expected);
    const std::string out = report::escapeHtml(std::string_view(input.constData(), std::size_t(input.size())));
    QCOMPARE(QByteArray::fromStdString(out), expected);
    QCOMPARE(text::findInvalidUtf8(out), std::string::npos);
}

void TestHtmlReport::escapedOutputHasNoMarkupCharacters()
{
    // Every byte value, in pseudo-random strings: the output is strict UTF-8 with no raw markup character.
    std::uint64_t x = 88172645463325252ULL;
    for (int round = 0; round < 2000; ++round) {
        std::string input;
        for (int i = 0; i < 24; ++i) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            input += char(x & 0xFF);
        }
        const std::string out = report::escapeHtml(input);
        QCOMPARE(out.find_first_of("<>\"'"), std::string::npos);
        QCOMPARE(text::findInvalidUtf8(out), std::string::npos);
    }
    // The UTF-16 entry point agrees with the WTF-8 one, lone surrogate included.
    const std::u16string u = {u'<', 0xD800, u'x'};
    QCOMPARE(report::escapeHtml(u), std::string("&lt;\xEF\xBF\xBDx"));
}

void TestHtmlReport::selfContainedDocument()
{
    const auto run = generated(6, 4);
    const std::string html = report::renderHtmlReport(*run);
    QVERIFY(html.rfind("<!DOCTYPE html>", 0) == 0);
    QVERIFY(html.find("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
                      "'unsafe-inline'; img-src data:") != std::string::npos);
    QCOMPARE(count(html, "<script"), std::size_t(0));
    QCOMPARE(count(html, "<link"), std::size_t(0));
    QCOMPARE(count(html, "src="), std::size_t(0));
    QCOMPARE(count(html, "url("), std::size_t(0));
    QCOMPARE(count(html, "http://"), std::size_t(0));
    QCOMPARE(count(html, "https://"), std::size_t(0));
    QCOMPARE(count(html, "<style>"), std::size_t(1));
    // Only fragment links: nothing navigates away.
    const std::regex href("<[a-zA-Z][^<>]*\\shref=\"([^\"]*)\"");
    for (auto it = std::sregex_iterator(html.begin(), html.end(), href); it != std::sregex_iterator(); ++it)
        QVERIFY2((*it)[1].str().rfind('#', 0) == 0, (*it)[1].str().c_str());
    QCOMPARE(text::findInvalidUtf8(html), std::string::npos);
    QVERIFY(html.find(run->runId) != std::string::npos);
    for (const char *section : {"id=\"summary\"", "id=\"answer\"", "id=\"timeline\"", "id=\"calls\"", "id=\"gaps\"",
                                "id=\"notes\"", "id=\"appendix\""})
        QVERIFY2(html.find(section) != std::string::npos, section);
}

void TestHtmlReport::everyCallHasItsSection()
{
    const auto run = generated(14, 7);
    const std::string html = report::renderHtmlReport(*run);
    for (std::size_t i = 1; i <= run->calls.size(); ++i) {
        const std::string anchor = "id=\"call-" + std::to_string(i) + "\"";
        QCOMPARE(count(html, anchor), std::size_t(1));
        QVERIFY(html.find("href=\"#call-" + std::to_string(i) + "\"") != std::string::npos);
    }
    // The timeline has one body row per call, each with its cache verdict.
    const std::size_t timeline = html.find("class=\"timeline\"");
    const std::size_t end = html.find("</table>", timeline);
    const std::string table = html.substr(timeline, end - timeline);
    QCOMPARE(count(table, "<tr"), run->calls.size() + 1);
    QCOMPARE(count(table, "class=\"chip v-"), run->calls.size());
    QVERIFY(table.find("v-hit") != std::string::npos);        // the generator's re-asks read the prefix from cache
    QVERIFY(table.find("v-write-only") != std::string::npos); // and the other calls write it
    QVERIFY(html.find("Cache hit rate") != std::string::npos);
}

void TestHtmlReport::pieceBucketsAndOverflowNotes()
{
    const auto run = generated(30, 2);
    const std::string html = report::renderHtmlReport(*run);
    for (const char *heading : {"facts (declared by the model):", "limitations (declared by the model):",
                                "evidenceRefs (declared by the model):", "nextSteps (declared by the model):",
                                "unsettled by absence (read off the record):", "contingent (read off the record):"})
        QVERIFY2(html.find(heading) != std::string::npos, heading);
    QVERIFY(html.find("class=\"mdl\"") != std::string::npos);
    QVERIFY(html.find("noise (declared by the model): ") != std::string::npos);
    QVERIFY(html.find("undeclared: ") != std::string::npos);
    // The header is named per call and quoted once, in the appendix.
    QVERIFY(html.find("[fixed header: 6 lines, 757 units, short meanings table") != std::string::npos);
    QCOMPARE(count(html, "Field meanings from the application context contract"), std::size_t(1));

    // A long ruled-out line gets the clip note; a +K more line shows its hidden count. Build the view's own numbers.
    bool sawClip = false, sawMore = false;
    for (std::size_t i = 0; i < run->calls.size(); ++i) {
        const auto view = recording::buildCallView(*run, i);
        if (!view.piece)
            continue;
        for (const auto &s : view.piece->sections)
            for (const auto &l : s.lines) {
                sawClip = sawClip || l.clippedUnits > 0;
                sawMore = sawMore || l.kind == findings::LineKind::More;
            }
    }
    if (sawClip)
        QVERIFY(html.find("class=\"ovf\"") != std::string::npos);
    if (sawMore)
        QVERIFY(html.find(" hidden</span>") != std::string::npos);
}

void TestHtmlReport::collapsedResultsAndVerification()
{
    const auto run = generated(14, 7);
    const std::string html = report::renderHtmlReport(*run);
    QVERIFY(html.find("Collapsed results") != std::string::npos);
    QVERIFY(html.find("{&quot;collapsed&quot;:true,&quot;standing&quot;:") != std::string::npos);
    QVERIFY(html.find("Receipt verification") != std::string::npos);
    QVERIFY(html.find("parts verified") != std::string::npos);
    QVERIFY(html.find("Every rebuilt part that a receipt hashes matched its hash") != std::string::npos);
    QVERIFY(html.find("cache-transform") != std::string::npos); // the gaps, with what they mean
    QVERIFY(html.find("id=\"gaps\"") != std::string::npos);
    // The backtrack: the generated answer quotes no fact value and one contingent value.
    QVERIFY(html.find("The answer uses no fact value") != std::string::npos);
    QVERIFY(html.find("replace the optic") != std::string::npos);
}

void TestHtmlReport::damagedCallIsFlagged()
{
    const auto run = generated(9, 5, {generate::Damage::Kind::MessageByte, 5});
    const std::string html = report::renderHtmlReport(*run);
    QVERIFY(html.find("The record contradicts itself") != std::string::npos);
    QVERIFY(html.find("class=\"chip b-damaged\">Damaged</span>") != std::string::npos);
    QVERIFY(html.find("callhead damaged") != std::string::npos);
}

void TestHtmlReport::notesAndOrphans()
{
    const auto run = generated(6, 4);
    notes::Sidecar sidecar;
    sidecar.recording = notes::identityOf(*run);
    const notes::CallRef call3 = notes::callRefOf(run->calls[2]);
    sidecar.bookmarks.push_back({call3, "2025-01-01T00:00:00Z"});
    sidecar.notes.push_back(
        {{notes::TargetKind::Call, call3, std::nullopt, std::nullopt}, "Check this <b>call</b>", ""});
    sidecar.notes.push_back(
        {{notes::TargetKind::LedgerRow, call3, std::size_t(0), std::nullopt}, "the first row matters", ""});
    sidecar.notes.push_back({{notes::TargetKind::Call, {99, "call-llm#999"}, std::nullopt, std::nullopt},
                             "written on a call that is gone",
                             ""});
    report::HtmlReportOptions options;
    options.sidecar = &sidecar;
    const std::string html = report::renderHtmlReport(*run, options);
    QVERIFY(html.find("Check this &lt;b&gt;call&lt;/b&gt;") != std::string::npos);
    QVERIFY(html.find("Note on ledger row #0") != std::string::npos);
    QVERIFY(html.find("the first row matters") != std::string::npos);
    QVERIFY(html.find("written on a call that is gone") != std::string::npos);
    QVERIFY(html.find(">Orphaned</span>") != std::string::npos);
    QVERIFY(html.find("call 99 (call-llm#999) is not in this recording") != std::string::npos);
    QVERIFY(html.find("\u2605 bookmarked") != std::string::npos);
    // The notes show inside call 3's section too, not only in the list.
    const std::size_t section = html.find("id=\"call-3\"");
    const std::size_t next = html.find("id=\"call-4\"");
    QVERIFY(html.substr(section, next - section).find("Check this &lt;b&gt;call") != std::string::npos);
}

void TestHtmlReport::hostileRecordingIsInert()
{
    const std::string bytes = testing::hostileRecording();
    QVERIFY(!bytes.empty());
    const auto run = loadBytes(bytes);
    notes::Sidecar sidecar;
    sidecar.notes.push_back({{notes::TargetKind::Call, notes::callRefOf(run->calls[1]), std::nullopt, std::nullopt},
                             testing::hostileBlob(),
                             "<script>document.title='PWNED'</script>"});
    sidecar.notes.push_back(
        {{notes::TargetKind::Call, {7, "</table><script>document.title='PWNED'</script>"}, std::nullopt, std::nullopt},
         testing::hostileBlob(),
         ""});
    report::HtmlReportOptions options;
    options.sidecar = &sidecar;
    // Both stylesheets, and the PDF's selection of calls (its list of why each call is there) with the browser's.
    for (auto [flavor, detail] :
         {std::pair{report::HtmlReportOptions::Flavor::Browser, report::ReportDetail::All},
          std::pair{report::HtmlReportOptions::Flavor::QtPrint, report::ReportDetail::All},
          std::pair{report::HtmlReportOptions::Flavor::QtPrint, report::ReportDetail::Relevant}}) {
        options.flavor = flavor;
        options.detail = detail;
        const std::string html = report::renderHtmlReport(*run, options);
        const std::string b = body(html);
        QCOMPARE(count(html, "<script"), std::size_t(0));
        QCOMPARE(count(b, "<img"), std::size_t(0));
        QCOMPARE(count(b, "<svg"), std::size_t(0));
        QCOMPARE(count(b, "<iframe"), std::size_t(0));
        QCOMPARE(count(b, "<meta"), std::size_t(0));
        QCOMPARE(count(b, "<style"), std::size_t(0));
        QCOMPARE(count(b, "<math"), std::size_t(0));
        QVERIFY(b.find("\"javascript:") == std::string::npos); // only as escaped text: &quot;javascript:
        QVERIFY(b.find("&quot;javascript:") != std::string::npos);
        QVERIFY(!std::regex_search(b, std::regex("<[a-zA-Z][^>]*\\son[a-z]+\\s*=")));
        QVERIFY(!std::regex_search(b, std::regex("href=\"javascript")));
        QVERIFY(!std::regex_search(b, std::regex("<[a-zA-Z][^<>]*\\sid=\"pwned")));
        QVERIFY(b.find("&lt;script&gt;document.title=&#39;PWNED&#39;&lt;/script&gt;") != std::string::npos);
        QVERIFY(b.find("&lt;img src=x onerror=&quot;document.title=&#39;PWNED&#39;&quot;&gt;") != std::string::npos);
        QVERIFY(b.find("&#x2028;") != std::string::npos);
        QVERIFY(b.find("&lt;U+202E&gt;") != std::string::npos);
        QVERIFY(b.find("lone \xEF\xBF\xBD surrogate") != std::string::npos);
        QCOMPARE(text::findInvalidUtf8(html), std::string::npos);
        // The title is the report's own.
        QVERIFY(html.find("<title>Tracefold report \u2014 " + run->runId + "</title>") != std::string::npos);
    }
}

void TestHtmlReport::deterministic()
{
    const auto run = generated(8, 11);
    QCOMPARE(report::renderHtmlReport(*run), report::renderHtmlReport(*run));
    report::HtmlReportOptions options;
    options.generatedAt = "2025-02-03T04:05:06Z";
    QVERIFY(report::renderHtmlReport(*run, options).find("2025-02-03T04:05:06Z") != std::string::npos);
}

void TestHtmlReport::printFlavorUsesPrintStylesheet()
{
    const auto run = generated(3, 1);
    report::HtmlReportOptions options;
    options.flavor = report::HtmlReportOptions::Flavor::QtPrint;
    const std::string print = report::renderHtmlReport(*run, options);
    const std::string browser = report::renderHtmlReport(*run);
    QVERIFY(print.find("font-family: \"DejaVu Sans\"; font-size: 8pt") != std::string::npos);
    QVERIFY(print.find("box-shadow") == std::string::npos);
    QVERIFY(browser.find("box-shadow") != std::string::npos);
    // Same markup: only the stylesheet differs.
    QCOMPARE(body(print), body(browser));
}

QTEST_APPLESS_MAIN(TestHtmlReport)
#include "tst_htmlreport.moc"
