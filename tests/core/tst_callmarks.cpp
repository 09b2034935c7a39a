// The ledger marks and the piece diff every surface shows come from one core function each: the counts inspect --json
// gives per call (CallSummary::ledgerMarks, pieceLinesAdded/Removed) are what the Ledger pane's row views
// (findings::ledgerRowViews) and the Since Previous Call pane's diff (findings::pieceLineDiff) give for that call.

#include "core/findings/ledgerrowview.h"
#include "core/findings/piecediff.h"
#include "core/generate/recordinggenerator.h"
#include "core/recording/callview.h"
#include "core/recording/recordingloader.h"
#include "core/report/inspectreport.h"

#include <QTest>

#include <map>

using namespace tf;

class TestCallMarks : public QObject
{
    Q_OBJECT

private slots:
    void inspectAgreesWithThePanes_data();
    void inspectAgreesWithThePanes();
};

namespace {

std::shared_ptr<const recording::Run> loadSample(const QString &name)
{
    // "generated:CALLS:SEED:WINDOW", as `tracefold-cli generate` writes it; the bundled sample is generated:80:7:0
    // (resources/samples/tracefold-sample.json, without iteration history).
    if (name.startsWith(QLatin1String("generated:"))) {
        const QStringList p = name.split(QLatin1Char(':'));
        generate::GeneratorOptions options;
        options.calls = p.at(1).toInt();
        options.seed = p.at(2).toULongLong();
        options.historyWindow = p.at(3).toULongLong();
        options.historyInIterationEnd = options.historyWindow != 0;
        recording::LoadResult r = recording::loadRecordingFromBytes(generate::generateRecording(options), "gen.json");
        return r.run;
    }
    recording::LoadResult r =
        recording::loadRecording(std::string(TRACEFOLD_TEST_DATA "/samples/") + name.toStdString());
    if (!r.run)
        qWarning("%s", r.error.c_str());
    return r.run;
}

double member(const json::Value &o, const char *key)
{
    const json::Value *v = o.find(key);
    return v && v->isNumber() ? v->asNumber() : -1;
}

} // namespace

void TestCallMarks::inspectAgreesWithThePanes_data()
{
    QTest::addColumn<QString>("sample");
    // Whether the run has a ledger whose marks and piece diffs are not all zero (so the comparison can fail).
    QTest::addColumn<bool>("marked");
    QTest::newRow("bundled-sample") << "generated:80:7:0" << true;
    QTest::newRow("upstream-reference-findings") << "agentfootprint-reference-agent-findings.json" << false;
    QTest::newRow("upstream-demo-turn") << "agentfootprint-demo-turn.json" << false;
    QTest::newRow("real-9.62-research") << "real-9.62/dev-1-research.json" << false;
    QTest::newRow("real-9.62-conversation") << "real-9.62/dev-2-conversation.json" << false;
    QTest::newRow("generated-sliding-history") << "generated:60:11:12" << true;
}

void TestCallMarks::inspectAgreesWithThePanes()
{
    QFETCH(QString, sample);
    QFETCH(bool, marked);
    const auto run = loadSample(sample);
    QVERIFY(run);
    const std::vector<recording::CallSummary> summaries = recording::summarizeCalls(*run);
    QCOMPARE(summaries.size(), run->calls.size());
    const json::Value doc = report::inspectJson(*run, summaries);
    const json::Value *calls = doc.find("calls");
    QVERIFY(calls && calls->size() == run->calls.size());

    std::map<std::string, std::size_t> totals;
    std::size_t totalAdded = 0, totalRemoved = 0;
    std::optional<findings::FindingsPiece> previousPiece;
    for (std::size_t i = 0; i < run->calls.size(); ++i) {
        const recording::CallView view = recording::buildCallView(*run, i);
        const findings::LedgerFold fold = findings::foldLedger(view.ledger);
        std::map<std::string, std::size_t> expected;
        for (const findings::LedgerRowView &row :
             findings::ledgerRowViews(view.ledger, fold, view.ledgerIssues, view.ledgerRowsAtPrevious))
            for (const std::string &name : findings::ledgerMarkNames(row.marks))
                ++expected[name];

        const json::Value &call = calls->at(i);
        const json::Value *marks = call.find("ledgerMarks");
        QVERIFY(marks && marks->isObject());
        QCOMPARE(marks->memberCount(), std::size_t(findings::kLedgerMarkCount));
        for (const char *name :
             {"new", "superseded", "conflict", "contingent", "unsettled", "malformed", "not folded"}) {
            const double got = member(*marks, name);
            QVERIFY2(got >= 0, name);
            QCOMPARE(std::size_t(got), expected[name]);
            totals[name] += std::size_t(got);
        }

        std::size_t added = 0, removed = 0;
        if (view.pieceChangedSincePrevious || (i == 0 && view.piece)) {
            const text::DiffStats d = text::diffStats(findings::pieceLineDiff(previousPiece ? &*previousPiece : nullptr,
                                                                              view.piece ? &*view.piece : nullptr));
            added = std::size_t(d.added);
            removed = std::size_t(d.removed);
        }
        if (const json::Value *piece = call.find("piece"); piece && piece->isObject()) {
            QCOMPARE(std::size_t(member(*piece, "linesAdded")), added);
            QCOMPARE(std::size_t(member(*piece, "linesRemoved")), removed);
        } else {
            QCOMPARE(added, std::size_t(0)); // no piece, so nothing arrived
        }
        totalAdded += added;
        totalRemoved += removed;
        previousPiece = view.piece;
    }
    if (marked) {
        QVERIFY(totals["new"] > 0);
        QVERIFY(totals["superseded"] + totals["conflict"] + totals["contingent"] > 0);
        QVERIFY(totalAdded > 0);
        QVERIFY(totalRemoved > 0);
    } else {
        QCOMPARE(totals["conflict"], std::size_t(0));
    }
}

QTEST_GUILESS_MAIN(TestCallMarks)
#include "tst_callmarks.moc"
