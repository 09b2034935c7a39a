// Every pane's model against the core's data, call by call, on the real samples and on generated runs (collapsed
// results, cache usage, damage). QAbstractItemModelTester watches every model through every reset.

#include "uitesthelpers.h"

#include "ui/models/calllistmodel.h"
#include "ui/models/callnavigation.h"
#include "ui/models/callstatus.h"
#include "ui/models/gapmodel.h"
#include "ui/models/ledgerfiltermodel.h"
#include "ui/models/ledgermodel.h"
#include "ui/models/piecemodel.h"
#include "ui/models/receiptmodel.h"
#include "ui/models/wiremodel.h"
#include "ui/services/callviewservice.h"
#include "ui/services/qtstrings.h"

#include "core/json/writer.h"
#include "core/report/inspectreport.h"
#include "core/text/utf.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QSignalSpy>

using namespace tf;
using namespace tf::ui;

class TestModels : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void callList_data();
    void callList();
    void cacheIconsMatchInspectJson_data();
    void cacheIconsMatchInspectJson();
    void everyCall_data();
    void everyCall();
    void collapsedExactly();
    void wireRowsComeWithTheBundle();
    void ledgerFilter();
    void jumps();
    void serviceSupersedes();
    void serviceBuildsTheNextCallAhead();

private:
    void addFiles();
    QString writeGeneratedRun();
    QTemporaryDir m_dir;
    QString m_generated, m_damaged;
};

void TestModels::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_generated = writeGeneratedRun();
    QVERIFY(!m_generated.isEmpty());
    m_damaged =
        test::writeGenerated(m_dir, QStringLiteral("damaged.json"), 9, 4, {generate::Damage::Kind::MessageByte, 4});
    QVERIFY(!m_damaged.isEmpty());
}

QString TestModels::writeGeneratedRun()
{
    return test::writeGenerated(m_dir, QStringLiteral("generated.json"), 12, 1);
}

void TestModels::addFiles()
{
    QTest::addColumn<QString>("path");
    for (const QString &s : test::realSamples())
        QTest::newRow(qPrintable(s)) << test::samplePath(s);
    QTest::newRow("generated-12-calls") << m_generated;
    QTest::newRow("generated-damaged-message") << m_damaged;
}

void TestModels::callList_data()
{
    addFiles();
}

void TestModels::callList()
{
    QFETCH(QString, path);
    const RunHandle run = test::loadOrFail(path);
    QVERIFY(run);
    CallListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRun(run);
    QCOMPARE(model.rowCount(), int(run->calls.size()));
    QCOMPARE(model.columnCount(), int(CallListModel::ColumnCount));
    for (int r = 0; r < model.rowCount(); ++r) {
        const recording::CallSummary &c = run->calls[std::size_t(r)];
        QCOMPARE(model.index(r, CallListModel::EpochColumn).data().toString(), QString::number(c.epoch));
        QCOMPARE(model.index(r, 0).data(CallListModel::OrdinalRole).toInt(), r);
        QCOMPARE(model.index(r, 0).data(CallListModel::CollapsedCountRole).toInt(), int(c.collapsedIds.size()));
        QCOMPARE(model.index(r, 0).data(CallListModel::LedgerChangedRole).toBool(), c.ledgerChanged);
        QCOMPARE(model.index(r, 0).data(CallListModel::DamagedRole).toBool(), c.damaged || c.damagedParts > 0);
        QCOMPARE(model.index(r, CallListModel::MessagesColumn).data().toString(),
                 c.messageCount ? QString::number(*c.messageCount) : QStringLiteral("—"));
        QCOMPARE(model.index(r, CallListModel::CacheColumn).data(CallListModel::GlyphRole).toInt(),
                 int(glyphFor(cacheStatusOf(c.prefixReusable, c.verdict))));
        QCOMPARE(model.index(r, CallListModel::LedgerColumn).data(CallListModel::GlyphRole).isValid(), c.ledgerChanged);
        // Untrusted text never reaches a tooltip unescaped.
        QVERIFY(!model.index(r, CallListModel::EpochColumn)
                     .data(Qt::ToolTipRole)
                     .toString()
                     .contains(QStringLiteral("<script")));
    }
    model.setRun(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void TestModels::cacheIconsMatchInspectJson_data()
{
    addFiles();
}

void TestModels::cacheIconsMatchInspectJson()
{
    QFETCH(QString, path);
    const RunHandle run = test::loadOrFail(path);
    QVERIFY(run);

    // The CLI itself when it is built beside the tests; otherwise the same report function in-process.
    QByteArray json;
    const QString cli = QCoreApplication::applicationDirPath() + QStringLiteral("/../app/tracefold-cli");
    if (QFileInfo(cli).isExecutable()) {
        QProcess p;
        p.start(cli, {QStringLiteral("inspect"), path, QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        json = p.readAllStandardOutput();
    } else {
        qWarning("tracefold-cli not found beside the tests; comparing with report::inspectJson in-process");
        json = QByteArray::fromStdString(json::prettyPrint(report::inspectJson(*run->run, run->calls)));
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    const QJsonArray calls = doc.object().value(QStringLiteral("calls")).toArray();

    CallListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRun(run);
    QCOMPARE(model.rowCount(), int(calls.size()));
    for (int r = 0; r < model.rowCount(); ++r) {
        const QJsonObject cache = calls[r].toObject().value(QStringLiteral("cache")).toObject();
        const QJsonValue reusable = cache.value(QStringLiteral("prefixReusable"));
        // A reusable prefix is a measured hit only where the provider reported cache usage.
        const bool measured = cache.value(QStringLiteral("verdict")).toString() != QLatin1String("unmeasured");
        const CacheStatus expected = !reusable.isBool()   ? CacheStatus::Unknown
                                     : !reusable.toBool() ? CacheStatus::Rewritten
                                     : measured           ? CacheStatus::Reusable
                                                          : CacheStatus::ReusableUnmeasured;
        QCOMPARE(CacheStatus(model.index(r, 0).data(CallListModel::CacheStatusRole).toInt()), expected);
        QCOMPARE(Glyph(model.index(r, CallListModel::CacheColumn).data(CallListModel::GlyphRole).toInt()),
                 glyphFor(expected));
        const QJsonArray collapsed = calls[r].toObject().value(QStringLiteral("collapsed")).toArray();
        QCOMPARE(model.index(r, 0).data(CallListModel::CollapsedCountRole).toInt(), int(collapsed.size()));
    }
}

void TestModels::everyCall_data()
{
    addFiles();
}

void TestModels::everyCall()
{
    QFETCH(QString, path);
    const RunHandle run = test::loadOrFail(path);
    QVERIFY(run);

    PieceModel piece;
    LedgerModel ledger;
    LedgerFilterModel filter;
    filter.setSourceModel(&ledger);
    WireModel wire;
    ReceiptModel receipt;
    GapModel gaps;
    using Tester = QAbstractItemModelTester;
    const auto mode = Tester::FailureReportingMode::QtTest;
    Tester t1(&piece, mode), t2(&ledger, mode), t3(&filter, mode), t4(&wire, mode), t5(&receipt, mode), t6(&gaps, mode);

    for (std::size_t i = 0; i < run->calls.size(); ++i) {
        // Every other call with the call before built on its own thread, as the window builds dear views.
        const BundleHandle bundle = buildBundle(
            run, i, {}, nullptr, i % 2 ? recording::PreviousBuild::OwnThread : recording::PreviousBuild::SameThread);
        const recording::CallView &v = *bundle->view;
        piece.setBundle(bundle);
        ledger.setBundle(bundle);
        wire.setBundle(bundle);
        receipt.setBundle(bundle);
        gaps.setGaps(v.gaps);

        // Findings piece: the structure, line for line, and the text it joins to.
        if (!v.piece) {
            QCOMPARE(piece.rowCount(), 0);
            QVERIFY(!v.noPieceReason.empty());
        } else {
            const findings::FindingsPiece &p = *v.piece;
            QCOMPARE(piece.rowCount(), int(p.sections.size()));
            QStringList sections;
            for (int s = 0; s < piece.rowCount(); ++s) {
                const QModelIndex sec = piece.index(s, 0);
                QCOMPARE(sec.data(PieceModel::SectionKindRole).toInt(), int(p.sections[std::size_t(s)].kind));
                QCOMPARE(piece.rowCount(sec), int(p.sections[std::size_t(s)].lines.size()));
                QStringList lines;
                for (int l = 0; l < piece.rowCount(sec); ++l) {
                    const QModelIndex line = piece.index(l, 0, sec);
                    const findings::PieceLine &pl = p.sections[std::size_t(s)].lines[std::size_t(l)];
                    QCOMPARE(line.data().toString(), toQString(std::u16string_view(pl.text)));
                    // Offsets point at the line inside the piece text.
                    const int offset = line.data(PieceModel::OffsetRole).toInt();
                    QCOMPARE(std::u16string_view(p.text).substr(std::size_t(offset), pl.text.size()),
                             std::u16string_view(pl.text));
                    const QList<SpanRange> spans = line.data(PieceModel::SpansRole).value<QList<SpanRange>>();
                    QCOMPARE(spans.size(), qsizetype(pl.spans.size()));
                    int overflowSpans = 0;
                    for (const SpanRange &sr : spans)
                        overflowSpans += sr.origin == int(findings::SpanOrigin::Overflow) ? 1 : 0;
                    // An overflow note always comes with a tooltip that names its cap.
                    if (overflowSpans || pl.kind == findings::LineKind::More)
                        QVERIFY(line.data(PieceModel::OverflowToolTipRole).toString().contains(QStringLiteral("cap")));
                    lines << line.data().toString();
                }
                sections << lines.join(QLatin1Char('\n'));
            }
            QCOMPARE(sections.join(QStringLiteral("\n\n")), toQString(std::u16string_view(p.text)));
        }

        // Ledger: every row at the call, new exactly from ledgerRowsAtPrevious.
        QCOMPARE(ledger.rowCount(), v.ledgerOnRecord ? int(v.ledger.size()) : 0);
        for (int r = 0; r < ledger.rowCount(); ++r) {
            const bool isNew = std::size_t(r) >= v.ledgerRowsAtPrevious;
            QCOMPARE(ledger.index(r, 0).data(LedgerModel::IsNewRole).toBool(), isNew);
            QCOMPARE(ledger.index(r, 0).data(LedgerModel::RowKindRole).toInt(),
                     int(findings::rowKindOf(v.ledger.at(std::size_t(r)))));
            const json::Value *id = v.ledger.at(std::size_t(r)).findString("toolCallId");
            if (id)
                QCOMPARE(ledger.index(r, LedgerModel::ResultIdColumn).data().toString(), toQString(id->asString()));
        }
        // The bundle's fold is the rebuild's own, handed over: the same as folding the bundle's ledger again, every
        // pointer into the rows the bundle holds (not into a ledger that has gone).
        {
            const findings::LedgerFold again = findings::foldLedger(v.ledger);
            const auto sameEntries = [&](const findings::InsertionOrderedMap &a,
                                         const findings::InsertionOrderedMap &b) {
                QCOMPARE(a.entries().size(), b.entries().size());
                for (std::size_t k = 0; k < a.entries().size(); ++k) {
                    QCOMPARE(a.entries()[k].key, b.entries()[k].key);
                    QCOMPARE(a.entries()[k].rowIndex, b.entries()[k].rowIndex);
                    QCOMPARE(a.entries()[k].row, &v.ledger.at(a.entries()[k].rowIndex));
                    QCOMPARE(a.entries()[k].row, b.entries()[k].row);
                }
            };
            sameEntries(bundle->fold.standingOf, again.standingOf);
            sameEntries(bundle->fold.judgments, again.judgments);
            QCOMPARE(bundle->fold.hasStanding, again.hasStanding);
            QCOMPARE(bundle->fold.asserted.size(), again.asserted.size());
            for (std::size_t k = 0; k < again.asserted.size(); ++k) {
                QCOMPARE(bundle->fold.asserted[k].key, again.asserted[k].key);
                QCOMPARE(bundle->fold.asserted[k].row, again.asserted[k].row);
                QCOMPARE(bundle->fold.asserted[k].assertion, again.asserted[k].assertion);
            }
            QCOMPARE(bundle->fold.conflicts.size(), again.conflicts.size());
            for (std::size_t k = 0; k < again.conflicts.size(); ++k) {
                QCOMPARE(bundle->fold.conflicts[k].key, again.conflicts[k].key);
                QCOMPARE(bundle->fold.conflicts[k].assertions, again.conflicts[k].assertions);
                QCOMPARE(bundle->fold.conflicts[k].witnesses.size(), again.conflicts[k].witnesses.size());
            }
            QCOMPARE(bundle->fold.unsettled.size(), again.unsettled.size());
            for (std::size_t k = 0; k < again.unsettled.size(); ++k)
                QCOMPARE(bundle->fold.unsettled[k].row, again.unsettled[k].row);
        }
        for (const auto &e : bundle->fold.standingOf.entries())
            QVERIFY(
                !(ledger.index(int(e.rowIndex), 0).data(LedgerModel::MarksRole).toInt() & LedgerModel::SupersededMark));
        for (const findings::Conflict &c : bundle->fold.conflicts)
            for (const findings::AssertionRef &w : c.witnesses)
                QVERIFY(ledger.index(int(w.rowIndex), 0).data(LedgerModel::MarksRole).toInt() &
                        LedgerModel::ConflictMark);

        // Wire: system pieces, messages as sent, tools.
        QCOMPARE(wire.rowCount(), int(WireModel::GroupCount));
        const QModelIndex system = wire.index(WireModel::SystemGroup, 0);
        QCOMPARE(wire.rowCount(system), int(v.systemPieces.size()));
        const QModelIndex messages = wire.index(WireModel::MessagesGroup, 0);
        QCOMPARE(wire.rowCount(messages), v.conversationOnRecord ? int(v.asSent.size()) : 0);
        // Sizes and previews are read from the strings' bodies, not decoded whole: the same as the content's own.
        for (int m = 0; m < wire.rowCount(messages); ++m) {
            const QModelIndex row = wire.index(m, 0, messages);
            if (row.data(WireModel::CollapsedRole).toBool())
                continue;
            const QString content = row.data(WireModel::ContentRole).toString();
            const QString size = wire.index(m, WireModel::SizeColumn, messages).data().toString();
            QCOMPARE(size, formatCount(std::size_t(content.size())));
            if (!content.isEmpty())
                QCOMPARE(wire.index(m, WireModel::PreviewColumn, messages).data().toString(), previewLine(content));
        }
        const QModelIndex tools = wire.index(WireModel::ToolsGroup, 0);
        QCOMPARE(wire.rowCount(tools), int(v.tools.size()));
        // A tool's name is read where a message's ids are (the # column is sized for numbers).
        for (int t = 0; t < wire.rowCount(tools); ++t) {
            QCOMPARE(wire.index(t, WireModel::ItemColumn, tools).data().toString(), QString::number(t));
            QCOMPARE(wire.index(t, WireModel::IdColumn, tools).data().toString(),
                     toQString(v.tools[std::size_t(t)].name));
        }
        QCOMPARE(wire.collapsedCount(), int(v.collapsed.size()));

        // Receipt: each part's badge and reason.
        QCOMPARE(receipt.rowCount(), int(v.checks.size()));
        for (int r = 0; r < receipt.rowCount(); ++r) {
            const recording::PartCheck &c = v.checks[std::size_t(r)];
            QCOMPARE(receipt.index(r, ReceiptModel::PartColumn).data().toString(), toQString(c.part));
            QCOMPARE(receipt.index(r, 0).data(ReceiptModel::BadgeRole).toInt(), int(c.badge));
            QCOMPARE(receipt.index(r, ReceiptModel::ReasonColumn).data().toString(), toQString(c.reason));
        }
        QCOMPARE(gaps.rowCount(), int(v.gaps.size()));
    }
    piece.setBundle(nullptr);
    ledger.setBundle(nullptr);
    wire.setBundle(nullptr);
    receipt.setBundle(nullptr);
    QCOMPARE(wire.rowCount(), 0);
}

void TestModels::collapsedExactly()
{
    const RunHandle run = test::loadOrFail(m_generated);
    QVERIFY(run);
    WireModel wire;
    QAbstractItemModelTester tester(&wire, QAbstractItemModelTester::FailureReportingMode::QtTest);
    int callsWithCollapse = 0;
    for (std::size_t i = 0; i < run->calls.size(); ++i) {
        const BundleHandle bundle = buildBundle(run, i);
        const recording::CallView &v = *bundle->view;
        wire.setBundle(bundle);
        QSet<int> collapsed;
        for (const findings::CollapsedMessage &c : v.collapsed)
            collapsed.insert(int(c.index));
        callsWithCollapse += collapsed.isEmpty() ? 0 : 1;
        const QModelIndex messages = wire.index(WireModel::MessagesGroup, 0);
        for (int m = 0; m < wire.rowCount(messages); ++m) {
            const QModelIndex row = wire.index(m, 0, messages);
            QCOMPARE(row.data(WireModel::CollapsedRole).toBool(), collapsed.contains(m));
            if (!collapsed.contains(m))
                continue;
            const findings::CollapsedMessage *c = nullptr;
            for (const auto &x : v.collapsed)
                if (int(x.index) == m)
                    c = &x;
            // The ticket is what was sent; the original result is one role away, and differs from it.
            QCOMPARE(row.data(WireModel::TicketRole).toString(), toQString(c->ticket));
            QCOMPARE(row.data(WireModel::ContentRole).toString(), toQString(c->ticket));
            const json::Value *original = v.committed.at(std::size_t(m)).findString("content");
            QVERIFY(original);
            QCOMPARE(row.data(WireModel::OriginalContentRole).toString(), toQString(original->asString()));
            QVERIFY(row.data(WireModel::OriginalContentRole).toString() != row.data(WireModel::TicketRole).toString());
            QCOMPARE(row.data(WireModel::StandingRole).toString(), toQString(c->standing));
        }
        QCOMPARE(run->calls[i].collapsedIds.size(), v.collapsed.size());
    }
    QVERIFY2(callsWithCollapse > 0, "the generated run should collapse some results");
}

void TestModels::wireRowsComeWithTheBundle()
{
    // The worker that builds a bundle makes the Wire's rows too (CallBundle::wire): the model shows them as they are,
    // and they are the rows it would have made itself from the same bundle, every role of every cell.
    const RunHandle run = test::loadOrFail(m_generated);
    QVERIFY(run);
    WireModel fromWorker, madeHere;
    for (std::size_t i = 0; i < run->calls.size(); i += 3) {
        const BundleHandle bundle = buildBundle(run, i);
        QVERIFY(bundle->wire);
        auto without = std::make_shared<CallBundle>(*bundle);
        without->wire.reset();
        fromWorker.setBundle(bundle);
        madeHere.setBundle(without);
        QCOMPARE(fromWorker.rowCount(), madeHere.rowCount());
        for (int g = 0; g < fromWorker.rowCount(); ++g) {
            const QModelIndex a = fromWorker.index(g, 0), b = madeHere.index(g, 0);
            QCOMPARE(fromWorker.rowCount(a), madeHere.rowCount(b));
            QVERIFY(g != WireModel::MessagesGroup || fromWorker.rowCount(a) > 0);
            for (int r = 0; r < fromWorker.rowCount(a); ++r)
                for (int c = 0; c < WireModel::ColumnCount; ++c)
                    for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole), int(WireModel::ContentRole),
                                     int(WireModel::OriginalContentRole), int(WireModel::CheckReasonRole),
                                     int(WireModel::BadgeRole), int(WireModel::CollapsedRole),
                                     int(WireModel::ExtraRole), int(WireModel::LoneSurrogatesRole)})
                        QCOMPARE(fromWorker.index(r, c, a).data(role), madeHere.index(r, c, b).data(role));
        }
    }
}

void TestModels::ledgerFilter()
{
    const RunHandle run = test::loadOrFail(m_generated);
    QVERIFY(run);
    const BundleHandle bundle = buildBundle(run, run->calls.size() - 1);
    LedgerModel ledger;
    LedgerFilterModel filter;
    QAbstractItemModelTester t1(&ledger, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t2(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    filter.setSourceModel(&ledger);
    ledger.setBundle(bundle);
    const int total = ledger.rowCount();
    QVERIFY(total > 0);
    QCOMPARE(filter.rowCount(), total);

    filter.setScope(LedgerFilterModel::NewRows);
    QCOMPARE(filter.rowCount(), ledger.newRowCount());
    filter.setScope(LedgerFilterModel::AttentionRows);
    for (int r = 0; r < filter.rowCount(); ++r)
        QVERIFY(filter.index(r, 0).data(LedgerModel::MarksRole).toInt() &
                (LedgerModel::ConflictMark | LedgerModel::ContingentMark | LedgerModel::UnsettledMark |
                 LedgerModel::MalformedMark));
    filter.setScope(LedgerFilterModel::AllRows);

    filter.setText(QStringLiteral("CALL_3"));
    QVERIFY(filter.rowCount() > 0);
    QVERIFY(filter.rowCount() < total);
    for (int r = 0; r < filter.rowCount(); ++r) {
        bool any = false;
        for (int c = 0; c < LedgerModel::ColumnCount; ++c)
            any = any || filter.index(r, c).data().toString().contains(QStringLiteral("call_3"), Qt::CaseInsensitive);
        QVERIFY(any);
    }
    filter.setText(QString());

    // Sorting by iteration puts the rows in iteration order; by row number back in ledger order.
    filter.sort(LedgerModel::IterationColumn, Qt::DescendingOrder);
    double last = 1e9;
    for (int r = 0; r < filter.rowCount(); ++r) {
        const double it = filter.index(r, LedgerModel::IterationColumn).data(LedgerModel::SortRole).toDouble();
        QVERIFY(it <= last);
        last = it;
    }
    // By marks: in the order of the marks' flags, rows with equal marks in the order they had (a stable sort).
    filter.sort(LedgerModel::RowColumn, Qt::AscendingOrder);
    filter.sort(LedgerModel::MarksColumn, Qt::AscendingOrder);
    for (int r = 1; r < filter.rowCount(); ++r) {
        const QModelIndex a = filter.index(r - 1, 0), b = filter.index(r, 0);
        const int ma = a.data(LedgerModel::MarksRole).toInt(), mb = b.data(LedgerModel::MarksRole).toInt();
        QVERIFY(ma <= mb);
        if (ma == mb)
            QVERIFY(a.data(LedgerModel::RowIndexRole).toInt() < b.data(LedgerModel::RowIndexRole).toInt());
    }
    filter.sort(LedgerModel::RowColumn, Qt::AscendingOrder);
    for (int r = 0; r < filter.rowCount(); ++r)
        QCOMPARE(filter.index(r, 0).data(LedgerModel::RowIndexRole).toInt(), r);
    QCOMPARE(filter.sortColumn(), -1); // the ledger's own order: nothing to sort at the next call
    // A new call's ledger is sorted again as the view asks (a model reset keeps the proxy's sort).
    filter.sort(LedgerModel::RowColumn, Qt::DescendingOrder);
    ledger.setBundle(buildBundle(run, run->calls.size() / 2));
    for (int r = 0; r < filter.rowCount(); ++r)
        QCOMPARE(filter.index(r, 0).data(LedgerModel::RowIndexRole).toInt(), filter.rowCount() - 1 - r);
}

void TestModels::jumps()
{
    const RunHandle run = test::loadOrFail(m_damaged);
    QVERIFY(run);
    const auto &calls = run->calls;
    const auto firstFrom = [&](std::size_t from, auto pred) -> std::optional<std::size_t> {
        for (std::size_t i = from + 1; i < calls.size(); ++i)
            if (pred(calls[i]))
                return i;
        return std::nullopt;
    };
    for (std::size_t from = 0; from < calls.size(); ++from) {
        QCOMPARE(jumpTarget(calls, from, Jump::NextMiss), firstFrom(from, isCacheMiss));
        QCOMPARE(jumpTarget(calls, from, Jump::NextLedgerChange),
                 firstFrom(from, [](const recording::CallSummary &c) { return c.ledgerChanged; }));
        QCOMPARE(jumpTarget(calls, from, Jump::NextDamaged),
                 firstFrom(from, [](const recording::CallSummary &c) { return c.damagedParts > 0 || c.damaged; }));
    }
    const auto damaged = jumpTarget(calls, 0, Jump::NextDamaged);
    QVERIFY2(damaged.has_value(), "the damaged run has a damaged call");
    QCOMPARE(jumpTarget(calls, calls.size() - 1, Jump::PreviousDamaged).has_value(), true);
    QCOMPARE(jumpTarget(calls, 0, Jump::PreviousMiss), std::optional<std::size_t>());
}

void TestModels::serviceSupersedes()
{
    const RunHandle run = test::loadOrFail(m_generated);
    QVERIFY(run);
    CallViewService service;
    QSignalSpy ready(&service, &CallViewService::ready);
    service.setRun(run);
    // Many requests while the first builds: only the last is delivered (besides, at most, the first).
    for (std::size_t i = 0; i < run->calls.size(); ++i)
        service.request(i);
    QTRY_VERIFY(service.current() && service.current()->ordinal == run->calls.size() - 1);
    QTRY_VERIFY(!service.isBusy());
    QVERIFY(ready.count() <= 2);
    for (const QList<QVariant> &args : std::as_const(ready)) {
        const auto b = args.at(0).value<BundleHandle>();
        QVERIFY(b->ordinal == 0 || b->ordinal == run->calls.size() - 1);
    }
    // A new run drops whatever the old one still had in flight.
    service.request(3);
    service.setRun(nullptr);
    QTRY_VERIFY(!service.isBusy());
    QVERIFY(!service.current());
}

void TestModels::serviceBuildsTheNextCallAhead()
{
    const RunHandle run = test::loadOrFail(m_generated);
    QVERIFY(run);
    QVERIFY(run->calls.size() >= 4);
    CallViewService service;
    QSignalSpy ready(&service, &CallViewService::ready);
    service.setRun(run);
    service.request(1);
    QTRY_VERIFY(service.current() && service.current()->ordinal == 1);
    QVERIFY(!service.ahead());
    // Left on screen, the call has the next one built ahead, and asking for it is answered at once: from the very
    // bundle built ahead, before the event loop runs again.
    QTRY_VERIFY_WITH_TIMEOUT(service.ahead() && !service.isBusy(), 5000);
    const BundleHandle ahead = service.ahead();
    QCOMPARE(ahead->ordinal, std::size_t(2));
    ready.clear();
    service.request(2);
    QCOMPARE(ready.count(), 1);
    QCOMPARE(ready.at(0).at(0).value<BundleHandle>(), ahead);
    QCOMPARE(service.current(), ahead);
    QVERIFY(!service.ahead());
    // A jump elsewhere drops what was built ahead of the call it leaves.
    QTRY_VERIFY_WITH_TIMEOUT(service.ahead() && service.ahead()->ordinal == 3 && !service.isBusy(), 5000);
    service.request(0);
    QTRY_VERIFY(service.current() && service.current()->ordinal == 0);
    QVERIFY(!service.ahead() || service.ahead()->ordinal == 1);
    // Requests in quick succession end on the last, whatever was building ahead meanwhile.
    ready.clear();
    service.request(2);
    service.request(3);
    QTRY_VERIFY(service.current() && service.current()->ordinal == 3);
    QVERIFY(!service.ahead() || service.ahead()->ordinal == 4);
    // The last call has nothing after it.
    service.request(run->calls.size() - 1);
    QTRY_VERIFY(service.current() && service.current()->ordinal == run->calls.size() - 1);
    QTest::qWait(CallViewService::kIdleBeforeAheadMs * 2);
    QVERIFY(!service.ahead());
    QVERIFY(!service.isBusy());
}

QTEST_GUILESS_MAIN(TestModels)
#include "tst_models.moc"
