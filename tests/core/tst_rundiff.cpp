// Comparing two runs (issue 19, core/compare): real recordings against edited copies of themselves. An edit names
// the text it replaces; the test finds, in run A's own rebuilt views, the first call and message that served that
// text and the UTF-16 unit where the edit starts, and expects the comparison to name exactly that call, part and
// unit as the first divergence. The alignment is checked row by row.

#include "tests/core/recordingfile.h"
#include "tests/core/recordingtext.h"

#include "core/compare/callalignment.h"
#include "core/compare/rundiff.h"
#include "core/compare/servedcontextdiff.h"
#include "core/compare/worddiff.h"
#include "core/json/writer.h"
#include "core/receipt/partnames.h"
#include "core/recording/recordingloader.h"
#include "core/text/utf.h"

#include <QFile>
#include <QTest>

#include <algorithm>

#include <optional>
#include <string>

using namespace tf;
using testsupport::load;
using testsupport::readFile;
using testsupport::withIterationRepeated;

namespace {

const QString kReal = QStringLiteral(TRACEFOLD_TEST_DATA "/samples/real-9.62/");
const QString kSamples = QStringLiteral(TRACEFOLD_TEST_DATA "/samples/");

// The first call of `run` and the message in it whose JSON holds `needle`, and the UTF-16 unit in that message
// where an edit of `needle` into `replacement` starts.
struct Served
{
    std::size_t call = 0;
    std::string part;
    std::size_t utf16Offset = 0;
};
std::optional<Served> firstServed(const recording::Run &run, const std::string &needle, const std::string &replacement)
{
    std::size_t common = 0;
    while (common < needle.size() && common < replacement.size() && needle[common] == replacement[common])
        ++common;
    for (std::size_t i = 0; i < run.calls.size(); ++i) {
        const recording::CallView view = recording::buildCallView(run, i);
        for (std::size_t m = 0; m < view.asSent.size(); ++m) {
            const std::string text = json::stringify(view.asSent.at(m));
            const std::size_t at = text.find(needle);
            if (at != std::string::npos)
                return Served{i, receipt::messagePart(m),
                              text::lengthU16(std::string_view(text).substr(0, at + common))};
        }
    }
    return std::nullopt;
}

} // namespace

class TestRunDiff : public QObject
{
    Q_OBJECT

private slots:
    void firstDifference_data();
    void firstDifference();
    void alignment_data();
    void alignment();
    void itself_data();
    void itself();
    void otherSalt();
    void editedCopy_data();
    void editedCopy();
    void callAdded_data();
    void callAdded();
    void answers();
    void ledgerAndPiece();
    void partsOnRecordInOneRunOnly();
};

void TestRunDiff::firstDifference_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<int>("offset"); // -1: equal
    QTest::newRow("equal") << "same text"
                           << "same text" << -1;
    QTest::newRow("ascii") << "abcdef"
                           << "abcxef" << 3;
    QTest::newRow("a-is-prefix") << "abc"
                                 << "abcd" << 3;
    QTest::newRow("b-is-prefix") << "abcd"
                                 << "ab" << 2;
    QTest::newRow("after-two-byte-char") << QStringLiteral("é-x") << QStringLiteral("é-y") << 2;
    // The first difference inside a code point counts from its start: é (C3 A9) and è (C3 A8) share a lead byte.
    QTest::newRow("inside-a-code-point") << QStringLiteral("aé") << QStringLiteral("aè") << 1;
    // A pair is two UTF-16 units.
    QTest::newRow("after-surrogate-pair") << QStringLiteral("😀a") << QStringLiteral("😀b") << 2;
    QTest::newRow("empty-against-text") << ""
                                        << "x" << 0;
}

void TestRunDiff::firstDifference()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(int, offset);
    const auto got = compare::firstDifferenceU16(a.toStdString(), b.toStdString());
    QCOMPARE(got.has_value(), offset >= 0);
    if (got)
        QCOMPARE(int(*got), offset);
}

void TestRunDiff::alignment_data()
{
    // Each call is a letter (its signature); turns are separated by '|'. The expected rows are "a:b" with 1-based
    // indices across the run and '-' for a gap.
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<QString>("rows");
    QTest::newRow("same") << "abc"
                          << "abc"
                          << "1:1 2:2 3:3";
    QTest::newRow("call-added-in-b") << "abc"
                                     << "abxc"
                                     << "1:1 2:2 -:3 3:4";
    QTest::newRow("call-missing-in-b") << "abxc"
                                       << "abc"
                                       << "1:1 2:2 3:- 4:3";
    QTest::newRow("one-step-gone-another-way") << "abc"
                                               << "axc"
                                               << "1:1 2:2 3:3";
    QTest::newRow("two-calls-for-one") << "abc"
                                       << "axyc"
                                       << "1:1 2:- -:2 -:3 3:4";
    QTest::newRow("by-turn-first") << "ab|cd"
                                   << "a|bcd"
                                   << "1:1 2:- -:2 3:3 4:4";
    QTest::newRow("turn-only-in-a") << "ab|c"
                                    << "ab"
                                    << "1:1 2:2 3:-";
    QTest::newRow("empty-b") << "ab"
                             << ""
                             << "1:- 2:-";
    QTest::newRow("both-empty") << ""
                                << ""
                                << "";
}

void TestRunDiff::alignment()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(QString, rows);
    const auto keys = [](const QString &calls) {
        std::vector<compare::AlignmentKey> out;
        std::size_t turn = 0;
        for (QChar c : calls) {
            if (c == QLatin1Char('|'))
                ++turn;
            else
                out.push_back({turn, std::string(1, char(c.unicode()))});
        }
        return out;
    };
    QStringList got;
    for (const compare::AlignedPair &p : compare::alignCalls(keys(a), keys(b)))
        got << (p.a ? QString::number(*p.a + 1) : QStringLiteral("-")) + QLatin1Char(':') +
                   (p.b ? QString::number(*p.b + 1) : QStringLiteral("-"));
    QCOMPARE(got.join(QLatin1Char(' ')), rows);
}

void TestRunDiff::itself_data()
{
    QTest::addColumn<QString>("path");
    for (const char *name : {"dev-1-research.json", "dev-2-conversation.json", "dev-3-tool-errors.json",
                             "dev-4-crash.json", "dev-5-envelope.json", "dev-6-events.ndjson",
                             "dev-7-paused-or-limited.json", "dev-7b-resumed.json", "dev-8-max-iterations.json"})
        QTest::newRow(name) << kReal + QLatin1String(name);
    for (const char *name : {"agentfootprint-demo-turn.json", "agentfootprint-reference-agent-findings.json",
                             "lens-skill-route-refusal.json", "lens-tool-progress-turn.json"})
        QTest::newRow(name) << kSamples + QLatin1String(name);
}

void TestRunDiff::itself()
{
    QFETCH(QString, path);
    const std::string text = readFile(path);
    const auto a = load(text, "a.json");
    const auto b = load(text, "b.json");
    QVERIFY(!a->calls.empty());
    const compare::RunDiff diff = compare::compareRuns(*a, *b);
    QCOMPARE(diff.aligned.size(), a->calls.size());
    for (std::size_t i = 0; i < diff.aligned.size(); ++i) {
        QCOMPARE(diff.aligned[i].a, std::optional<std::size_t>(i));
        QCOMPARE(diff.aligned[i].b, std::optional<std::size_t>(i));
        QVERIFY2(diff.aligned[i].same && diff.aligned[i].parts.empty(),
                 diff.aligned[i].parts.empty() ? "" : diff.aligned[i].parts.front().c_str());
    }
    QVERIFY(!diff.firstDivergence);
    QVERIFY(diff.answersSame);
    QVERIFY(diff.same());
}

// The receipts' salt is the run id: a copy under another run id has receipts that no longer verify, yet it was sent
// the same bytes, and the comparison says so.
void TestRunDiff::otherSalt()
{
    const std::string text = testsupport::generated(24, 5);
    const auto a = load(text, "a.json");
    std::size_t replaced = 0;
    const auto b = load(testsupport::replaceAll(text, a->runId, "run-1787999999999-7", &replaced), "b.json");
    QVERIFY(replaced > 10);
    QVERIFY(!a->runId.empty() && b->runId != a->runId);
    QVERIFY(!recording::buildCallView(*a, 3).damaged);
    QVERIFY(recording::buildCallView(*b, 3).damaged); // the hashes are salted with the other id
    const compare::RunDiff diff = compare::compareRuns(*a, *b);
    QVERIFY(!diff.firstDivergence);
    QVERIFY(diff.same());
    QCOMPARE(diff.aligned.size(), a->calls.size());
}

void TestRunDiff::editedCopy_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("changedTool"); // the tool whose result changed; empty: a prompt
    QTest::newRow("tool-result-dev-2") << kReal + "dev-2-conversation.json"
                                       << "Corner Bakery 64.10"
                                       << "Corner Bakery 69.10"
                                       << "top_merchants";
    QTest::newRow("tool-result-dev-3") << kReal + "dev-3-tool-errors.json"
                                       << "v2.14.1 rolled back Tue"
                                       << "v2.14.1 rolled back Wed"
                                       << "recent_deploys";
    QTest::newRow("tool-result-dev-1") << kReal + "dev-1-research.json"
                                       << "Larval supply limits recovery after mass bleaching"
                                       << "Larval supply limits recovery after mass heatwaves"
                                       << "search_literature";
    // Turn 2 of 4 of a conversation: calls of turn 1 are served the same, every later call carries the new prompt.
    QTest::newRow("user-prompt-turn-2-dev-2") << kReal + "dev-2-conversation.json"
                                              << "How does that compare with February"
                                              << "How does that compare with January"
                                              << "";
    QTest::newRow("user-prompt-turn-4-dev-2") << kReal + "dev-2-conversation.json"
                                              << "OK, set an alert at 400 euros"
                                              << "OK, set an alert at 450 euros"
                                              << "";
}

void TestRunDiff::editedCopy()
{
    QFETCH(QString, path);
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, changedTool);
    const std::string text = readFile(path);
    std::size_t replaced = 0;
    const std::string edited = testsupport::replaceAll(text, from.toStdString(), to.toStdString(), &replaced);
    QVERIFY(replaced > 0);
    const auto a = load(text, "a.json");
    const auto b = load(edited, "b.json");
    const std::optional<Served> served = firstServed(*a, from.toStdString(), to.toStdString());
    QVERIFY(served);

    const compare::RunDiff diff = compare::compareRuns(*a, *b);
    // The edit changes no call's signature: the calls pair one to one.
    QCOMPARE(diff.aligned.size(), a->calls.size());
    for (std::size_t i = 0; i < diff.aligned.size(); ++i) {
        QCOMPARE(diff.aligned[i].a, std::optional<std::size_t>(i));
        QCOMPARE(diff.aligned[i].b, std::optional<std::size_t>(i));
        // Before the edited text was served, every call was served the same.
        QCOMPARE(diff.aligned[i].same, i < served->call);
    }
    QVERIFY(diff.firstDivergence);
    QCOMPARE(diff.firstDivergence->a, std::optional<std::size_t>(served->call));
    QCOMPARE(diff.firstDivergence->b, std::optional<std::size_t>(served->call));
    QCOMPARE(diff.firstDivergence->part, std::optional<std::string>(served->part));
    QCOMPARE(diff.firstDivergence->utf16Offset, std::optional<std::size_t>(served->utf16Offset));
    QVERIFY(diff.firstDivergencePair);
    QCOMPARE(diff.firstDivergencePair->served.front().name, served->part);
    QVERIFY(diff.firstDivergencePair->firstPartA.find(from.toStdString()) != std::string::npos);
    QVERIFY(diff.firstDivergencePair->firstPartB.find(to.toStdString()) != std::string::npos);
    QVERIFY(!diff.same());

    if (!changedTool.isEmpty()) {
        // The call whose response ran the tool was served the same; its tool result differs, by tool and arguments.
        const std::string part = "toolResults[" + changedTool.toStdString() + "]";
        std::optional<std::size_t> ran;
        for (std::size_t i = 0; i < diff.aligned.size() && !ran; ++i)
            for (const std::string &p : diff.aligned[i].parts)
                if (p == part)
                    ran = i;
        QVERIFY2(ran, part.c_str());
        QVERIFY(*ran < served->call);
        QVERIFY(diff.aligned[*ran].same);
        const compare::PairDiff pair = compare::comparePair(*a, *ran, *b, *ran);
        QVERIFY(pair.servedSame());
        QCOMPARE(pair.toolResults.size(), std::size_t(1));
        QCOMPARE(pair.toolResults.front().name, changedTool.toStdString());
        QVERIFY(pair.toolResults.front().a && pair.toolResults.front().b);
        QVERIFY(pair.toolResults.front().a->find(from.toStdString()) != std::string::npos);
        QVERIFY(pair.toolResults.front().utf16Offset);
    }
}

void TestRunDiff::callAdded_data()
{
    QTest::addColumn<bool>("addedInB");
    QTest::newRow("call-added-in-b") << true;
    QTest::newRow("call-missing-in-b") << false;
}

// An events-only run (NDJSON) whose second iteration is on record twice: one call more, served what the one before
// it was served. The extra call is a gap, and the calls after it pair with their own again.
void TestRunDiff::callAdded()
{
    QFETCH(bool, addedInB);
    const std::string text = readFile(kReal + "dev-6-events.ndjson");
    const std::string added = withIterationRepeated(text, 2);
    const auto plain = load(text, "plain.ndjson");
    const auto more = load(added, "added.ndjson");
    QCOMPARE(more->calls.size(), plain->calls.size() + 1);
    const compare::RunDiff diff = addedInB ? compare::compareRuns(*plain, *more) : compare::compareRuns(*more, *plain);
    QCOMPARE(diff.aligned.size(), more->calls.size());
    for (std::size_t row = 0; row < diff.aligned.size(); ++row) {
        const compare::AlignedCall &c = diff.aligned[row];
        const std::optional<std::size_t> inPlain = row < 2    ? std::optional<std::size_t>(row)
                                                   : row == 2 ? std::nullopt
                                                              : std::optional<std::size_t>(row - 1);
        QCOMPARE(addedInB ? c.a : c.b, inPlain);
        QCOMPARE(addedInB ? c.b : c.a, std::optional<std::size_t>(row));
        QCOMPARE(c.same, row != 2);
    }
    QVERIFY(diff.firstDivergence);
    QCOMPARE(addedInB ? diff.firstDivergence->b : diff.firstDivergence->a, std::optional<std::size_t>(2));
    QCOMPARE(addedInB ? diff.firstDivergence->a : diff.firstDivergence->b, std::optional<std::size_t>());
    QVERIFY(!diff.firstDivergence->part);
    QVERIFY(!diff.firstDivergencePair);
    QVERIFY(diff.answersSame);
    QVERIFY(!diff.same());
}

// The final answers of dev-2 with one word changed: they differ, word by word, at that word only.
void TestRunDiff::answers()
{
    const std::string text = readFile(kReal + "dev-2-conversation.json");
    const auto a = load(text, "a.json");
    QVERIFY(a->finalAnswer);
    const std::string answer = *a->finalAnswer;
    const std::size_t at = answer.find("400");
    QVERIFY(at != std::string::npos);
    std::string changed = answer;
    changed.replace(at, 3, "450");
    const auto b = load(testsupport::replaceAll(text, answer, changed), "b.json");
    const compare::RunDiff diff = compare::compareRuns(*a, *b);
    QVERIFY(!diff.answersSame);
    QCOMPARE(diff.answerB, std::optional<std::string>(changed));
    QStringList edits;
    for (const text::DiffLine &w : diff.answerWords)
        if (w.op != text::DiffLine::Op::Same)
            edits << (w.op == text::DiffLine::Op::Removed ? "-" : "+") + QString::fromStdString(w.text);
    QCOMPARE(edits, QStringList({QStringLiteral("-400"), QStringLiteral("+450")}));
    QVERIFY(!diff.same());
    QCOMPARE(compare::wordDiff("a b", "a b").size(), std::size_t(2));
}

// A generated run and its copy with one character of a ledger row changed (the generator's piece damage, aimed at
// call 20): the first divergence is the findings piece of that call, and the pair shows the row on each side and the
// piece's one changed line.
void TestRunDiff::ledgerAndPiece()
{
    generate::GeneratorOptions options;
    options.calls = 40;
    options.seed = 5;
    const auto a = load(generate::generateRecording(options), "a.json");
    options.damage.kind = generate::Damage::Kind::PieceRow;
    options.damage.call = 20;
    const auto b = load(generate::generateRecording(options), "b.json");

    const compare::RunDiff diff = compare::compareRuns(*a, *b);
    QVERIFY(diff.firstDivergence && diff.firstDivergencePair);
    const std::size_t call = *diff.firstDivergence->a;
    QCOMPARE(diff.firstDivergence->b, std::optional<std::size_t>(call));
    QCOMPARE(int(a->calls[call].epoch), 20);
    const recording::CallView view = recording::buildCallView(*a, call);
    std::optional<std::size_t> findingsPiece;
    for (std::size_t k = 0; k < view.systemPieces.size(); ++k)
        if (view.systemPieces[k].source == "findings")
            findingsPiece = k;
    QVERIFY(findingsPiece);
    QCOMPARE(diff.firstDivergence->part, std::optional<std::string>(receipt::systemPiecePart(*findingsPiece)));
    QVERIFY(diff.firstDivergence->utf16Offset);
    QVERIFY(*diff.firstDivergence->utf16Offset < text::lengthU16(view.systemPieces[*findingsPiece].text));
    for (std::size_t i = 0; i < call; ++i)
        QVERIFY(diff.aligned[i].same);
    QVERIFY(std::find(diff.aligned[call].parts.begin(), diff.aligned[call].parts.end(), "ledger") !=
            diff.aligned[call].parts.end());

    const compare::PairDiff &pair = *diff.firstDivergencePair;
    QCOMPARE(pair.ledger.onlyInA.size(), std::size_t(1));
    QCOMPARE(pair.ledger.onlyInB.size(), std::size_t(1));
    QCOMPARE(pair.ledger.onlyInA.front().index, pair.ledger.onlyInB.front().index);
    const text::DiffStats lines = text::diffStats(pair.pieceLines);
    QCOMPARE(lines.removed, 1);
    QCOMPARE(lines.added, 1);
    QVERIFY(pair.toolResults.empty());
    QVERIFY(!pair.responseTextOffset);
    QVERIFY(pair.toolCallsSame);
}

// dev-7 paused for a human; dev-7b is the run resumed, whose recording holds the tool schemas by name only. The two
// calls both made are not proven the same (their schemas are on record in dev-7 only), and that is no divergence
// either: the first divergence is the call only the resumed run made.
void TestRunDiff::partsOnRecordInOneRunOnly()
{
    const auto a = load(readFile(kReal + "dev-7-paused-or-limited.json"), "a.json");
    const auto b = load(readFile(kReal + "dev-7b-resumed.json"), "b.json");
    const compare::RunDiff diff = compare::compareRuns(*a, *b);
    QCOMPARE(diff.aligned.size(), std::size_t(3));
    for (std::size_t i = 0; i < 2; ++i) {
        const compare::AlignedCall &c = diff.aligned[i];
        QCOMPARE(c.a, std::optional<std::size_t>(i));
        QCOMPARE(c.b, std::optional<std::size_t>(i));
        QVERIFY(!c.same);
        QCOMPARE(c.servedParts, std::size_t(0));
        QVERIFY(!c.notCompared.empty());
        for (const std::string &part : c.notCompared)
            QVERIFY2(part.rfind("tools.schema[", 0) == 0, part.c_str());
        const compare::PairDiff pair = compare::comparePair(*a, i, *b, i);
        QVERIFY(pair.served.empty());
        QCOMPARE(pair.notCompared, c.notCompared);
    }
    QCOMPARE(diff.aligned[2].a, std::optional<std::size_t>());
    QCOMPARE(diff.aligned[2].b, std::optional<std::size_t>(2));
    QVERIFY(diff.firstDivergence);
    QCOMPARE(diff.firstDivergence->b, std::optional<std::size_t>(2));
    QVERIFY(!diff.firstDivergence->part);
    QVERIFY(!diff.same());

    // Served parts one side does not hold by name but holds as not on record are not compared; a part one side
    // holds on record and the other lacks outright differs at unit 0.
    compare::ServedPart sent;
    sent.name = "tools.schema[x]";
    sent.bytes = "{}";
    compare::ServedPart missing;
    missing.name = std::string(compare::kNoSchemasPart);
    missing.onRecord = false;
    const compare::ServedContextDiff unknown = compare::diffServedContext({sent}, {missing});
    QVERIFY(unknown.differing.empty());
    QCOMPARE(unknown.notCompared, std::vector<std::string>{"tools.schema[x]"});
    const compare::ServedContextDiff absent = compare::diffServedContext({}, {sent});
    QCOMPARE(absent.differing.size(), std::size_t(1));
    QVERIFY(!absent.differing.front().inA && absent.differing.front().inB);
    QCOMPARE(absent.differing.front().utf16Offset, std::optional<std::size_t>(0));
}

QTEST_APPLESS_MAIN(TestRunDiff)
#include "tst_rundiff.moc"
