#include "core/findings/collapse.h"
#include "core/findings/ledgerfold.h"
#include "core/generate/recordinggenerator.h"
#include "core/json/jsnumber.h"
#include "core/recording/callview.h"
#include "core/recording/recordingloader.h"
#include "core/recording/resultentry.h"
#include "core/report/backtrack.h"
#include "core/text/utf.h"

#include <QTest>

using namespace tf;

namespace {

std::shared_ptr<const recording::Run> generated(int calls, std::uint64_t seed, std::size_t historyWindow = 0,
                                                int turnCalls = 0)
{
    generate::GeneratorOptions options;
    options.calls = calls;
    options.seed = seed;
    options.historyWindow = historyWindow;
    options.turnCalls = turnCalls;
    auto result = recording::loadRecordingFromBytes(generate::generateRecording(options), "generated.json");
    if (!result.run)
        qFatal("generated recording failed to load: %s", result.error.c_str());
    return result.run;
}

// The first call whose served ids hold `id`, found the slow way.
std::optional<std::size_t> firstServed(const recording::Run &run, const std::string &id)
{
    for (std::size_t i = 0; i < run.calls.size(); ++i) {
        const auto view = recording::buildCallView(run, i);
        if (std::find(view.servedIds.begin(), view.servedIds.end(), id) != view.servedIds.end())
            return i;
    }
    return std::nullopt;
}

struct FactValue
{
    std::string text;
    bool number = false;
};

// String and number fact values of the final fold, in fold order.
std::vector<FactValue> factValues(const recording::Run &run)
{
    std::vector<FactValue> out;
    const json::Value ledger = *run.finalLedger(); // the fold points into it
    const findings::LedgerFold fold = findings::foldLedger(ledger);
    for (const auto &a : fold.asserted) {
        const json::Value *v = a.assertion->find("value");
        if (v && v->isString())
            out.push_back({std::string(v->asString()), false});
        else if (v && v->isNumber())
            out.push_back({json::jsNumberToString(v->asNumber()), true});
    }
    return out;
}

} // namespace

class TestBacktrack : public QObject
{
    Q_OBJECT

private slots:
    void wholeTokenMatching_data();
    void wholeTokenMatching();
    void generatedAnswerUsesNoFactValue();
    void tracesAStringValue();
    void tracesANumberRenderedAsJavaScript();
    void noAnswerOnRecord();
    void undeclaredResultsAreNamed();
    void resultEntriesMatchAFullScan_data();
    void resultEntriesMatchAFullScan();
};

void TestBacktrack::wholeTokenMatching_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("value");
    QTest::addColumn<int>("at");
    QTest::newRow("word") << "fc1/7 is up now"
                          << "up" << 9;
    QTest::newRow("inside-a-word") << "update the port"
                                   << "up" << -1;
    QTest::newRow("second-occurrence-whole") << "update: up"
                                             << "up" << 8;
    QTest::newRow("number-inside-number") << "4510x and 45100"
                                          << "4510" << -1;
    QTest::newRow("number-before-period") << "crc is 4510."
                                          << "4510" << 7;
    QTest::newRow("value-with-punctuation-edges") << "state=(down)"
                                                  << "(down)" << 6;
    QTest::newRow("non-ascii-neighbour") << "étédown"
                                         << "down" << 5;
    QTest::newRow("empty-value") << "anything"
                                 << "" << -1;
}

void TestBacktrack::wholeTokenMatching()
{
    QFETCH(QString, text);
    QFETCH(QString, value);
    QFETCH(int, at);
    const std::size_t found = report::findWholeValue(text.toStdString(), value.toStdString());
    QCOMPARE(found == std::string::npos ? -1 : int(found), at);
}

void TestBacktrack::generatedAnswerUsesNoFactValue()
{
    const auto run = generated(14, 7);
    QVERIFY(run->finalAnswer.has_value());
    const report::Backtrack bt = report::backtrackAnswer(*run);
    QVERIFY(bt.ledgerOnRecord);
    QVERIFY(bt.factValuesConsidered > 0);
    QVERIFY(bt.values.empty());
    QVERIFY(!bt.statements.empty());
    QVERIFY(bt.statements.front().rfind("The answer uses no fact value", 0) == 0);
    // The generator's answer files a contingent row on "replace the optic", carried by the first result, open.
    QCOMPARE(bt.contingent.size(), std::size_t(1));
    QCOMPARE(bt.contingent[0].value, std::string("replace the optic"));
    QVERIFY(bt.contingent[0].inAnswer);
    QCOMPARE(bt.contingent[0].carriers.size(), std::size_t(1));
    QCOMPARE(bt.contingent[0].carriers[0].toolCallId, std::string("call_1"));
    QCOMPARE(bt.contingent[0].carriers[0].standing, std::string("open"));
    QCOMPARE(bt.contingent[0].carriers[0].enteredOrdinal, firstServed(*run, "call_1"));
    bool saidContingent = false;
    for (const std::string &s : bt.statements)
        saidContingent = saidContingent || s.find("only from results the model had set aside") != std::string::npos;
    QVERIFY(saidContingent);
    QCOMPARE(bt.finalOrdinal, std::optional<std::size_t>(run->calls.size() - 1));
}

void TestBacktrack::tracesAStringValue()
{
    const auto run = generated(20, 3);
    const auto values = factValues(*run);
    const auto it = std::find_if(values.begin(), values.end(), [](const FactValue &v) { return !v.number; });
    QVERIFY(it != values.end());
    const std::string answer = "The answer: the port is " + it->text + ", so replace the optic.";
    const report::Backtrack bt = report::backtrackAnswer(*run, answer);
    QVERIFY(!bt.values.empty());
    const report::BacktrackValue &v = bt.values.front();
    QCOMPARE(v.value, it->text);
    QCOMPARE(v.answerOffset, answer.find(it->text));
    QVERIFY(!v.sources.empty());
    for (const report::ValueSource &s : v.sources) {
        // The standing row is the fact row the fold holds for that result.
        QCOMPARE(std::string(s.standingRow.findString("kind")->asString()), std::string("standing"));
        QCOMPARE(std::string(s.standingRow.findString("standing")->asString()), std::string("fact"));
        QCOMPARE(std::string(s.standingRow.findString("toolCallId")->asString()), s.toolCallId);
        QVERIFY(s.standingRowIndex < run->finalLedger()->size());
        // The fact line is the piece's: subject, value, provenance.
        const std::string line = text::toWtf8(s.factLine.text);
        QVERIFY2(line.find(s.subject + " = " + it->text + " \u2190 tool:" + s.toolCallId) == 0, line.c_str());
        QVERIFY(s.factLineInPiece);
        QVERIFY(!s.factLine.spans.empty());
        // The result message is the tool result of that id, from the history.
        QVERIFY(s.resultMessage.has_value());
        QCOMPARE(std::string(s.resultMessage->findString("role")->asString()), std::string("tool"));
        QVERIFY(s.resultContent.has_value());
        QCOMPARE(s.valueInResult, s.resultContent->find(it->text) != std::string::npos);
        // It entered the context at the first call that served it.
        QCOMPARE(s.enteredOrdinal, firstServed(*run, s.toolCallId));
        QCOMPARE(s.enteredEpoch, run->calls[*s.enteredOrdinal].epoch);
        QVERIFY(!s.enteredAsTicket); // a fact result is not collapsed under ledger-and-facts
    }
    QVERIFY(bt.statements.front().rfind("The answer uses 1 fact value", 0) == 0);
}

void TestBacktrack::tracesANumberRenderedAsJavaScript()
{
    const auto run = generated(30, 2);
    const auto values = factValues(*run);
    const auto it = std::find_if(values.begin(), values.end(), [](const FactValue &v) { return v.number; });
    QVERIFY(it != values.end());
    const report::Backtrack bt = report::backtrackAnswer(*run, "crc errors: " + it->text + " on the port");
    QCOMPARE(bt.values.size(), std::size_t(1));
    QCOMPARE(bt.values[0].value, it->text);
    QVERIFY(text::toWtf8(bt.values[0].sources[0].factLine.text).find(" = " + it->text + " \u2190 ") !=
            std::string::npos);
    // Inside a longer number it is not a use.
    QVERIFY(report::backtrackAnswer(*run, "crc errors: 9" + it->text + "9").values.empty());
}

void TestBacktrack::noAnswerOnRecord()
{
    const auto run = generated(4, 1);
    const report::Backtrack bt = report::backtrackAnswer(*run, std::nullopt);
    QVERIFY(!bt.answer);
    QVERIFY(bt.values.empty());
    QCOMPARE(bt.statements.size(), std::size_t(1));
    QVERIFY(bt.statements[0].find("no final answer") != std::string::npos);
}

void TestBacktrack::undeclaredResultsAreNamed()
{
    const auto run = generated(14, 7);
    const report::Backtrack bt = report::backtrackAnswer(*run);
    const auto last = recording::buildCallView(*run, run->calls.size() - 1);
    const json::Value ledger = *run->finalLedger(); // the fold points into it
    const findings::LedgerFold fold = findings::foldLedger(ledger);
    QCOMPARE(bt.undeclaredAtFinal, findings::undeclaredIds(last.servedIds, fold));
    if (!bt.undeclaredAtFinal.empty()) {
        bool said = false;
        for (const std::string &s : bt.statements)
            said = said || s.find("never declared") != std::string::npos;
        QVERIFY(said);
    }
}

void TestBacktrack::resultEntriesMatchAFullScan_data()
{
    QTest::addColumn<QString>("source");
    // Real runs: conversations reuse tool call ids across turns, a crash and a pause leave tools without results.
    for (const char *name :
         {"agentfootprint-reference-agent-findings.json", "agentfootprint-demo-turn.json", "real-9.62/dev-1-research.json",
          "real-9.62/dev-2-conversation.json", "real-9.62/dev-3-tool-errors.json", "real-9.62/dev-4-crash.json",
          "real-9.62/dev-5-envelope.json", "real-9.62/dev-6-events.ndjson", "real-9.62/dev-7-paused-or-limited.json",
          "real-9.62/dev-7b-resumed.json", "real-9.62/dev-8-max-iterations.json"})
        QTest::newRow(name) << QString::fromLatin1(name);
    // A sliding history evicts results; turns start new conversations.
    QTest::newRow("generated-window") << QStringLiteral("generated:60:5:8:0");
    QTest::newRow("generated-window-turns") << QStringLiteral("generated:90:11:6:20");
}

// whereResultsEntered skips the calls before a result's tool ran: it must place every id where a scan of every call
// does, and leave out the same ids.
void TestBacktrack::resultEntriesMatchAFullScan()
{
    QFETCH(QString, source);
    std::shared_ptr<const recording::Run> run;
    if (source.startsWith(QLatin1String("generated:"))) {
        const QStringList p = source.split(QLatin1Char(':'));
        run = generated(p[1].toInt(), p[2].toULongLong(), p[3].toULongLong(), p[4].toInt());
    } else {
        const auto loaded = recording::loadRecording(TRACEFOLD_TEST_DATA "/samples/" + source.toStdString());
        QVERIFY2(loaded.run, loaded.error.c_str());
        run = loaded.run;
    }
    std::set<std::string> ids{"no-such-tool-call"};
    for (const recording::Event &e : run->events)
        if (!e.toolCallId.empty())
            ids.insert(std::string(e.toolCallId));
    std::vector<std::vector<std::string>> served;
    for (std::size_t i = 0; i < run->calls.size(); ++i) {
        served.push_back(recording::buildCallView(*run, i).servedIds);
        ids.insert(served.back().begin(), served.back().end());
    }
    QVERIFY(ids.size() > 2);

    const auto entered = recording::whereResultsEntered(*run, ids);
    std::size_t placed = 0;
    for (const std::string &id : ids) {
        std::optional<std::size_t> first;
        for (std::size_t i = 0; i < served.size() && !first; ++i)
            if (std::find(served[i].begin(), served[i].end(), id) != served[i].end())
                first = i;
        const auto it = entered.find(id);
        QVERIFY2(first.has_value() == (it != entered.end()), id.c_str());
        if (first) {
            QCOMPARE(it->second.ordinal, *first);
            ++placed;
        }
    }
    QCOMPARE(entered.size(), placed);
}

QTEST_APPLESS_MAIN(TestBacktrack)
#include "tst_backtrack.moc"
