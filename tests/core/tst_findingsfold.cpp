#include "core/findings/collapse.h"
#include "core/findings/jsstring.h"
#include "core/findings/ledgerfold.h"
#include "core/json/parser.h"
#include "core/json/writer.h"

#include <QTest>

#include <algorithm>

using namespace tf;

namespace {

json::Value parseOk(const std::string &text, json::StringArena &arena)
{
    json::ParseError error;
    json::Value v = json::parse(text, arena, error);
    if (error.failed())
        qFatal("unexpected parse error: %s in %s", error.describe().c_str(), text.c_str());
    return v;
}

// A ledger and the text it was parsed from, kept alive together (unescaped strings are views into the text).
struct Ledger
{
    explicit Ledger(std::string json)
        : text(std::move(json))
    {
        rows = parseOk(text, arena);
    }
    std::string text;
    json::StringArena arena;
    json::Value rows;
};

std::string fact(const std::string &id, const std::string &assertions)
{
    return R"({"kind":"standing","toolCallId":")" + id + R"(","standing":"fact","assertions":[)" + assertions +
           R"(],"declaredOn":"answer","iteration":1})";
}

std::string standing(const std::string &id, const std::string &value)
{
    return R"({"kind":"standing","toolCallId":")" + id + R"(","standing":")" + value +
           R"(","assertions":[],"declaredOn":"answer","iteration":1})";
}

std::string assertion(const std::string &valueMember, const std::string &stratum = "asserted",
                      const std::string &kind = "port", const std::string &id = "fc1/7",
                      const std::string &predicate = "state")
{
    std::string a = R"({"subject":{"kind":")" + kind + R"(","id":")" + id + R"("},"predicate":")" + predicate + "\"";
    if (!valueMember.empty())
        a += "," + valueMember;
    return a + R"(,"stratum":")" + stratum + R"(","provenance":"tool:x"})";
}

// The conflict keys with U+0000 shown as "|", so a failure prints readably.
QStringList conflictKeys(const findings::LedgerFold &fold)
{
    QStringList keys;
    for (const findings::Conflict &c : fold.conflicts) {
        std::string key = c.key;
        std::replace(key.begin(), key.end(), '\0', '|');
        keys << QString::fromStdString(key);
    }
    return keys;
}

QStringList entryIds(const findings::InsertionOrderedMap &map)
{
    QStringList ids;
    for (const auto &e : map.entries())
        ids << QString::fromStdString(e.key);
    return ids;
}

} // namespace

class TestFindingsFold : public QObject
{
    Q_OBJECT

private slots:
    void rowKind_data();
    void rowKind();
    void mapKeepsFirstPositionAndLastValue();
    void foldOrder_data();
    void foldOrder();
    void assertionKey_data();
    void assertionKey();
    void nulJoinedKeysDoNotCollide();
    void conflictComparison_data();
    void conflictComparison();
    void conflictGroupsOnlyParticipants();
    void conflictsComeOutInFirstSeenKeyOrder();
    void epochsSeparateKeys();
    void witnessesIgnoreStratumAndRepeat();
    void laterStandingRetiresWitness();
    void openRowsAreNotAsserted();
    void unsettledRetention_data();
    void unsettledRetention();
    void hasStanding_data();
    void hasStanding();
    void validateRows_data();
    void validateRows();
    void damagedRowsFoldWithoutCrashing();
    void stringOfFollowsJavaScript_data();
    void stringOfFollowsJavaScript();
    void mapKeysKeepTypesApart();
};

void TestFindingsFold::rowKind_data()
{
    QTest::addColumn<QString>("row");
    QTest::addColumn<int>("kind");
    using K = findings::RowKind;
    QTest::newRow("basis") << R"({"kind":"basis"})" << int(K::Basis);
    QTest::newRow("standing") << R"({"kind":"standing"})" << int(K::Standing);
    QTest::newRow("conflict") << R"({"kind":"conflict"})" << int(K::Conflict);
    QTest::newRow("judgment") << R"({"kind":"judgment"})" << int(K::Judgment);
    QTest::newRow("judgment-error") << R"({"kind":"judgment-error"})" << int(K::JudgmentError);
    QTest::newRow("contingent") << R"({"kind":"contingent"})" << int(K::Contingent);
    QTest::newRow("unsettled-by-absence") << R"({"kind":"unsettled-by-absence"})" << int(K::UnsettledByAbsence);
    QTest::newRow("trailing-space-is-unknown") << R"({"kind":"standing "})" << int(K::Unknown);
    QTest::newRow("capitalised-is-unknown") << R"({"kind":"Standing"})" << int(K::Unknown);
    QTest::newRow("note-is-unknown") << R"({"kind":"note"})" << int(K::Unknown);
    QTest::newRow("missing-kind") << R"({"toolCallId":"c1"})" << int(K::Unknown);
    QTest::newRow("number-kind") << R"({"kind":1})" << int(K::Unknown);
    QTest::newRow("not-an-object") << R"(["standing"])" << int(K::Unknown);
}

void TestFindingsFold::rowKind()
{
    QFETCH(QString, row);
    QFETCH(int, kind);
    Ledger l(row.toStdString());
    QCOMPARE(int(findings::rowKindOf(l.rows)), kind);
}

void TestFindingsFold::mapKeepsFirstPositionAndLastValue()
{
    const json::Value a = json::Value::number(1), b = json::Value::number(2), c = json::Value::number(3);
    findings::InsertionOrderedMap map;
    map.set("x", &a, 0);
    map.set("y", &b, 1);
    map.set("x", &c, 2); // replaces in place: x stays first
    QCOMPARE(map.entries().size(), std::size_t(2));
    QCOMPARE(map.entries()[0].key, std::string("x"));
    QCOMPARE(map.entries()[0].row, &c);
    QCOMPARE(map.entries()[0].rowIndex, std::size_t(2));
    QCOMPARE(map.entries()[1].key, std::string("y"));
    QCOMPARE(map.get("x")->row, &c);
    QVERIFY(map.get("z") == nullptr);
    QVERIFY(!map.empty());
}

void TestFindingsFold::foldOrder_data()
{
    QTest::addColumn<QString>("rows");
    QTest::addColumn<QStringList>("order");     // standingOf keys in fold order
    QTest::addColumn<QStringList>("standings"); // their current standing
    QTest::addColumn<QList<int>>("rowIndices");
    QTest::newRow("update-keeps-first-slot")
        << QString::fromStdString("[" + standing("c1", "fact") + "," + standing("c2", "noise") + "," +
                                  standing("c1", "open") + "]")
        << QStringList{"c1", "c2"} << QStringList{"open", "noise"} << QList<int>{2, 1};
    QTest::newRow("last-row-wins-not-first")
        << QString::fromStdString("[" + standing("c1", "noise") + "," + standing("c1", "ruled-out") + "," +
                                  standing("c1", "fact") + "]")
        << QStringList{"c1"} << QStringList{"fact"} << QList<int>{2};
    QTest::newRow("other-kinds-do-not-enter")
        << QString::fromStdString(R"([{"kind":"basis","toolCallId":"c0"},)" + standing("c1", "open") +
                                  R"(,{"kind":"judgment","toolCallId":"c2","standing":"fact"},)" +
                                  R"({"kind":"standing ","toolCallId":"c3","standing":"fact","assertions":[]}])")
        << QStringList{"c1"} << QStringList{"open"} << QList<int>{1};
    QTest::newRow("any-string-id") << QString::fromStdString("[" + standing("0", "noise") + "," +
                                                             standing("a\\nb", "open") + "]")
                                   << QStringList{"0", "a\nb"} << QStringList{"noise", "open"} << QList<int>{0, 1};
}

void TestFindingsFold::foldOrder()
{
    QFETCH(QString, rows);
    QFETCH(QStringList, order);
    QFETCH(QStringList, standings);
    QFETCH(QList<int>, rowIndices);
    Ledger l(rows.toStdString());
    const findings::LedgerFold fold = findings::foldLedger(l.rows);
    QCOMPARE(entryIds(fold.standingOf), order);
    QStringList got;
    QList<int> gotRows;
    for (const auto &e : fold.standingOf.entries()) {
        got << QString::fromStdString(std::string(e.row->find("standing")->asString()));
        gotRows << int(e.rowIndex);
    }
    QCOMPARE(got, standings);
    QCOMPARE(gotRows, rowIndices);
}

void TestFindingsFold::assertionKey_data()
{
    QTest::addColumn<QString>("assertion");
    QTest::addColumn<QByteArray>("key");
    QTest::newRow("no-epoch-trailing-nul")
        << R"({"subject":{"kind":"port","id":"fc1/7"},"predicate":"state"})" << QByteArray("port\0fc1/7\0state\0", 17);
    QTest::newRow("integer-epoch") << R"({"subject":{"kind":"port","id":"y"},"predicate":"state","epoch":3})"
                                   << QByteArray("port\0y\0state\0"
                                                 "3",
                                                 14);
    QTest::newRow("epoch-js-number-format") << R"({"subject":{"kind":"k","id":"i"},"predicate":"p","epoch":1e21})"
                                            << QByteArray("k\0i\0p\0"
                                                          "1e+21",
                                                          11);
    QTest::newRow("fraction-epoch") << R"({"subject":{"kind":"k","id":"i"},"predicate":"p","epoch":0.5})"
                                    << QByteArray("k\0i\0p\0"
                                                  "0.5",
                                                  9);
    QTest::newRow("null-epoch-is-present")
        << R"({"subject":{"kind":"k","id":"i"},"predicate":"p","epoch":null})" << QByteArray("k\0i\0p\0null", 10);
    QTest::newRow("spaces-kept") << R"({"subject":{"kind":"a b","id":"c"},"predicate":"state "})"
                                 << QByteArray("a b\0c\0state \0", 13);
    QTest::newRow("missing-subject-is-undefined")
        << R"({"predicate":"p"})" << QByteArray("undefined\0undefined\0p\0", 22);
    QTest::newRow("subject-not-an-object") << R"({"subject":"port","predicate":7})"
                                           << QByteArray("undefined\0undefined\0"
                                                         "7\0",
                                                         22);
}

void TestFindingsFold::assertionKey()
{
    QFETCH(QString, assertion);
    QFETCH(QByteArray, key);
    Ledger l(assertion.toStdString());
    const std::string got = findings::assertionKey(l.rows);
    QCOMPARE(QByteArray(got.data(), qsizetype(got.size())), key);
}

void TestFindingsFold::nulJoinedKeysDoNotCollide()
{
    // A space join would merge each pair below into one key and draw a conflict upstream never draws (§2.1).
    Ledger l("[" + fact("c1", assertion(R"("value":"up")", "asserted", "a b", "c")) + "," +
             fact("c2", assertion(R"("value":"down")", "asserted", "a", "b c")) + "," +
             fact("c3", assertion(R"("value":"up")", "asserted", "port", "fc1/7", "state ")) + "," +
             fact("c4", assertion(R"("value":"down")", "asserted", "port", "fc1/7 ", "state")) + "]");
    const findings::LedgerFold fold = findings::foldLedger(l.rows);
    QCOMPARE(fold.asserted.size(), std::size_t(4));
    QVERIFY(fold.conflicts.empty());
}

void TestFindingsFold::conflictComparison_data()
{
    QTest::addColumn<QString>("first");  // the value member of c1's assertion ("" for none)
    QTest::addColumn<QString>("second"); // the value member of c2's assertion
    QTest::addColumn<bool>("conflict");
    QTest::newRow("strings-differ") << R"("value":"up")"
                                    << R"("value":"down")" << true;
    QTest::newRow("strings-equal") << R"("value":"up")"
                                   << R"("value":"up")" << false;
    QTest::newRow("one-vs-string-one") << R"("value":1)"
                                       << R"("value":"1")" << true;
    QTest::newRow("true-vs-one") << R"("value":true)"
                                 << R"("value":1)" << true;
    QTest::newRow("numbers-as-doubles") << R"("value":100)"
                                        << R"("value":1e2)" << false;
    QTest::newRow("zero-and-negative-zero") << R"("value":0)"
                                            << R"("value":-0)" << false;
    QTest::newRow("key-order-insensitive") << R"("value":{"a":1,"b":2})"
                                           << R"("value":{"b":2,"a":1})" << false;
    QTest::newRow("nested-key-order-insensitive") << R"("value":[{"x":{"p":1,"q":2}}])"
                                                  << R"("value":[{"x":{"q":2,"p":1}}])" << false;
    QTest::newRow("array-order-matters") << R"("value":[1,2])"
                                         << R"("value":[2,1])" << true;
    QTest::newRow("known-claim-equals-plain") << R"("value":{"kind":"known","value":"up"})"
                                              << R"("value":"up")" << false;
    QTest::newRow("known-claim-differs") << R"("value":{"kind":"known","value":"up"})"
                                         << R"("value":"down")" << true;
    QTest::newRow("known-claim-unwrapped-only-once") << R"("value":{"kind":"known","value":{"kind":"known","value":1}})"
                                                     << R"("value":{"kind":"known","value":1})" << true;
    QTest::newRow("known-without-value-compares-whole") << R"("value":{"kind":"known"})"
                                                        << R"("value":{"kind":"known"})" << false;
    QTest::newRow("unknown-claim-does-not-participate") << R"("value":{"kind":"unknown"})"
                                                        << R"("value":"down")" << false;
    QTest::newRow("not-applicable-does-not-participate") << R"("value":{"kind":"not-applicable","why":"x"})"
                                                         << R"("value":"down")" << false;
    QTest::newRow("absent-value-does-not-participate") << ""
                                                       << R"("value":"down")" << false;
    QTest::newRow("null-participates") << R"("value":null)"
                                       << R"("value":"x")" << true;
    QTest::newRow("false-participates") << R"("value":false)"
                                        << R"("value":"x")" << true;
    QTest::newRow("zero-participates") << R"("value":0)"
                                       << R"("value":"x")" << true;
    QTest::newRow("empty-string-participates") << R"("value":"")"
                                               << R"("value":"x")" << true;
    QTest::newRow("array-participates") << R"("value":[])"
                                        << R"("value":"x")" << true;
    QTest::newRow("kind-other-participates") << R"("value":{"kind":"other"})"
                                             << R"("value":"x")" << true;
    QTest::newRow("kind-number-participates") << R"("value":{"kind":1})"
                                              << R"("value":"x")" << true;
    QTest::newRow("kind-null-participates") << R"("value":{"kind":null})"
                                            << R"("value":"x")" << true;
}

void TestFindingsFold::conflictComparison()
{
    QFETCH(QString, first);
    QFETCH(QString, second);
    QFETCH(bool, conflict);
    Ledger l("[" + fact("c1", assertion(first.toStdString())) + "," + fact("c2", assertion(second.toStdString())) +
             "]");
    const findings::LedgerFold fold = findings::foldLedger(l.rows);
    QCOMPARE(fold.conflicts.size(), std::size_t(conflict ? 1 : 0));
    if (conflict)
        QCOMPARE(conflictKeys(fold), QStringList{"port|fc1/7|state|"});
}

void TestFindingsFold::conflictGroupsOnlyParticipants()
{
    Ledger l("[" + fact("c1", assertion(R"("value":"up")")) + "," + fact("c2", assertion(R"("value":"down")")) + "," +
             fact("c3", assertion(R"("value":{"kind":"unknown"})")) + "," +
             fact("c4", assertion(R"("value":"sideways")", "quoted")) + "]");
    const findings::LedgerFold fold = findings::foldLedger(l.rows);
    QCOMPARE(fold.conflicts.size(), std::size_t(1));
    // The group holds the asserted, participating assertions; the witnesses every fact-row assertion of the key.
    const findings::Conflict &c = fold.conflicts.front();
    QCOMPARE(c.assertions.size(), std::size_t(2));
    QCOMPARE(json::stringify(*c.assertions[1]->find("value")), std::string("\"down\""));
    QCOMPARE(c.witnesses.size(), std::size_t(4));
    QCOMPARE(c.witnesses[3].rowIndex, std::size_t(3));
}

void TestFindingsFold::conflictsComeOutInFirstSeenKeyOrder()
{
    Ledger l("[" + fact("c1", assertion(R"("value":1)", "asserted", "b") + "," + assertion(R"("value":1)")) + "," +
             fact("c2", assertion(R"("value":2)") + "," + assertion(R"("value":2)", "asserted", "b")) + "," +
             fact("c3", assertion(R"("value":3)", "asserted", "a")) + "]");
    const findings::LedgerFold fold = findings::foldLedger(l.rows);
    QCOMPARE(conflictKeys(fold), (QStringList{"b|fc1/7|state|", "port|fc1/7|state|"}));
}

void TestFindingsFold::epochsSeparateKeys()
{
    const auto withEpoch = [](const std::string &value, const std::string &epoch) {
        return R"({"subject":{"kind":"port","id":"y"},"predicate":"state","value":)" + value + R"(,"epoch":)" + epoch +
               R"(,"stratum":"asserted","provenance":"tool:x"})";
    };
    Ledger l("[" + fact("c1", withEpoch("\"up\"", "1")) + "," + fact("c2", withEpoch("\"down\"", "2")) + "," +
             fact("c3", withEpoch("\"down\"", "3")) + "," + fact("c4", withEpoch("\"up\"", "3")) + "]");
    const findings::LedgerFold fold = findings::foldLedger(l.rows);
    QCOMPARE(conflictKeys(fold), QStringList{"port|y|state|3"});
}

void TestFindingsFold::witnessesIgnoreStratumAndRepeat()
{
    // §3.4: every fact-row assertion with the key, whatever its stratum or value, and a row twice.
    Ledger l("[" + fact("c1", assertion(R"("value":"up")") + "," + assertion("", "quoted")) + "," +
             fact("c2", assertion(R"("value":"down")")) + "]");
    const findings::LedgerFold fold = findings::foldLedger(l.rows);
    QCOMPARE(fold.conflicts.size(), std::size_t(1));
    QList<int> rows;
    for (const findings::AssertionRef &w : fold.conflicts.front().witnesses)
        rows << int(w.rowIndex);
    QCOMPARE(rows, (QList<int>{0, 0, 1}));
}

void TestFindingsFold::laterStandingRetiresWitness()
{
    const std::string conflicting =
        fact("c1", assertion(R"("value":"up")")) + "," + fact("c2", assertion(R"("value":"down")")) +
        R"(,{"kind":"conflict","key":"port\u0000fc1/7\u0000state\u0000","witnesses":[],"iteration":1})";
    Ledger before("[" + conflicting + "]");
    QCOMPARE(findings::foldLedger(before.rows).conflicts.size(), std::size_t(1));
    // The filed conflict row stays as history; the fold is the current set (§2.1).
    Ledger after("[" + conflicting + "," + standing("c2", "ruled-out") + "]");
    QVERIFY(findings::foldLedger(after.rows).conflicts.empty());
}

void TestFindingsFold::openRowsAreNotAsserted()
{
    Ledger l(R"([{"kind":"standing","toolCallId":"c1","standing":"open","assertions":[)" +
             assertion(R"("value":"up")", "quoted") + "]}," + fact("c2", assertion(R"("value":"down")")) + "]");
    const findings::LedgerFold fold = findings::foldLedger(l.rows);
    QCOMPARE(fold.asserted.size(), std::size_t(1));
    QVERIFY(fold.conflicts.empty());
}

void TestFindingsFold::unsettledRetention_data()
{
    const std::string unsettledA = R"({"kind":"unsettled-by-absence","toolCallId":"c1","tryInstead":"A"})";
    const std::string unsettledB = R"({"kind":"unsettled-by-absence","toolCallId":"c1","tryInstead":"B"})";
    const std::string ruledOut = standing("c1", "ruled-out");
    QTest::addColumn<QString>("rows");
    QTest::addColumn<QString>("kept"); // tryInstead of the kept entry, "" when none
    QTest::addColumn<int>("rowIndex");
    QTest::newRow("ruled-out-keeps") << QString::fromStdString("[" + ruledOut + "," + unsettledA + "]") << "A" << 1;
    for (const char *later : {"fact", "noise", "open"})
        QTest::addRow("later-%s-drops", later)
            << QString::fromStdString("[" + ruledOut + "," + unsettledA + "," + standing("c1", later) + "]") << ""
            << -1;
    QTest::newRow("later-ruled-out-keeps")
        << QString::fromStdString("[" + ruledOut + "," + unsettledA + "," + ruledOut + "]") << "A" << 1;
    QTest::newRow("ruled-out-twice-holds-second-row")
        << QString::fromStdString("[" + ruledOut + "," + unsettledA + "," + ruledOut + "," + unsettledB + "]") << "B"
        << 3;
    QTest::newRow("no-standing-drops") << QString::fromStdString("[" + unsettledA + "]") << "" << -1;
    QTest::newRow("standing-filed-after-counts")
        << QString::fromStdString("[" + unsettledA + "," + ruledOut + "]") << "A" << 0;
}

void TestFindingsFold::unsettledRetention()
{
    QFETCH(QString, rows);
    QFETCH(QString, kept);
    QFETCH(int, rowIndex);
    Ledger l(rows.toStdString());
    const findings::LedgerFold fold = findings::foldLedger(l.rows);
    if (kept.isEmpty()) {
        QVERIFY(fold.unsettled.empty());
        return;
    }
    QCOMPARE(fold.unsettled.size(), std::size_t(1));
    QCOMPARE(fold.unsettled[0].toolCallId, std::string("c1"));
    QCOMPARE(QString::fromStdString(std::string(fold.unsettled[0].row->find("tryInstead")->asString())), kept);
    QCOMPARE(int(fold.unsettled[0].rowIndex), rowIndex);
}

void TestFindingsFold::hasStanding_data()
{
    QTest::addColumn<QString>("rows");
    QTest::addColumn<bool>("hasStanding");
    QTest::newRow("empty-ledger") << "[]" << false;
    QTest::newRow("basis-only") << R"([{"kind":"basis","toolCallId":"c1","basis":"direct"}])" << false;
    QTest::newRow("judgment-only") << R"([{"kind":"judgment","toolCallId":"c1","standing":"fact"}])" << false;
    QTest::newRow("misspelt-kind") << R"([{"kind":"Standing","toolCallId":"c1","standing":"fact"}])" << false;
    QTest::newRow("unknown-id-row-counts")
        << R"([{"kind":"standing","toolCallId":"0","standing":"noise","assertions":[],"unknownId":true}])" << true;
    QTest::newRow("standing-none-of-the-four-counts")
        << R"([{"kind":"standing","toolCallId":"c1","standing":"maybe","assertions":[]}])" << true;
    QTest::newRow("ledger-not-an-array") << R"({"kind":"standing"})" << false;
}

void TestFindingsFold::hasStanding()
{
    QFETCH(QString, rows);
    QFETCH(bool, hasStanding);
    Ledger l(rows.toStdString());
    QCOMPARE(findings::foldLedger(l.rows).hasStanding, hasStanding);
}

void TestFindingsFold::validateRows_data()
{
    QTest::addColumn<QString>("rows");
    QTest::addColumn<QStringList>("issues"); // "<index>: <reason>"
    QTest::newRow("well-formed") << QString::fromStdString("[" + fact("c1", assertion(R"("value":"up")")) + "," +
                                                           standing("c2", "noise") + "]")
                                 << QStringList{};
    QTest::newRow("unknown-kinds-are-not-malformed")
        << R"([{"kind":"note","anything":1},{"kind":"standing "}])" << QStringList{};
    QTest::newRow("non-object-row") << QString::fromStdString("[" + standing("c1", "noise") + ",42,null]")
                                    << QStringList{"1: row is a number, not an object",
                                                   "2: row is null, not an object"};
    QTest::newRow("standing-without-assertions")
        << R"([{"kind":"basis","toolCallId":"c0"},{"kind":"standing","toolCallId":"c1","standing":"fact"}])"
        << QStringList{"1: standing row without an \"assertions\" array"};
    QTest::newRow("standing-assertions-not-array")
        << R"([{"kind":"standing","toolCallId":"c1","standing":"fact","assertions":"up"}])"
        << QStringList{"0: standing row with a string \"assertions\", not an array"};
    QTest::newRow("standing-id-not-string")
        << R"([{"kind":"standing","toolCallId":7,"standing":"noise","assertions":[]}])"
        << QStringList{"0: standing row with a number \"toolCallId\", not a string"};
    QTest::newRow("assertion-subject-not-object")
        << R"([{"kind":"standing","toolCallId":"c1","standing":"fact","assertions":[{"subject":"p","predicate":"s"}]}])"
        << QStringList{"0: standing row with assertion 0 lacking a \"subject\" object"};
    QTest::newRow("contingent-without-carriers")
        << R"([{"kind":"contingent","declaredOn":"answer","value":"v","iteration":1}])"
        << QStringList{"0: contingent row without a \"carriers\" array"};
    QTest::newRow("contingent-declared-on-number")
        << R"([{"kind":"contingent","declaredOn":3,"value":"v","carriers":[]}])"
        << QStringList{"0: contingent row whose \"declaredOn\" is neither \"answer\" nor an object"};
    QTest::newRow("unsettled-items-not-array")
        << R"([{"kind":"unsettled-by-absence","toolCallId":"c1","notChecked":"x"}])"
        << QStringList{"0: unsettled-by-absence row with a string \"notChecked\", not an array"};
    QTest::newRow("ledger-not-array") << R"({"kind":"standing"})"
                                      << QStringList{"ledger: the ledger is an object, not an array"};
}

void TestFindingsFold::validateRows()
{
    QFETCH(QString, rows);
    QFETCH(QStringList, issues);
    Ledger l(rows.toStdString());
    QStringList got;
    for (const findings::RowIssue &issue : findings::validateRows(l.rows))
        got << (issue.index == findings::kLedgerIssue ? QStringLiteral("ledger") : QString::number(issue.index)) +
                   QStringLiteral(": ") + QString::fromStdString(issue.reason);
    QCOMPARE(got, issues);
}

void TestFindingsFold::damagedRowsFoldWithoutCrashing()
{
    // Every reader stays defined on types upstream would throw on; validateRows names these rows.
    Ledger l(R"([{"kind":"standing","toolCallId":"c1","standing":"fact","assertions":"up"},
                 {"kind":"standing","toolCallId":"c2","standing":"fact","assertions":[5,null,{"subject":[1]}]},
                 {"kind":"standing","toolCallId":"c3","standing":"fact","assertions":[{"value":"x","stratum":"asserted"}]},
                 {"kind":"standing","standing":"noise"},
                 {"kind":"unsettled-by-absence"}])");
    const findings::LedgerFold fold = findings::foldLedger(l.rows);
    QCOMPARE(fold.standingOf.entries().size(), std::size_t(4));
    QCOMPARE(fold.asserted.size(), std::size_t(4)); // c1 contributes nothing; c2 three; c3 one
    QCOMPARE(fold.asserted[0].key, std::string("undefined\0undefined\0undefined\0", 30));
    QVERIFY(fold.conflicts.empty());
    QVERIFY(fold.unsettled.empty()); // the absent-id standing is noise, not ruled-out
    QVERIFY(!findings::validateRows(l.rows).empty());
}

void TestFindingsFold::stringOfFollowsJavaScript_data()
{
    QTest::addColumn<QString>("value"); // "" stands for an absent value
    QTest::addColumn<QString>("expected");
    QTest::newRow("absent-is-undefined") << ""
                                         << "undefined";
    QTest::newRow("string-as-is") << R"("a b")"
                                  << "a b";
    QTest::newRow("null") << "null"
                          << "null";
    QTest::newRow("true") << "true"
                          << "true";
    QTest::newRow("number-js-format") << "1e21"
                                      << "1e+21";
    QTest::newRow("small-number") << "1e-7"
                                  << "1e-7";
    QTest::newRow("array-joined") << R"([1,null,"x",[2,3],true])"
                                  << "1,,x,2,3,true";
    QTest::newRow("object") << R"({"a":1})"
                            << "[object Object]";
}

void TestFindingsFold::stringOfFollowsJavaScript()
{
    QFETCH(QString, value);
    QFETCH(QString, expected);
    if (value.isEmpty()) {
        QCOMPARE(QString::fromStdString(findings::stringOf(nullptr)), expected);
        return;
    }
    Ledger l(value.toStdString());
    QCOMPARE(QString::fromStdString(findings::stringOf(&l.rows)), expected);
}

void TestFindingsFold::mapKeysKeepTypesApart()
{
    // A JavaScript Map keys by SameValueZero: the number 1 and the string "1" are two results.
    Ledger l(R"([{"kind":"standing","toolCallId":1,"standing":"noise","assertions":[]},
                 {"kind":"standing","toolCallId":"1","standing":"open","assertions":[]},
                 {"kind":"standing","toolCallId":1,"standing":"fact","assertions":[]}])");
    const findings::LedgerFold fold = findings::foldLedger(l.rows);
    QCOMPARE(fold.standingOf.entries().size(), std::size_t(2));
    QCOMPARE(fold.standingOf.entries()[0].rowIndex, std::size_t(2));
    QCOMPARE(fold.standingOf.get("1")->rowIndex, std::size_t(1));
    QCOMPARE(findings::jsMapKey(l.rows.at(0).find("toolCallId")), findings::jsMapKey(l.rows.at(2).find("toolCallId")));
    QVERIFY(findings::jsMapKey(nullptr) != findings::jsMapKey(l.rows.at(1).find("toolCallId")));
}

QTEST_APPLESS_MAIN(TestFindingsFold)
#include "tst_findingsfold.moc"
