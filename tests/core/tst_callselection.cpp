// Which calls a report details (report::selectCalls): the predicate on hand-made facts, case by case, and the report
// built with it: a section for exactly the selected calls, and every link to a call landing on an anchor.
#include "core/generate/recordinggenerator.h"
#include "core/recording/callview.h"
#include "core/recording/recordingloader.h"
#include "core/report/backtrack.h"
#include "core/report/callselection.h"
#include "core/report/htmlreport.h"
#include "core/report/notes.h"

#include <QTest>

#include <regex>
#include <set>

using namespace tf;
using report::DetailReason;

namespace {

// The facts selectCalls reads, small enough to write per case.
struct Facts
{
    std::size_t calls = 10;
    std::set<std::size_t> noResponse, damaged, toolThrew, toolNeverReturned; // 1-based call numbers, as a reader counts
    recording::OutcomeStatus status = recording::OutcomeStatus::Completed;
    std::optional<std::size_t> outcomeCall;
    std::vector<std::size_t> limitCalls;
    std::optional<std::size_t> answerCall;
    bool answered = true; // false: the backtrack names the last call, but the run never answered
    std::vector<std::optional<std::size_t>> sourceCalls, carrierCalls;
    std::set<std::size_t> bookmarks, notes, problems, divergences;
};

std::optional<std::size_t> ordinalOf(std::optional<std::size_t> number)
{
    return number ? std::optional<std::size_t>(*number - 1) : std::nullopt;
}

std::set<std::size_t> ordinalsOf(const std::set<std::size_t> &numbers)
{
    std::set<std::size_t> out;
    for (std::size_t n : numbers)
        out.insert(n - 1);
    return out;
}

report::CallSelection select(const Facts &f, report::ReportDetail detail)
{
    std::vector<recording::CallSummary> calls(f.calls);
    for (std::size_t i = 0; i < f.calls; ++i) {
        recording::CallSummary &c = calls[i];
        c.ordinal = i;
        if (!f.noResponse.count(i + 1))
            c.response = recording::CallSummary::ResponseBrief{};
        c.damaged = f.damaged.count(i + 1) != 0;
        if (f.toolThrew.count(i + 1))
            c.toolResults.push_back({"t1", "lookup_port", true, true, 5.0, false, {}, {}});
        if (f.toolNeverReturned.count(i + 1))
            c.toolResults.push_back({"t2", "search_logs", false, false, std::nullopt, false, {}, {}});
        c.toolResults.push_back(
            {"t0", "read_zoning", false, true, 3.0, false, {}, {}}); // a tool that ran fine matters nowhere
    }
    recording::RunOutcome outcome;
    outcome.status = f.status;
    outcome.call = ordinalOf(f.outcomeCall);
    std::vector<recording::RunLimit> limits;
    for (std::size_t n : f.limitCalls)
        limits.push_back({"budget_exhausted", "max-iterations: limit 3", n - 1, 0});
    report::Backtrack backtrack;
    backtrack.finalOrdinal = ordinalOf(f.answerCall);
    if (f.answered)
        backtrack.answer = "fc1/7 is flapping";
    report::BacktrackValue value;
    for (const auto &n : f.sourceCalls) {
        report::ValueSource source;
        source.enteredOrdinal = ordinalOf(n);
        value.sources.push_back(source);
    }
    backtrack.values.push_back(value);
    report::ContingentUse use;
    for (const auto &n : f.carrierCalls)
        use.carriers.push_back({"call_9", "open", ordinalOf(n), 0, std::nullopt});
    backtrack.contingent.push_back(use);
    report::CallMarks marks{ordinalsOf(f.bookmarks), ordinalsOf(f.notes), ordinalsOf(f.problems),
                            ordinalsOf(f.divergences)};
    return report::selectCalls(calls, outcome, limits, backtrack, marks, detail);
}

QList<int> numbers(const std::vector<std::size_t> &ordinals)
{
    QList<int> out;
    for (std::size_t o : ordinals)
        out << int(o + 1);
    return out;
}

std::shared_ptr<const recording::Run> generated(int calls, std::uint64_t seed)
{
    generate::GeneratorOptions options;
    options.calls = calls;
    options.seed = seed;
    auto result = recording::loadRecordingFromBytes(generate::generateRecording(options), "run.json");
    if (!result.run)
        qFatal("recording failed to load: %s", result.error.c_str());
    return result.run;
}

std::set<std::string> matches(const std::string &html, const std::regex &pattern)
{
    std::set<std::string> out;
    for (auto it = std::sregex_iterator(html.begin(), html.end(), pattern); it != std::sregex_iterator(); ++it)
        out.insert((*it)[1].str());
    return out;
}

} // namespace

Q_DECLARE_METATYPE(Facts)

class TestCallSelection : public QObject
{
    Q_OBJECT

private slots:
    void matters_data();
    void matters();
    void allDetailsEveryCallWithTheSameReasons();
    void reasonsInWords();
    void reportDetailsExactlyTheSelection_data();
    void reportDetailsExactlyTheSelection();
};

void TestCallSelection::matters_data()
{
    QTest::addColumn<Facts>("facts");
    QTest::addColumn<QList<int>>("detailed"); // 1-based
    QTest::addColumn<int>("call");            // a call whose reasons are checked exactly
    QTest::addColumn<uint>("reasons");

    Facts quiet;
    quiet.answerCall = 10;
    QTest::addRow("a quiet run: the first call and the answer, which is the last")
        << quiet << QList<int>{1, 10} << 10 << uint(report::Answer | report::LastCall);
    QTest::addRow("a quiet run's first call") << quiet << QList<int>{1, 10} << 1 << uint(report::FirstCall);

    Facts noResponse = quiet;
    noResponse.noResponse = {4};
    QTest::addRow("no response") << noResponse << QList<int>{1, 4, 10} << 4 << uint(report::NoResponse);

    Facts tools = quiet;
    tools.toolThrew = {3};
    tools.toolNeverReturned = {6};
    QTest::addRow("a tool threw") << tools << QList<int>{1, 3, 6, 10} << 3 << uint(report::ToolThrew);
    QTest::addRow("a tool never returned") << tools << QList<int>{1, 3, 6, 10} << 6 << uint(report::ToolNeverReturned);

    Facts damaged = quiet;
    damaged.damaged = {5, 7};
    QTest::addRow("damaged receipts") << damaged << QList<int>{1, 5, 7, 10} << 7 << uint(report::Damaged);

    Facts failed;
    failed.calls = 7;
    failed.status = recording::OutcomeStatus::Failed;
    failed.outcomeCall = 7;
    failed.noResponse = {7};
    QTest::addRow("the run failed at its last call")
        << failed << QList<int>{1, 7} << 7 << uint(report::RunStopped | report::NoResponse | report::LastCall);

    Facts crashed;
    crashed.calls = 3;
    crashed.status = recording::OutcomeStatus::Failed;
    crashed.outcomeCall = 3;
    crashed.noResponse = {3};
    crashed.answerCall = 3;
    crashed.answered = false;
    QTest::addRow("a crash: no answer's call")
        << crashed << QList<int>{1, 3} << 3 << uint(report::RunStopped | report::NoResponse | report::LastCall);

    Facts paused = quiet;
    paused.status = recording::OutcomeStatus::Paused;
    paused.outcomeCall = 6;
    QTest::addRow("the run paused mid-run") << paused << QList<int>{1, 6, 10} << 6 << uint(report::RunStopped);

    Facts completed = quiet;
    completed.outcomeCall = 9; // a completed run's outcome names its answering call: no problem there
    QTest::addRow("a completed outcome is no problem") << completed << QList<int>{1, 10} << 9 << 0u;

    Facts limited = quiet;
    limited.limitCalls = {5, 5};
    QTest::addRow("a limit hit") << limited << QList<int>{1, 5, 10} << 5 << uint(report::LimitHit);

    Facts reviewer = quiet;
    reviewer.bookmarks = {2, 99};
    reviewer.notes = {2, 6};
    QTest::addRow("bookmarks and notes (past the run: ignored)")
        << reviewer << QList<int>{1, 2, 6, 10} << 2 << uint(report::Bookmarked | report::Noted);

    Facts chain;
    chain.answerCall = 8; // a conversation whose last turn never answered: the answer is not the last call
    chain.sourceCalls = {2, std::nullopt, 2};
    chain.carrierCalls = {4, std::nullopt};
    QTest::addRow("the answer's chain") << chain << QList<int>{1, 2, 4, 8, 10} << 4 << uint(report::AnswerSource);
    QTest::addRow("the answer's call") << chain << QList<int>{1, 2, 4, 8, 10} << 8 << uint(report::Answer);

    Facts handedIn = quiet;
    handedIn.problems = {3};
    handedIn.divergences = {5};
    QTest::addRow("a problem list and a divergence")
        << handedIn << QList<int>{1, 3, 5, 10} << 5 << uint(report::Divergence);

    Facts one;
    one.calls = 1;
    one.answerCall = 1;
    QTest::addRow("one call") << one << QList<int>{1} << 1
                              << uint(report::FirstCall | report::LastCall | report::Answer);

    Facts none;
    none.calls = 0;
    none.bookmarks = {1};
    QTest::addRow("no call") << none << QList<int>{} << 0 << 0u;
}

void TestCallSelection::matters()
{
    QFETCH(Facts, facts);
    QFETCH(QList<int>, detailed);
    QFETCH(int, call);
    QFETCH(uint, reasons);
    const report::CallSelection s = select(facts, report::ReportDetail::Relevant);
    QCOMPARE(s.callCount(), facts.calls);
    QCOMPARE(numbers(s.detailedCalls()), detailed);
    if (call > 0) {
        QCOMPARE(s.reasons.at(std::size_t(call - 1)), reasons);
        QCOMPARE(s.detailed(std::size_t(call - 1)), reasons != 0);
    }
    QVERIFY(!s.detailed(facts.calls)); // past the run
}

void TestCallSelection::allDetailsEveryCallWithTheSameReasons()
{
    Facts f;
    f.damaged = {4};
    f.answerCall = 10;
    const report::CallSelection relevant = select(f, report::ReportDetail::Relevant);
    const report::CallSelection all = select(f, report::ReportDetail::All);
    QCOMPARE(all.detailedCalls().size(), std::size_t(10));
    QCOMPARE(all.reasons, relevant.reasons);
    QCOMPARE(numbers(relevant.detailedCalls()), (QList<int>{1, 4, 10}));
}

void TestCallSelection::reasonsInWords()
{
    const std::vector<std::string> names =
        report::detailReasonNames(report::FirstCall | report::Bookmarked | report::ToolThrew | report::Answer);
    QCOMPARE(names, (std::vector<std::string>{"a tool threw", "the answer", "bookmarked", "the first call"}));
    QVERIFY(report::detailReasonNames(0).empty());
    // Every reason has its words.
    for (unsigned bit = 1; bit <= report::Divergence; bit <<= 1)
        QCOMPARE(report::detailReasonNames(bit).size(), std::size_t(1));
}

void TestCallSelection::reportDetailsExactlyTheSelection_data()
{
    QTest::addColumn<int>("detail");
    QTest::addRow("relevant") << int(report::ReportDetail::Relevant);
    QTest::addRow("all") << int(report::ReportDetail::All);
}

void TestCallSelection::reportDetailsExactlyTheSelection()
{
    QFETCH(int, detail);
    const auto run = generated(14, 3);
    notes::Sidecar sidecar;
    sidecar.bookmarks.push_back({notes::callRefOf(run->calls[5]), ""});
    sidecar.notes.push_back(
        {{notes::TargetKind::Call, notes::callRefOf(run->calls[8]), std::nullopt, std::nullopt}, "look here", ""});
    report::HtmlReportOptions options;
    options.sidecar = &sidecar;
    options.detail = report::ReportDetail(detail);
    const std::string html = report::renderHtmlReport(*run, options);

    const std::vector<recording::CallSummary> calls = recording::summarizeCalls(*run);
    const report::CallSelection expected =
        report::selectCalls(calls, run->outcome, run->limits, report::backtrackAnswer(*run), {{5}, {8}, {}, {}},
                            report::ReportDetail(detail));
    std::set<std::string> sections;
    for (std::size_t o : expected.detailedCalls())
        sections.insert(std::to_string(o + 1));
    QCOMPARE(matches(html, std::regex("<section class=\"call\" id=\"call-([0-9]+)\"")), sections);
    if (report::ReportDetail(detail) == report::ReportDetail::Relevant) {
        QVERIFY(sections.count("6") && sections.count("9")); // the bookmark and the note
        QVERIFY(sections.size() < run->calls.size());
        QVERIFY(html.find("Why it is detailed") != std::string::npos);
        QVERIFY(html.find("bookmarked") != std::string::npos);
    }
    // In the conversation, a call not in full is one row (its link in the first cell), a call in full its messages.
    const std::size_t c = html.find("id=\"conversation\"");
    const std::string conversation = html.substr(c, html.find("id=\"calls\"") - c);
    QCOMPARE(matches(conversation, std::regex("<td width=\"10%\" class=\"small\"><a href=\"#call-([0-9]+)\"")).size(),
             run->calls.size() - sections.size());
    QCOMPARE(matches(conversation, std::regex("<a href=\"#call-([0-9]+)\">call [0-9]+</a>: [0-9]+ new message")),
             sections);
    // Every link to a call lands on an anchor: a detailed call's section, or another call's timeline row.
    const std::set<std::string> anchors = matches(html, std::regex("id=\"call-([0-9]+)\""));
    QCOMPARE(anchors.size(), run->calls.size());
    for (const std::string &target : matches(html, std::regex("href=\"#call-([0-9]+)\"")))
        QVERIFY2(anchors.count(target), target.c_str());
    // The timeline keeps one row per call.
    const std::size_t t = html.find("class=\"timeline\"");
    const std::string timeline = html.substr(t, html.find("</table>", t) - t);
    std::size_t rows = 0;
    for (std::size_t at = timeline.find("<tr"); at != std::string::npos; at = timeline.find("<tr", at + 1))
        ++rows;
    QCOMPARE(rows, run->calls.size() + 1); // and the header
}

QTEST_APPLESS_MAIN(TestCallSelection)
#include "tst_callselection.moc"
