#include "core/findings/collapse.h"
#include "core/json/parser.h"
#include "core/json/writer.h"

#include <QTest>

using namespace tf;
using findings::ServeMode;

namespace {

// A parsed document and its source text, kept alive together (unescaped strings are views into the text).
struct Doc
{
    explicit Doc(std::string json)
        : text(std::move(json))
    {
        json::ParseError error;
        value = json::parse(text, arena, error);
        if (error.failed())
            qFatal("unexpected parse error: %s", error.describe().c_str());
    }
    std::string text;
    json::StringArena arena;
    json::Value value;
};

QStringList qList(const std::vector<std::string> &v)
{
    QStringList out;
    for (const std::string &s : v)
        out << QString::fromStdString(s);
    return out;
}

std::vector<std::string> stdList(const QStringList &list)
{
    std::vector<std::string> out;
    for (const QString &s : list)
        out.push_back(s.toStdString());
    return out;
}

QList<int> qIndices(const std::vector<std::size_t> &v)
{
    QList<int> out;
    for (std::size_t i : v)
        out << int(i);
    return out;
}

std::string standing(const std::string &id, const std::string &value, const std::string &extra = {})
{
    return R"({"kind":"standing","toolCallId":")" + id + R"(","standing":")" + value + R"(")" + extra +
           R"(,"assertions":[],"declaredOn":"answer","iteration":1})";
}

std::string toolMessage(const std::string &id, const std::string &content = "result", const std::string &extra = {})
{
    return R"({"role":"tool","toolCallId":")" + id + R"(","toolName":"look")" + extra + R"(,"content":")" + content +
           R"("})";
}

std::string array(std::initializer_list<std::string> items)
{
    std::string out = "[";
    for (const std::string &item : items)
        out += (out.size() > 1 ? "," : "") + item;
    return out + "]";
}

} // namespace

class TestCollapse : public QObject
{
    Q_OBJECT

private slots:
    void isResultMessage_data();
    void isResultMessage();
    void servedIds_data();
    void servedIds();
    void undeclaredIds_data();
    void undeclaredIds();
    void offeredIds_data();
    void offeredIds();
    void tickets_data();
    void tickets();
    void collapse_data();
    void collapse();
    void rewrittenMessageIsAShallowCopy();
    void unchangedMessagesKeepIdentity();
    void secondPassReturnsTheSameArray();
    void absentLedgerReturnsTheInputItself();
    void collapsedInfoNamesTheDecidingRow();
};

void TestCollapse::isResultMessage_data()
{
    QTest::addColumn<QString>("message");
    QTest::addColumn<bool>("result");
    QTest::newRow("tool-message") << R"({"role":"tool","toolCallId":"c1","content":"x"})" << true;
    QTest::newRow("tool-without-id-is-still-a-result") << R"({"role":"tool","content":"x"})" << true;
    QTest::newRow("not-dispatched-null") << R"({"role":"tool","toolCallId":"c1","notDispatched":null})" << false;
    QTest::newRow("not-dispatched-false") << R"({"role":"tool","toolCallId":"c1","notDispatched":false})" << false;
    QTest::newRow("not-dispatched-empty-string") << R"({"role":"tool","toolCallId":"c1","notDispatched":""})" << false;
    QTest::newRow("not-dispatched-object") << R"({"role":"tool","toolCallId":"c1","notDispatched":{}})" << false;
    QTest::newRow("not-dispatched-true") << R"({"role":"tool","toolCallId":"c1","notDispatched":true})" << false;
    QTest::newRow("assistant") << R"({"role":"assistant","content":"x"})" << false;
    QTest::newRow("role-case-sensitive") << R"({"role":"Tool","toolCallId":"c1"})" << false;
    QTest::newRow("not-an-object") << R"("tool")" << false;
}

void TestCollapse::isResultMessage()
{
    QFETCH(QString, message);
    QFETCH(bool, result);
    Doc m(message.toStdString());
    QCOMPARE(findings::isResultMessage(m.value), result);
}

void TestCollapse::servedIds_data()
{
    QTest::addColumn<QString>("messages");
    QTest::addColumn<QStringList>("served");
    QTest::newRow("wire-order") << QString::fromStdString(array(
                                       {toolMessage("c2"), R"({"role":"user","content":"u"})", toolMessage("c1")}))
                                << QStringList{"c2", "c1"};
    QTest::newRow("each-once") << QString::fromStdString(
                                      array({toolMessage("c1"), toolMessage("c2"), toolMessage("c1")}))
                               << QStringList{"c1", "c2"};
    QTest::newRow("missing-and-empty-ids-skipped")
        << QString::fromStdString(array({R"({"role":"tool","content":"x"})", toolMessage(""), toolMessage("c1")}))
        << QStringList{"c1"};
    QTest::newRow("settled-call-is-not-served")
        << QString::fromStdString(
               array({toolMessage("c1"), toolMessage("c2"), toolMessage("c3", "not run", R"(,"notDispatched":false)")}))
        << QStringList{"c1", "c2"};
    QTest::newRow("assistant-tool-calls-do-not-count")
        << R"([{"role":"assistant","content":"","toolCallId":"c9","toolCalls":[{"id":"c9","name":"look"}]}])"
        << QStringList{};
}

void TestCollapse::servedIds()
{
    QFETCH(QString, messages);
    QFETCH(QStringList, served);
    Doc m(messages.toStdString());
    QCOMPARE(qList(findings::servedToolCallIds(m.value)), served);
}

void TestCollapse::undeclaredIds_data()
{
    QTest::addColumn<QString>("rows");
    QTest::addColumn<QStringList>("served");
    QTest::addColumn<QStringList>("undeclared");
    QTest::newRow("served-minus-standings")
        << QString::fromStdString(array({standing("c1", "fact"), standing("c3", "open")}))
        << QStringList{"c1", "c2", "c3", "c4"} << QStringList{"c2", "c4"};
    QTest::newRow("deduplicated-in-given-order")
        << QString::fromStdString(array({standing("c1", "noise")})) << QStringList{"c4", "c2", "c4", "c1", "c2"}
        << QStringList{"c4", "c2"};
    QTest::newRow("unknown-id-standing-removes")
        << QString::fromStdString(array({standing("c1", "noise", R"(,"unknownId":true)")})) << QStringList{"c1"}
        << QStringList{};
    QTest::newRow("standing-none-of-the-four-removes")
        << QString::fromStdString(array({standing("c1", "maybe")})) << QStringList{"c1", "c2"} << QStringList{"c2"};
    QTest::newRow("judgment-does-not-remove")
        << QString::fromStdString(
               array({standing("c0", "fact"), R"({"kind":"judgment","toolCallId":"c1","standing":"noise"})"}))
        << QStringList{"c1"} << QStringList{"c1"};
    QTest::newRow("empty-id-kept-as-given")
        << QString::fromStdString(array({standing("c1", "fact")})) << QStringList{""} << QStringList{""};
}

void TestCollapse::undeclaredIds()
{
    QFETCH(QString, rows);
    QFETCH(QStringList, served);
    QFETCH(QStringList, undeclared);
    Doc r(rows.toStdString());
    QCOMPARE(qList(findings::undeclaredIds(stdList(served), findings::foldLedger(r.value))), undeclared);
}

void TestCollapse::offeredIds_data()
{
    QTest::addColumn<QString>("rows"); // "absent" for no ledger
    QTest::addColumn<QStringList>("offered");
    const std::string messages = array({toolMessage("c1"), toolMessage("c2"), toolMessage("c3"), toolMessage("c4"),
                                        toolMessage("c5", "x", R"(,"notDispatched":null)")});
    QTest::newRow("absent-ledger-offers-every-result-newest-first") << "absent" << QStringList{"c4", "c3", "c2", "c1"};
    QTest::newRow("empty-ledger") << "[]" << QStringList{"c4", "c3", "c2", "c1"};
    QTest::newRow("noise-and-ruled-out-retire")
        << QString::fromStdString(array(
               {standing("c1", "fact"), standing("c2", "noise"), standing("c3", "ruled-out"), standing("c4", "open")}))
        << QStringList{"c4", "c1"};
    QTest::newRow("revised-noise-is-nameable-again")
        << QString::fromStdString(array({standing("c2", "noise"), standing("c2", "fact")}))
        << QStringList{"c4", "c3", "c2", "c1"};
    QTest::newRow("retired-fact-leaves") << QString::fromStdString(
                                                array({standing("c1", "fact"), standing("c1", "ruled-out")}))
                                         << QStringList{"c4", "c3", "c2"};
    QTest::newRow("settled-call-never-offered-even-with-standing")
        << QString::fromStdString(array({standing("c5", "open", R"(,"unknownId":true)")}))
        << QStringList{"c4", "c3", "c2", "c1"};
}

void TestCollapse::offeredIds()
{
    QFETCH(QString, rows);
    QFETCH(QStringList, offered);
    Doc m(array({toolMessage("c1"), toolMessage("c2"), toolMessage("c3"), toolMessage("c4"),
                 toolMessage("c5", "x", R"(,"notDispatched":null)")}));
    if (rows == QLatin1String("absent")) {
        QCOMPARE(qList(findings::offeredResultIds(m.value, nullptr)), offered);
        return;
    }
    Doc r(rows.toStdString());
    QCOMPARE(qList(findings::offeredResultIds(m.value, &r.value)), offered);
}

void TestCollapse::tickets_data()
{
    QTest::addColumn<QString>("row");
    QTest::addColumn<QString>("message");
    QTest::addColumn<bool>("ledgerOnly");
    QTest::addColumn<QString>("ticket"); // "" when the result does not collapse
    QTest::newRow("noise") << QString::fromStdString(standing("call_5", "noise"))
                           << QString::fromStdString(toolMessage("call_5")) << false
                           << R"({"collapsed":true,"standing":"noise","toolCallId":"call_5"})";
    QTest::newRow("ruled-out") << QString::fromStdString(standing("c4", "ruled-out"))
                               << QString::fromStdString(toolMessage("c4")) << false
                               << R"({"collapsed":true,"standing":"ruled-out","toolCallId":"c4"})";
    QTest::newRow("fact-under-ledger-only")
        << QString::fromStdString(standing("c1", "fact")) << QString::fromStdString(toolMessage("c1")) << true
        << R"({"collapsed":true,"standing":"fact","toolCallId":"c1"})";
    QTest::newRow("fact-under-ledger-and-facts-stays")
        << QString::fromStdString(standing("c1", "fact")) << QString::fromStdString(toolMessage("c1")) << false << "";
    QTest::newRow("open-never") << QString::fromStdString(standing("c1", "open"))
                                << QString::fromStdString(toolMessage("c1")) << true << "";
    QTest::newRow("standing-none-of-the-four-never")
        << QString::fromStdString(standing("c1", "Noise")) << QString::fromStdString(toolMessage("c1")) << true << "";
    QTest::newRow("ticket-with-ref")
        << QString::fromStdString(standing("c1", "ruled-out", R"(,"ref":"art_9f3c")"))
        << QString::fromStdString(toolMessage("c1")) << false
        << R"({"collapsed":true,"standing":"ruled-out","toolCallId":"c1","ref":"art_9f3c"})";
    QTest::newRow("empty-ref-is-present")
        << QString::fromStdString(standing("c1", "noise", R"(,"ref":"")")) << QString::fromStdString(toolMessage("c1"))
        << false << R"({"collapsed":true,"standing":"noise","toolCallId":"c1","ref":""})";
    QTest::newRow("id-escaped-like-json-stringify")
        << QString::fromStdString(standing(R"(a\"b\\c\u0001\ud83d)", "noise"))
        << QString::fromStdString(toolMessage(R"(a\"b\\c\u0001\ud83d)")) << false
        << R"({"collapsed":true,"standing":"noise","toolCallId":"a\"b\\c\u0001\ud83d"})";
    QTest::newRow("settled-message-never")
        << QString::fromStdString(standing("c1", "noise"))
        << QString::fromStdString(toolMessage("c1", "x", R"(,"notDispatched":false)")) << false << "";
    QTest::newRow("message-without-id-never")
        << QString::fromStdString(standing("c1", "noise")) << R"({"role":"tool","content":"x"})" << false << "";
    QTest::newRow("no-standing-never") << QString::fromStdString(standing("c1", "noise"))
                                       << QString::fromStdString(toolMessage("c2")) << true << "";
}

void TestCollapse::tickets()
{
    QFETCH(QString, row);
    QFETCH(QString, message);
    QFETCH(bool, ledgerOnly);
    QFETCH(QString, ticket);
    Doc rows("[" + row.toStdString() + "]");
    Doc m(message.toStdString());
    const auto got = findings::ticketFor(m.value, findings::foldLedger(rows.value),
                                         ledgerOnly ? ServeMode::LedgerOnly : ServeMode::LedgerAndFacts);
    QCOMPARE(got.has_value(), !ticket.isEmpty());
    if (got)
        QCOMPARE(QString::fromStdString(*got), ticket);
}

void TestCollapse::collapse_data()
{
    QTest::addColumn<QString>("messages");
    QTest::addColumn<QString>("rows");
    QTest::addColumn<bool>("ledgerOnly");
    QTest::addColumn<QList<int>>("changed");
    const std::string noiseTicket = R"({\"collapsed\":true,\"standing\":\"noise\",\"toolCallId\":\"c1\"})";
    const std::string rows = array({standing("c1", "noise"), standing("c2", "fact"), standing("c3", "open")});
    const auto q = [](const std::string &s) { return QString::fromStdString(s); };
    QTest::newRow("v1-wire") << q(array({R"({"role":"user","content":"user"})", toolMessage("c1"), toolMessage("c9")}))
                             << q(rows) << false << QList<int>{1};
    QTest::newRow("open-and-undeclared-stay")
        << q(array({toolMessage("c3"), toolMessage("c9")})) << q(rows) << true << QList<int>{};
    QTest::newRow("fact-only-under-ledger-only") << q(array({toolMessage("c2")})) << q(rows) << true << QList<int>{0};
    QTest::newRow("fact-stays-by-default") << q(array({toolMessage("c2")})) << q(rows) << false << QList<int>{};
    QTest::newRow("exact-ticket-untouched")
        << q(array({toolMessage("c1", noiseTicket)})) << q(rows) << false << QList<int>{};
    QTest::newRow("near-ticket-with-spaces-rewritten")
        << q(array({toolMessage("c1", R"({\"collapsed\": true,\"standing\":\"noise\",\"toolCallId\":\"c1\"})")}))
        << q(rows) << false << QList<int>{0};
    QTest::newRow("near-ticket-key-order-rewritten")
        << q(array({toolMessage("c1", R"({\"standing\":\"noise\",\"collapsed\":true,\"toolCallId\":\"c1\"})")}))
        << q(rows) << false << QList<int>{0};
    QTest::newRow("two-messages-same-id-both-collapse")
        << q(array({toolMessage("c1"), toolMessage("c1", "again")})) << q(rows) << false << QList<int>{0, 1};
    QTest::newRow("already-collapsed-and-second-same-id")
        << q(array({toolMessage("c1", noiseTicket), toolMessage("c1")})) << q(rows) << false << QList<int>{1};
    QTest::newRow("not-dispatched-null-never-collapses")
        << q(array({toolMessage("c1", "x", R"(,"notDispatched":null)")})) << q(rows) << false << QList<int>{};
    QTest::newRow("not-dispatched-false-never-collapses")
        << q(array({toolMessage("c1", "x", R"(,"notDispatched":false)")})) << q(rows) << true << QList<int>{};
    QTest::newRow("basis-only-ledger") << q(array({toolMessage("c1")}))
                                       << R"([{"kind":"basis","toolCallId":"c1","basis":"direct"}])" << true
                                       << QList<int>{};
    QTest::newRow("later-fact-revises-noise")
        << q(array({toolMessage("c1")})) << q(array({standing("c1", "noise"), standing("c1", "fact")})) << false
        << QList<int>{};
}

void TestCollapse::collapse()
{
    QFETCH(QString, messages);
    QFETCH(QString, rows);
    QFETCH(bool, ledgerOnly);
    QFETCH(QList<int>, changed);
    Doc m(messages.toStdString());
    Doc r(rows.toStdString());
    const findings::CollapseResult result =
        findings::collapseJudged(m.value, &r.value, ledgerOnly ? ServeMode::LedgerOnly : ServeMode::LedgerAndFacts);
    QCOMPARE(qIndices(result.changed), changed);
    QCOMPARE(result.sameArray, changed.isEmpty());
    QCOMPARE(result.messages.identity() == m.value.identity(), changed.isEmpty());
    QCOMPARE(result.messages.size(), m.value.size()); // length, order and ids never change
    QCOMPARE(qList(findings::servedToolCallIds(result.messages)), qList(findings::servedToolCallIds(m.value)));
    const std::string_view ticketStart = R"({"collapsed":true,)";
    for (int i : changed) {
        const std::string_view content = result.messages.at(std::size_t(i)).find("content")->asString();
        QVERIFY(content.substr(0, ticketStart.size()) == ticketStart);
    }
}

void TestCollapse::rewrittenMessageIsAShallowCopy()
{
    Doc m(R"([{"role":"tool","toolCallId":"c1","content":"big","toolName":"look","injectedBy":"x","extra":{"k":[1]}},
              {"role":"tool","toolCallId":"c2","toolName":"look"}])");
    Doc r(array({standing("c1", "noise"), standing("c2", "ruled-out", R"(,"ref":"art_2")")}));
    const findings::CollapseResult result = findings::collapseJudged(m.value, &r.value, ServeMode::LedgerAndFacts);
    // content is replaced in its slot; every other field stays, in its key order. (Raw strings stay out of the
    // QCOMPARE arguments: moc's preprocessor does not read them there.)
    const std::string first =
        R"({"role":"tool","toolCallId":"c1","content":"{\"collapsed\":true,\"standing\":\"noise\",\"toolCallId\":\"c1\"}","toolName":"look","injectedBy":"x","extra":{"k":[1]}})";
    QCOMPARE(json::stringify(result.messages.at(0)), first);
    // Shallow: the nested field is the same node.
    QCOMPARE(result.messages.at(0).find("extra")->identity(), m.value.at(0).find("extra")->identity());
    // A message without content gains it last, as {...m, content} does.
    const std::string second =
        R"({"role":"tool","toolCallId":"c2","toolName":"look","content":"{\"collapsed\":true,\"standing\":\"ruled-out\",\"toolCallId\":\"c2\",\"ref\":\"art_2\"}"})";
    QCOMPARE(json::stringify(result.messages.at(1)), second);
    // History is never changed: the input still holds the original content.
    QCOMPARE(m.value.at(0).find("content")->asString(), std::string_view("big"));
}

void TestCollapse::unchangedMessagesKeepIdentity()
{
    Doc m(array({R"({"role":"user","content":"u"})", toolMessage("c1"), toolMessage("c9"), toolMessage("c1")}));
    Doc r(array({standing("c1", "noise")}));
    const findings::CollapseResult result = findings::collapseJudged(m.value, &r.value, ServeMode::LedgerAndFacts);
    QCOMPARE(qIndices(result.changed), (QList<int>{1, 3}));
    QCOMPARE(result.messages.at(0).identity(), m.value.at(0).identity());
    QCOMPARE(result.messages.at(2).identity(), m.value.at(2).identity());
    QVERIFY(result.messages.at(1).identity() != m.value.at(1).identity());
    QVERIFY(result.messages.at(3).identity() != m.value.at(3).identity());
}

void TestCollapse::secondPassReturnsTheSameArray()
{
    Doc m(array({toolMessage("c1"), toolMessage("c2"), toolMessage("c3")}));
    Doc r(array({standing("c1", "noise"), standing("c2", "ruled-out", R"(,"ref":"a\"r")"), standing("c3", "fact")}));
    const findings::CollapseResult first = findings::collapseJudged(m.value, &r.value, ServeMode::LedgerOnly);
    QCOMPARE(qIndices(first.changed), (QList<int>{0, 1, 2}));
    const findings::CollapseResult second = findings::collapseJudged(first.messages, &r.value, ServeMode::LedgerOnly);
    QVERIFY(second.sameArray);
    QVERIFY(second.changed.empty());
    QCOMPARE(second.messages.identity(), first.messages.identity());
}

void TestCollapse::absentLedgerReturnsTheInputItself()
{
    Doc m(array({toolMessage("c1")}));
    const findings::CollapseResult result = findings::collapseJudged(m.value, nullptr, ServeMode::LedgerOnly);
    QVERIFY(result.sameArray);
    QCOMPARE(result.messages.identity(), m.value.identity());
    Doc empty("[]");
    QCOMPARE(findings::collapseJudged(m.value, &empty.value, ServeMode::LedgerOnly).messages.identity(),
             m.value.identity());
}

void TestCollapse::collapsedInfoNamesTheDecidingRow()
{
    Doc m(array({toolMessage("c0"), toolMessage("c1")}));
    Doc r(array({standing("c1", "fact"), standing("c1", "ruled-out", R"(,"ref":"art_9f3c")")}));
    const findings::CollapseResult result = findings::collapseJudged(m.value, &r.value, ServeMode::LedgerAndFacts);
    QCOMPARE(result.collapsed.size(), std::size_t(1));
    const findings::CollapsedMessage &c = result.collapsed.front();
    QCOMPARE(c.index, std::size_t(1));
    QCOMPARE(c.toolCallId, std::string("c1"));
    QCOMPARE(c.standing, std::string("ruled-out"));
    QCOMPARE(c.standingRowIndex, std::size_t(1)); // the last row wins
    const std::string ticket = R"({"collapsed":true,"standing":"ruled-out","toolCallId":"c1","ref":"art_9f3c"})";
    QCOMPARE(c.ticket, ticket);
    QCOMPARE(result.messages.at(1).find("content")->asString(), std::string_view(c.ticket));
}

QTEST_APPLESS_MAIN(TestCollapse)
#include "tst_collapse.moc"
