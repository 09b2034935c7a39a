// The report's comparison section (`report A --baseline B`, issue 19): present only with a baseline, numbered 8
// before the appendix, naming the first divergence that compare::compareRuns finds, and escaping everything the two
// recordings put in it (a hostile run compared with the plain run it was made from).

#include "core/compare/rundiff.h"
#include "core/generate/recordinggenerator.h"
#include "core/recording/recordingloader.h"
#include "core/report/htmlreport.h"
#include "core/text/utf.h"

#include "../report/hostilerecording.h"
#include "tests/core/recordingfile.h"
#include "tests/core/recordingtext.h"

#include <QFile>
#include <QTest>

#include <regex>
#include <string>

using namespace tf;
using testsupport::load;
using testsupport::readFile;

namespace {

const QString kReal = QStringLiteral(TRACEFOLD_TEST_DATA "/samples/real-9.62/");

// The comparison section's markup: from its heading to the appendix's.
std::string section(const std::string &html)
{
    const std::size_t from = html.find("<h2 id=\"comparison\"");
    const std::size_t to = html.find("<h2 id=\"appendix\"");
    if (from == std::string::npos || to == std::string::npos || to < from)
        return {};
    return html.substr(from, to - from);
}

std::size_t count(const std::string &haystack, const std::string &needle)
{
    std::size_t n = 0;
    for (std::size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1))
        ++n;
    return n;
}

} // namespace

class TestComparisonReport : public QObject
{
    Q_OBJECT

private slots:
    void onlyWithABaseline();
    void againstItself();
    void toolResultEdited();
    void hostileRunIsEscaped();
};

void TestComparisonReport::onlyWithABaseline()
{
    const auto run = load(readFile(kReal + "dev-2-conversation.json"), "run.json");
    const std::string html = report::renderHtmlReport(*run);
    QVERIFY(html.find("id=\"comparison\"") == std::string::npos);
    QVERIFY(html.find("#comparison") == std::string::npos);
    QVERIFY(html.find("<a href=\"#appendix\">8 \u00A0How to read this report</a>") != std::string::npos);
    QVERIFY(html.find("<span class=\"secno\">8</span> How to read this report") != std::string::npos);
}

void TestComparisonReport::againstItself()
{
    const std::string text = readFile(kReal + "dev-2-conversation.json");
    const auto run = load(text, "run.json");
    const auto baseline = load(text, "baseline.json");
    report::HtmlReportOptions options;
    options.baseline = baseline.get();
    const std::string html = report::renderHtmlReport(*run, options);
    QVERIFY(html.find("<a href=\"#comparison\">8 \u00A0Comparison with the baseline run</a>") != std::string::npos);
    QVERIFY(html.find("<a href=\"#appendix\">9 \u00A0How to read this report</a>") != std::string::npos);
    QVERIFY(html.find("<span class=\"secno\">9</span> How to read this report") != std::string::npos);
    const std::string s = section(html);
    QVERIFY(!s.empty());
    QVERIFY(s.find("<span class=\"secno\">8</span> Comparison with the baseline run") != std::string::npos);
    QVERIFY(s.find("class=\"verdict good\"") != std::string::npos);
    QVERIFY(s.find("Every aligned call was served the same, and the answers agree.") != std::string::npos);
    QVERIFY(s.find("<code>baseline.json</code>") != std::string::npos);
    // Seven calls served the same: one row for the stretch.
    QVERIFY(s.find("<a href=\"#call-1\">1</a>\u20137</td><td class=\"num\">1\u20137</td>") != std::string::npos);
    QCOMPARE(count(s, "<tr class=\"damaged\">"), std::size_t(0));
}

void TestComparisonReport::toolResultEdited()
{
    const std::string text = readFile(kReal + "dev-2-conversation.json");
    const auto run = load(testsupport::replaceAll(text, "Corner Bakery 64.10", "Corner Bakery 69.10"), "run.json");
    const auto baseline = load(text, "baseline.json");
    const compare::RunDiff diff = compare::compareRuns(*run, *baseline);
    QVERIFY(diff.firstDivergence && diff.firstDivergence->a && diff.firstDivergence->part &&
            diff.firstDivergence->utf16Offset);
    report::HtmlReportOptions options;
    options.baseline = baseline.get();
    const std::string html = report::renderHtmlReport(*run, options);
    const std::string s = section(html);
    QVERIFY(s.find("class=\"verdict bad\"") != std::string::npos);
    const std::string first = "The runs first went apart at <a href=\"#call-" +
                              std::to_string(*diff.firstDivergence->a + 1) + "\">call " +
                              std::to_string(*diff.firstDivergence->a + 1) + "</a> (baseline call " +
                              std::to_string(*diff.firstDivergence->b + 1) + "): <code>" + *diff.firstDivergence->part +
                              "</code> from UTF-16 offset " + std::to_string(*diff.firstDivergence->utf16Offset) + ".";
    QVERIFY2(s.find(first) != std::string::npos, first.c_str());
    // Both sides around the divergence, the differing unit marked on each.
    QVERIFY(s.find("Corner Bakery 6<span class=\"apart\">9.10") != std::string::npos);
    QVERIFY(s.find("Corner Bakery 6<span class=\"apart\">4.10") != std::string::npos);
    QVERIFY(s.find("<code>toolResults[top_merchants]</code>") != std::string::npos);
    QCOMPARE(count(s, "<tr class=\"damaged\">"), std::size_t(diff.aligned.size() - *diff.firstDivergence->a));
    // The cover points at the section.
    QVERIFY(html.find("first went apart at call " + std::to_string(*diff.firstDivergence->a + 1) +
                      " (<a href=\"#comparison\">section 8</a>)") != std::string::npos);
}

void TestComparisonReport::hostileRunIsEscaped()
{
    const std::string hostile = testing::hostileRecording();
    QVERIFY(!hostile.empty());
    const auto run = load(hostile, "run.json");
    const auto baseline = load(testsupport::generated(8, 3), "baseline</code><script>document.title='PWNED'</script>");
    report::HtmlReportOptions options;
    options.baseline = baseline.get();
    for (auto flavor : {report::HtmlReportOptions::Flavor::Browser, report::HtmlReportOptions::Flavor::QtPrint}) {
        options.flavor = flavor;
        const std::string html = report::renderHtmlReport(*run, options);
        const std::string s = section(html);
        QVERIFY(!s.empty());
        // The hostile run differs from the one it was made from, so its hostile text is in the section.
        QVERIFY(s.find("class=\"verdict bad\"") != std::string::npos);
        QVERIFY(s.find("&lt;script&gt;document.title=&#39;PWNED&#39;&lt;/script&gt;") != std::string::npos);
        QVERIFY(s.find("read_zoning&lt;img src=x onerror=&quot;document.title=&#39;PWNED&#39;&quot;&gt;") !=
                std::string::npos);
        QCOMPARE(count(html, "<script"), std::size_t(0));
        for (const char *tag : {"<img", "<svg", "<iframe", "<meta", "<style", "<math"})
            QCOMPARE(count(s, tag), std::size_t(0));
        QVERIFY(!std::regex_search(s, std::regex("<[a-zA-Z][^>]*\\son[a-z]+\\s*=")));
        QVERIFY(!std::regex_search(s, std::regex("<[a-zA-Z][^<>]*\\sid=\"pwned")));
        QCOMPARE(text::findInvalidUtf8(html), std::string::npos);
    }
}

QTEST_APPLESS_MAIN(TestComparisonReport)
#include "tst_comparisonreport.moc"
