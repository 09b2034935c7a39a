// A pair of calls laid out side by side for the panes (compare::pairPanes, issue 19): real recordings against edited
// copies, and pairs made by hand. Each check reads the marked ranges back out of the side's text, so a mark that is
// off by a unit, or on the wrong side, fails.

#include "tests/core/recordingfile.h"
#include "tests/core/recordingtext.h"

#include "core/compare/pairsides.h"
#include "core/compare/rundiff.h"
#include "core/compare/worddiff.h"
#include "core/generate/recordinggenerator.h"
#include "core/recording/callview.h"

#include <QTest>

using namespace tf;
using testsupport::load;
using testsupport::readFile;

namespace {

const QString kDev2 = QStringLiteral(TRACEFOLD_TEST_DATA "/samples/real-9.62/dev-2-conversation.json");

// The marked ranges of a side, as text.
QStringList marked(const compare::MarkedText &side)
{
    const QString text = QString::fromStdString(side.text);
    QStringList out;
    for (const compare::MarkedText::Mark &m : side.marks) {
        if (m.beginU16 > m.endU16 || m.endU16 > std::size_t(text.size()))
            return {QStringLiteral("mark out of range")};
        out << text.mid(qsizetype(m.beginU16), qsizetype(m.endU16 - m.beginU16));
    }
    return out;
}

QString plain(const compare::MarkedText &side)
{
    return QString::fromStdString(side.text);
}

} // namespace

class TestPairSides : public QObject
{
    Q_OBJECT

private slots:
    void wordSpans();
    void toolResultChanged();
    void promptChanged();
    void responseWordsAndToolCalls();
    void longPartIsCut();
    void ledgerAndPiece();
    void signaturesKept();
    void callBesideGap();
};

void TestPairSides::wordSpans()
{
    const std::string text = "a  bc\nd ";
    const std::vector<compare::WordSpan> spans = compare::wordSpans(text);
    QCOMPARE(spans.size(), std::size_t(3));
    QCOMPARE(text.substr(spans[1].begin, spans[1].end - spans[1].begin), std::string("bc"));
    QCOMPARE(text.substr(spans[2].begin, spans[2].end - spans[2].begin), std::string("d"));
    // Line breaks part words as spaces do.
    QCOMPARE(compare::wordDiff("x\ny", "x y").size(), std::size_t(2));
}

// dev-2 with a tool result edited: at call 4 the message that carries it differs at one digit, marked on each side
// and nowhere else; call 3, which ran the tool, was served the same and its response shows the result that differs.
void TestPairSides::toolResultChanged()
{
    const std::string text = readFile(kDev2);
    const auto a = load(testsupport::replaceAll(text, "Corner Bakery 64.10", "Corner Bakery 69.10"), "a.json");
    const auto b = load(text, "b.json");
    const compare::PairPanes at4 = compare::pairPanes(compare::comparePair(*a, 3, *b, 3));
    QVERIFY(!at4.served.same);
    QCOMPARE(at4.served.summary, std::string("messages[7] differs from UTF-16 offset 68"));
    QCOMPARE(marked(at4.served.a), QStringList{QStringLiteral("9")});
    QCOMPARE(marked(at4.served.b), QStringList{QStringLiteral("4")});
    QVERIFY(plain(at4.served.a).startsWith(QStringLiteral("\u25B8 messages[7]\n")));
    QVERIFY(plain(at4.served.a).contains(QStringLiteral("Corner Bakery 69.10")));
    QVERIFY(plain(at4.served.b).contains(QStringLiteral("Corner Bakery 64.10")));
    QVERIFY(at4.response.same);
    QCOMPARE(at4.response.summary, std::string("the same response"));
    QVERIFY(at4.response.a.marks.empty() && at4.response.b.marks.empty());
    QVERIFY(at4.cache.same);
    QVERIFY(at4.ledger.same && at4.piece.same);

    const compare::PairPanes at3 = compare::pairPanes(compare::comparePair(*a, 2, *b, 2));
    QVERIFY(at3.served.same);
    QVERIFY(at3.served.a.text.empty());
    QVERIFY(!at3.response.same);
    QCOMPARE(at3.response.summary, std::string("1 tool result differs"));
    QCOMPARE(marked(at3.response.a), QStringList{QStringLiteral("9")});
    QCOMPARE(marked(at3.response.b), QStringList{QStringLiteral("4")});
    QVERIFY(plain(at3.response.a).contains(QStringLiteral("\u25B8 tool result top_merchants ")));
}

// A user prompt changed in turn 2 of 4: the first call of turn 2 differs in the prompt's message, the changed word
// marked (the common prefix and suffix of the two messages left plain).
void TestPairSides::promptChanged()
{
    const std::string text = readFile(kDev2);
    const auto a =
        load(testsupport::replaceAll(text, "How does that compare with February", "How does that compare with January"),
             "a.json");
    const auto b = load(text, "b.json");
    const compare::RunDiff diff = compare::compareRuns(*a, *b);
    QVERIFY(diff.firstDivergence && diff.firstDivergence->a);
    const compare::PairPanes panes =
        compare::pairPanes(compare::comparePair(*a, *diff.firstDivergence->a, *b, *diff.firstDivergence->b));
    QVERIFY(!panes.served.same);
    QCOMPARE(marked(panes.served.a), QStringList{QStringLiteral("Jan")});
    QCOMPARE(marked(panes.served.b), QStringList{QStringLiteral("Febr")});
    QVERIFY(plain(panes.served.a).contains(QStringLiteral("compare with January")));
}

// Responses compared word by word, line breaks kept; tool calls line by line.
void TestPairSides::responseWordsAndToolCalls()
{
    compare::PairDiff pair;
    pair.responseOnRecordA = pair.responseOnRecordB = true;
    pair.responseTextA = "The total was 400 EUR.\nThanks, bye";
    pair.responseTextB = "The total was 450 EUR.\nThanks, bye";
    pair.responseTextOffset = compare::firstDifferenceU16(pair.responseTextA, pair.responseTextB);
    pair.toolCallsA = {"a {}", "b {\"x\":1}"};
    pair.toolCallsB = {"a {}", "c {}"};
    pair.toolCallsSame = false;
    const compare::PairSides sides = compare::pairPanes(pair).response;
    QVERIFY(!sides.same);
    QCOMPARE(sides.summary, std::string("text differs at UTF-16 offset 15; tool calls differ"));
    QCOMPARE(marked(sides.a), (QStringList{QStringLiteral("400"), QStringLiteral("b {\"x\":1}")}));
    QCOMPARE(marked(sides.b), (QStringList{QStringLiteral("450"), QStringLiteral("c {}")}));
    QVERIFY(plain(sides.a).startsWith(QStringLiteral("The total was 400 EUR.\nThanks, bye\n\ntool calls:\n  a {}")));

    // Words that differ next to each other make one mark, the space between them included.
    compare::PairDiff words;
    words.responseOnRecordA = words.responseOnRecordB = true;
    words.responseTextA = "go north now";
    words.responseTextB = "stay south now";
    words.responseTextOffset = std::size_t(0);
    QCOMPARE(marked(compare::pairPanes(words).response.a), QStringList{QStringLiteral("go north")});

    compare::PairDiff none;
    none.responseOnRecordB = true;
    none.responseTextB = "hi";
    none.responseTextOffset = compare::firstDifferenceU16("", "hi");
    const compare::PairSides one = compare::pairPanes(none).response;
    QCOMPARE(plain(one.a), QStringLiteral("(no response on record)"));
    QCOMPARE(one.summary.rfind("a response on record in B only", 0), std::size_t(0));
}

// A part that differs near the end of a long text: the side starts with an ellipsis and keeps the context around
// the mark only; a non-BMP character at the cut is not split.
void TestPairSides::longPartIsCut()
{
    compare::PairDiff pair;
    const std::string head(5000, 'x');
    pair.served.push_back({"system.pieces[0]", true, true, std::size_t(5000)});
    pair.servedBytes.push_back({head + "\xF0\x9F\x98\x80 A tail", head + "\xF0\x9F\x98\x80 B tail"});
    pair.served.push_back({"messages[2]", false, true, std::size_t(0)});
    pair.servedBytes.push_back({"", "{\"role\":\"user\"}"});
    const compare::PairSides sides = compare::pairPanes(pair).served;
    QCOMPARE(sides.summary, std::string("2 parts differ, the first system.pieces[0] from UTF-16 offset 5000"));
    QCOMPARE(marked(sides.a), QStringList{QStringLiteral("A")});
    QCOMPARE(marked(sides.b), (QStringList{QStringLiteral("B"), QStringLiteral("{\"role\":\"user\"}")}));
    const QString a = plain(sides.a);
    QVERIFY(a.contains(QStringLiteral("\u2026x")));
    QVERIFY(a.size() < 400);
    QVERIFY(a.contains(QStringLiteral("\U0001F600 A tail")));
    QVERIFY(a.contains(QStringLiteral("\u25B8 messages[2]\n(not sent)")));

    // Text inserted on one side: the other side gets an empty mark where it would be.
    compare::PairDiff inserted;
    inserted.served.push_back({"system.pieces[1]", true, true, std::size_t(2)});
    inserted.servedBytes.push_back({"abc", "abXc"});
    const compare::PairSides one = compare::pairPanes(inserted).served;
    QCOMPARE(marked(one.a), QStringList{QString()});
    QCOMPARE(marked(one.b), QStringList{QStringLiteral("X")});
    const QString header = QStringLiteral("\u25B8 system.pieces[1]\n");
    QCOMPARE(one.a.marks.front().beginU16, std::size_t(header.size() + 2));
}

// A generated run against its copy with one ledger row changed: the ledger sides hold that row on each side, marked;
// the piece sides mark the one line that differs on each side.
void TestPairSides::ledgerAndPiece()
{
    generate::GeneratorOptions options;
    options.calls = 40;
    options.seed = 5;
    const auto a = load(generate::generateRecording(options), "a.json");
    options.damage.kind = generate::Damage::Kind::PieceRow;
    options.damage.call = 20;
    const auto b = load(generate::generateRecording(options), "b.json");
    const compare::RunDiff diff = compare::compareRuns(*a, *b);
    QVERIFY(diff.firstDivergencePair);
    const compare::PairDiff &pair = *diff.firstDivergencePair;
    const compare::PairPanes panes = compare::pairPanes(pair);

    QVERIFY(!panes.ledger.same);
    QCOMPARE(panes.ledger.summary, std::string("1 row only in A, 1 only in B"));
    QCOMPARE(marked(panes.ledger.a),
             QStringList{QString::fromStdString(compare::ledgerRowLine(pair.ledger.onlyInA[0]))});
    QCOMPARE(marked(panes.ledger.b),
             QStringList{QString::fromStdString(compare::ledgerRowLine(pair.ledger.onlyInB[0]))});
    QVERIFY(plain(panes.ledger.a).startsWith(QStringLiteral("#%1  ").arg(pair.ledger.onlyInA[0].index)));

    QVERIFY(!panes.piece.same);
    QCOMPARE(panes.piece.summary, std::string("1 line only in A, 1 only in B"));
    QString removed, added;
    for (const text::DiffLine &l : pair.pieceLines) {
        if (l.op == text::DiffLine::Op::Removed)
            removed = QString::fromStdString(l.text);
        if (l.op == text::DiffLine::Op::Added)
            added = QString::fromStdString(l.text);
    }
    QCOMPARE(marked(panes.piece.a), QStringList{removed});
    QCOMPARE(marked(panes.piece.b), QStringList{added});
    // Each side holds its whole piece: as many lines as the diff gives it.
    QCOMPARE(plain(panes.piece.a).count(QLatin1Char('\n')) + 1,
             qsizetype(pair.pieceLines.size() - 1)); // every line but B's added one
}

// The comparison keeps every call's signature, for a surface that shows a call beside its counterpart.
void TestPairSides::signaturesKept()
{
    const std::string text = readFile(kDev2);
    const auto a = load(text, "a.json");
    const compare::RunDiff diff = compare::compareRuns(*a, *a);
    QCOMPARE(diff.signaturesA.size(), a->calls.size());
    QCOMPARE(diff.signaturesB.size(), a->calls.size());
    QCOMPARE(diff.signaturesA.front().toolCallsMade, std::vector<std::string>{"category_total"});
    QVERIFY(diff.signaturesA[1].toolCallsMade.empty() && diff.signaturesA[1].responseOnRecord);
}

// A call one run made and the other did not, laid out against no call: its served parts, response and ledger on its
// side, marked whole; "(no call)" on the other side of every subject.
void TestPairSides::callBesideGap()
{
    const auto run = load(readFile(kDev2), "a.json");
    const recording::CallView view = recording::buildCallView(*run, 0);
    for (const bool callIsA : {true, false}) {
        const compare::PairDiff pair = compare::compareWithNoCall(*run, 0, callIsA);
        QCOMPARE(pair.callInA, callIsA);
        QCOMPARE(pair.callInB, !callIsA);
        QCOMPARE(callIsA ? pair.a : pair.b, std::size_t(0));
        // Every part the call was sent is in its run only.
        QVERIFY(!pair.served.empty());
        for (const compare::PartDifference &part : pair.served)
            QVERIFY(part.inA == callIsA && part.inB == !callIsA);
        QCOMPARE(callIsA ? pair.responseOnRecordA : pair.responseOnRecordB, true);
        const compare::PairPanes panes = compare::pairPanes(pair);
        for (const compare::PairSides *s :
             {&panes.served, &panes.response, &panes.ledger, &panes.piece, &panes.cache}) {
            QVERIFY(!s->same);
            QCOMPARE(s->summary, std::string(callIsA ? "only A made this call" : "only B made this call"));
            QCOMPARE(plain(callIsA ? s->b : s->a), QStringLiteral("(no call)"));
        }
        const compare::MarkedText &response = callIsA ? panes.response.a : panes.response.b;
        QVERIFY(plain(response).contains(QStringLiteral("tool calls:\n  category_total ")));
        const compare::MarkedText &served = callIsA ? panes.served.a : panes.served.b;
        QVERIFY(plain(served).startsWith(QStringLiteral("\u25B8 system")));
        QVERIFY(!served.marks.empty());
        QCOMPARE(std::size_t(plain(served).count(QStringLiteral("\u25B8 messages["))), view.asSent.size());
    }
}

QTEST_APPLESS_MAIN(TestPairSides)
#include "tst_pairsides.moc"
