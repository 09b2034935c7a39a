#include "core/json/parser.h"
#include "core/json/writer.h"
#include "core/recording/commitlogfold.h"
#include "core/recording/statejournal.h"

#include <QTest>

#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>

using namespace tf;

namespace {

// Parsed values borrow from their text and arena, so both live as long as the test's values.
struct Parsed
{
    std::unique_ptr<std::string> text;
    std::unique_ptr<json::StringArena> arena;
    json::Value value;
};

Parsed parseOk(std::string text)
{
    Parsed p{std::make_unique<std::string>(std::move(text)), std::make_unique<json::StringArena>(), {}};
    json::ParseError error;
    p.value = json::parse(*p.text, *p.arena, error);
    if (error.failed())
        qFatal("unexpected parse error in test data: %s\n%s", error.describe().c_str(), p.text->c_str());
    return p;
}

// One trace entry. Paths are JSON string contents, so a U+001F separator is written `\u001f`.
std::string e(const char *verb, const char *path)
{
    return std::string(R"({"path":")") + path + R"(","verb":")" + verb + R"("})";
}

std::string trace(std::initializer_list<std::string> entries)
{
    std::string out = "[";
    for (const std::string &entry : entries)
        out += (out.size() > 1 ? "," : "") + entry;
    return out + "]";
}

// A bundle as the library writes it; only trace, overwrite and updates feed the fold.
std::string bundle(const std::string &traceJson, const std::string &overwrite = "{}", const std::string &updates = "{}")
{
    return R"({"idx":0,"stage":"S","stageId":"s","runtimeStageId":"s#1","trace":)" + traceJson + R"(,"overwrite":)" +
           overwrite + R"(,"updates":)" + updates + R"(,"redactedPaths":[]})";
}

std::string rows(std::initializer_list<std::string> bundles)
{
    std::string out = "[";
    for (const std::string &b : bundles)
        out += (out.size() > 1 ? "," : "") + b;
    return out + "]";
}

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

std::string readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

const json::Value *at(const json::Value &root, const char *path)
{
    return recording::readStatePath(root, recording::splitStatePath(path));
}

} // namespace

class TestCommitLogFold : public QObject
{
    Q_OBJECT

private slots:
    void fold_data();
    void fold();
    void isCommitBundle_data();
    void isCommitBundle();
    void nonBundleRowsAreSkipped();
    void splitStatePath_data();
    void splitStatePath();
    void readStatePath_data();
    void readStatePath();
    void unionTurnsNegativeZeroIntoZero();
    void unknownVerbsAreCounted();
    void sameRowAppliedTwiceCountsAsTwoRows();
    void sharedOverwriteAndUpdatesNodesAreNotIdentical();
    void snapshotsDoNotSeeLaterRows();
    void deltaAppendLeavesAHeldStateAlone();
    void initialStateIsNeverModified();
    void referenceSampleFold();
    void journalCheckpointsMadeAheadGiveTheSameStates();
};

void TestCommitLogFold::fold_data()
{
    QTest::addColumn<QString>("initial"); // empty: no fold base
    QTest::addColumn<QString>("log");
    QTest::addColumn<QString>("expected");

    // set
    QTest::newRow("set-replaces-value") << R"({"p":1,"q":2})"
                                        << q(rows({bundle(trace({e("set", "p")}), R"({"p":[1,2]})")}))
                                        << R"({"p":[1,2],"q":2})";
    QTest::newRow("set-with-missing-overwrite-leaves-member-absent")
        << R"({"p":1,"q":2})" << q(rows({bundle(trace({e("set", "p")}))})) << R"({"q":2})";
    QTest::newRow("set-with-missing-overwrite-still-creates-parents")
        << "" << q(rows({bundle(trace({e("set", R"(a\u001fb)")}))})) << R"({"a":{}})";
    QTest::newRow("set-without-overwrite-key-reads-empty")
        << R"({"p":1})"
        << q(rows({R"({"runtimeStageId":"s#1","trace":[{"path":"p","verb":"set"}],"updates":{"p":9}})"})) << "{}";
    QTest::newRow("consecutive-sets-of-one-path-end-with-its-value")
        << "" << q(rows({bundle(trace({e("set", "p"), e("set", "p")}), R"({"p":{"k":2}})")})) << R"({"p":{"k":2}})";

    // append
    QTest::newRow("append-array-onto-array-concatenates")
        << R"({"h":[1,{"r":"u"}]})" << q(rows({bundle(trace({e("append", "h")}), R"({"h":[{"r":"a"},1]})")}))
        << R"({"h":[1,{"r":"u"},{"r":"a"},1]})";
    QTest::newRow("append-onto-missing-key-sets-tail")
        << "" << q(rows({bundle(trace({e("append", "h")}), R"({"h":[1]})")})) << R"({"h":[1]})";
    QTest::newRow("append-non-array-tail-replaces-array")
        << R"({"h":[1,2]})" << q(rows({bundle(trace({e("append", "h")}), R"({"h":"REDACTED"})")}))
        << R"({"h":"REDACTED"})";
    QTest::newRow("append-array-tail-onto-non-array-replaces")
        << R"({"h":"x"})" << q(rows({bundle(trace({e("append", "h")}), R"({"h":[1]})")})) << R"({"h":[1]})";
    QTest::newRow("append-missing-tail-leaves-member-absent")
        << R"({"h":[1],"k":0})" << q(rows({bundle(trace({e("append", "h")}))})) << R"({"k":0})";
    QTest::newRow("append-to-set-value-of-same-row")
        << "" << q(rows({bundle(trace({e("set", "h"), e("append", "h")}), R"({"h":[1,2]})")})) << R"({"h":[1,2,1,2]})";
    QTest::newRow("append-nested-path") << R"({"a":{"s":[1,2]}})"
                                        << q(rows(
                                               {bundle(trace({e("append", R"(a\u001fs)")}), R"({"a":{"s":[3,4]}})")}))
                                        << R"({"a":{"s":[1,2,3,4]}})";

    // delete
    QTest::newRow("delete-removes-member")
        << R"({"a":{"b":1,"c":2}})" << q(rows({bundle(trace({e("delete", R"(a\u001fb)")}))})) << R"({"a":{"c":2}})";
    QTest::newRow("delete-ignores-overwrite-value")
        << R"({"p":1})" << q(rows({bundle(trace({e("delete", "p")}), R"({"p":5})")})) << "{}";
    QTest::newRow("delete-missing-parent-is-noop")
        << R"({"x":1})" << q(rows({bundle(trace({e("delete", R"(a\u001fb)")}))})) << R"({"x":1})";
    QTest::newRow("delete-primitive-parent-is-noop")
        << R"({"a":5})" << q(rows({bundle(trace({e("delete", R"(a\u001fb)")}))})) << R"({"a":5})";
    QTest::newRow("delete-string-parent-is-noop")
        << R"({"a":"ab"})" << q(rows({bundle(trace({e("delete", R"(a\u001f0)")}))})) << R"({"a":"ab"})";
    QTest::newRow("delete-null-parent-is-noop")
        << R"({"a":null})" << q(rows({bundle(trace({e("delete", R"(a\u001fb)")}))})) << R"({"a":null})";
    QTest::newRow("delete-missing-member-is-noop")
        << R"({"a":{}})" << q(rows({bundle(trace({e("delete", R"(a\u001fb)")}))})) << R"({"a":{}})";
    QTest::newRow("delete-array-element-leaves-hole-as-null")
        << R"({"a":[1,2,3]})" << q(rows({bundle(trace({e("delete", R"(a\u001f1)")}))})) << R"({"a":[1,null,3]})";

    // merge: the README's M(current, src)
    QTest::newRow("merge-primitive-src-replaces")
        << R"({"p":{"a":1}})" << q(rows({bundle(trace({e("merge", "p")}), "{}", R"({"p":7})")})) << R"({"p":7})";
    QTest::newRow("merge-null-src-replaces")
        << R"({"p":[1]})" << q(rows({bundle(trace({e("merge", "p")}), "{}", R"({"p":null})")})) << R"({"p":null})";
    QTest::newRow("merge-missing-src-leaves-member-absent")
        << R"({"p":[1],"k":1})" << q(rows({bundle(trace({e("merge", "p")}), R"({"p":[2]})", "{}")})) << R"({"k":1})";
    QTest::newRow("merge-empty-array-clears")
        << R"({"p":[1,2]})" << q(rows({bundle(trace({e("merge", "p")}), "{}", R"({"p":[]})")})) << R"({"p":[]})";
    QTest::newRow("merge-union-appends-new-elements")
        << R"({"p":["a","b"]})" << q(rows({bundle(trace({e("merge", "p")}), "{}", R"({"p":["c","a"]})")}))
        << R"({"p":["a","b","c"]})";
    QTest::newRow("merge-union-collapses-existing-dups")
        << R"({"p":[1,1,2]})" << q(rows({bundle(trace({e("merge", "p")}), "{}", R"({"p":[2,3]})")}))
        << R"({"p":[1,2,3]})";
    QTest::newRow("merge-union-zero-equals-negative-zero")
        << R"({"p":[0]})" << q(rows({bundle(trace({e("merge", "p")}), "{}", R"({"p":[-0,1]})")})) << R"({"p":[0,1]})";
    QTest::newRow("merge-union-string-1-and-number-1-both-kept")
        << R"({"p":[1]})" << q(rows({bundle(trace({e("merge", "p")}), "{}", R"({"p":["1",1]})")}))
        << R"({"p":[1,"1"]})";
    QTest::newRow("merge-union-booleans-and-null-by-value")
        << R"({"p":[true,null]})" << q(rows({bundle(trace({e("merge", "p")}), "{}", R"({"p":[null,false,true]})")}))
        << R"({"p":[true,null,false]})";
    QTest::newRow("merge-union-keeps-equal-objects-from-earlier-rows")
        << R"({"p":[{"k":1}]})" << q(rows({bundle(trace({e("merge", "p")}), "{}", R"({"p":[{"k":1},[1]]})")}))
        << R"({"p":[{"k":1},{"k":1},[1]]})";
    QTest::newRow("merge-array-onto-non-array-copies-keeping-dups")
        << R"({"p":"x"})" << q(rows({bundle(trace({e("merge", "p")}), "{}", R"({"p":[1,1,-0]})")}))
        << R"({"p":[1,1,-0]})";
    QTest::newRow("merge-array-onto-missing-copies")
        << "" << q(rows({bundle(trace({e("merge", "p")}), "{}", R"({"p":[1]})")})) << R"({"p":[1]})";
    QTest::newRow("merge-objects-to-any-depth")
        << R"({"p":{"a":{"x":1},"b":[1],"c":"s"}})"
        << q(rows({bundle(trace({e("merge", "p")}), "{}", R"({"p":{"a":{"y":2},"b":[2],"d":3}})")}))
        << R"({"p":{"a":{"x":1,"y":2},"b":[1,2],"c":"s","d":3}})";
    QTest::newRow("merge-object-onto-array-gives-index-members")
        << R"({"p":[5,6]})" << q(rows({bundle(trace({e("merge", "p")}), "{}", R"({"p":{"x":1}})")}))
        << R"({"p":{"0":5,"1":6,"x":1}})";
    QTest::newRow("merge-object-onto-primitive-starts-empty")
        << R"({"p":4})" << q(rows({bundle(trace({e("merge", "p")}), "{}", R"({"p":{"x":1}})")})) << R"({"p":{"x":1}})";
    QTest::newRow("merge-object-onto-null-starts-empty")
        << R"({"p":null})" << q(rows({bundle(trace({e("merge", "p")}), "{}", R"({"p":{"x":1}})")}))
        << R"({"p":{"x":1}})";
    QTest::newRow("merge-empty-object-merges-nothing")
        << R"({"p":{"a":1}})" << q(rows({bundle(trace({e("merge", "p")}), "{}", R"({"p":{}})")})) << R"({"p":{"a":1}})";
    QTest::newRow("merge-empty-object-onto-missing-gives-empty-object")
        << "" << q(rows({bundle(trace({e("merge", "p")}), "{}", R"({"p":{}})")})) << R"({"p":{}})";
    QTest::newRow("merge-constructor-as-data-key-is-ordinary")
        << R"({"p":{"a":1}})" << q(rows({bundle(trace({e("merge", "p")}), "{}", R"({"p":{"constructor":{"x":1}}})")}))
        << R"({"p":{"a":1,"constructor":{"x":1}}})";

    // merge: identity of this row's `updates` nodes
    QTest::newRow("merge-same-path-twice-adds-one-object")
        << "" << q(rows({bundle(trace({e("merge", "p"), e("merge", "p")}), "{}", R"({"p":[{"k":1}]})")}))
        << R"({"p":[{"k":1}]})";
    QTest::newRow("merge-same-path-twice-onto-array-adds-one-object")
        << R"({"p":[0]})"
        << q(rows({bundle(trace({e("merge", "p"), e("merge", "p")}), "{}", R"({"p":[{"k":1},[2]]})")}))
        << R"({"p":[0,{"k":1},[2]]})";
    QTest::newRow("merge-set-merge-ends-with-two-objects")
        << ""
        << q(rows({bundle(trace({e("merge", "p"), e("set", "p"), e("merge", "p")}), R"({"p":[{"k":1}]})",
                          R"({"p":[{"k":1}]})")}))
        << R"({"p":[{"k":1},{"k":1}]})";
    QTest::newRow("merge-path-then-ancestor-adds-one-object")
        << ""
        << q(rows(
               {bundle(trace({e("merge", R"(a\u001fx)"), e("merge", "a")}), "{}", R"({"a":{"x":[{"k":1}],"n":1}})")}))
        << R"({"a":{"x":[{"k":1}],"n":1}})";
    QTest::newRow("merge-ancestor-then-path-adds-one-object")
        << ""
        << q(rows({bundle(trace({e("merge", "a"), e("merge", R"(a\u001fx)")}), "{}", R"({"a":{"x":[{"k":1}]}})")}))
        << R"({"a":{"x":[{"k":1}]}})";
    QTest::newRow("merge-identity-does-not-cross-rows")
        << ""
        << q(rows({bundle(trace({e("merge", "p")}), "{}", R"({"p":[{"k":1}]})"),
                   bundle(trace({e("merge", "p")}), "{}", R"({"p":[{"k":1}]})")}))
        << R"({"p":[{"k":1},{"k":1}]})";

    // A path through an element the row placed: the library's `{...x}`, union and append make new containers, so
    // the result no longer counts as that `updates` node.
    QTest::newRow("merge-into-placed-object-makes-a-new-object")
        << ""
        << q(rows(
               {bundle(trace({e("merge", "p"), e("merge", R"(p\u001f0)"), e("merge", "p")}), "{}", R"({"p":[{}]})")}))
        << R"({"p":[{},{}]})";
    QTest::newRow("union-into-placed-array-makes-a-new-array")
        << ""
        << q(rows(
               {bundle(trace({e("merge", "p"), e("merge", R"(p\u001f0)"), e("merge", "p")}), "{}", R"({"p":[[1]]})")}))
        << R"({"p":[[1],[1]]})";
    QTest::newRow("append-onto-placed-array-makes-a-new-array")
        << ""
        << q(rows({bundle(trace({e("merge", "p"), e("append", R"(p\u001f0)"), e("merge", "p")}), R"({"p":[[9]]})",
                          R"({"p":[[1]]})")}))
        << R"({"p":[[1,9],[1]]})";
    QTest::newRow("merge-inside-placed-element-dedups-its-nodes")
        << ""
        << q(rows({bundle(trace({e("merge", "p"), e("merge", R"(p\u001f0\u001fl)")}), "{}",
                          R"({"p":[{"l":[{"z":1}]}]})")}))
        << R"({"p":[{"l":[{"z":1}]}]})";

    // other verbs are merges
    QTest::newRow("unknown-verb-update-is-merge")
        << R"({"p":[1,2]})" << q(rows({bundle(trace({e("update", "p")}), R"({"p":[9]})", R"({"p":[2,3]})")}))
        << R"({"p":[1,2,3]})";
    QTest::newRow("unknown-verb-SET-is-merge-not-set")
        << R"({"p":[1]})" << q(rows({bundle(trace({e("SET", "p")}), R"({"p":"over"})", R"({"p":[2]})")}))
        << R"({"p":[1,2]})";
    QTest::newRow("empty-verb-is-merge") << R"({"p":{"a":1}})"
                                         << q(rows({bundle(trace({e("", "p")}), "{}", R"({"p":{"b":2}})")}))
                                         << R"({"p":{"a":1,"b":2}})";
    QTest::newRow("missing-verb-is-merge")
        << R"({"p":{"a":1}})" << q(rows({bundle(R"([{"path":"p"}])", "{}", R"({"p":{"b":2}})")}))
        << R"({"p":{"a":1,"b":2}})";

    // paths
    QTest::newRow("nested-path-creates-intermediate-objects")
        << "" << q(rows({bundle(trace({e("set", R"(a\u001fb\u001fc)")}), R"({"a":{"b":{"c":1}}})")}))
        << R"({"a":{"b":{"c":1}}})";
    QTest::newRow("nested-path-replaces-primitive-parent-with-object")
        << R"({"a":5,"z":0})" << q(rows({bundle(trace({e("set", R"(a\u001fb)")}), R"({"a":{"b":1}})")}))
        << R"({"a":{"b":1},"z":0})";
    QTest::newRow("nested-path-replaces-string-parent-with-object")
        << R"({"a":"text"})" << q(rows({bundle(trace({e("merge", R"(a\u001fb)")}), "{}", R"({"a":{"b":[1]}})")}))
        << R"({"a":{"b":[1]}})";
    QTest::newRow("nested-path-replaces-null-parent-with-object")
        << R"({"a":null})" << q(rows({bundle(trace({e("append", R"(a\u001fb)")}), R"({"a":{"b":[1]}})")}))
        << R"({"a":{"b":[1]}})";
    QTest::newRow("nested-path-keeps-sibling-members")
        << R"({"a":{"x":1,"b":{"y":2}}})"
        << q(rows({bundle(trace({e("set", R"(a\u001fb\u001fz)")}), R"({"a":{"b":{"z":3}}})")}))
        << R"({"a":{"x":1,"b":{"y":2,"z":3}}})";
    QTest::newRow("dot-is-an-ordinary-character")
        << "" << q(rows({bundle(trace({e("set", "meta.data")}), R"({"meta.data":1})")})) << R"({"meta.data":1})";
    QTest::newRow("empty-path-is-one-empty-key")
        << "" << q(rows({bundle(trace({e("set", "")}), R"({"":1})")})) << R"({"":1})";
    QTest::newRow("array-index-segment-writes-element")
        << R"({"a":[1,{"x":1,"y":0}]})"
        << q(rows({bundle(trace({e("set", R"(a\u001f1\u001fx)")}), R"({"a":[0,{"x":2}]})")}))
        << R"({"a":[1,{"x":2,"y":0}]})";
    QTest::newRow("array-index-segment-replaces-primitive-element")
        << R"({"a":[1,2]})" << q(rows({bundle(trace({e("set", R"(a\u001f0\u001fx)")}), R"({"a":[{"x":3}]})")}))
        << R"({"a":[{"x":3},2]})";
    QTest::newRow("array-index-segment-as-last-sets-element")
        << R"({"a":[1,2]})" << q(rows({bundle(trace({e("set", R"(a\u001f1)")}), R"({"a":[0,"two"]})")}))
        << R"({"a":[1,"two"]})";
    QTest::newRow("refused-constructor-leaves-created-parent")
        << "" << q(rows({bundle(trace({e("set", R"(cfg\u001fconstructor)")}), R"({"cfg":{"constructor":1}})")}))
        << R"({"cfg":{}})";
    QTest::newRow("refused-prototype-mid-path-keeps-parents-before-it")
        << "" << q(rows({bundle(trace({e("set", R"(a\u001fprototype\u001fx)")}), R"({"a":{"prototype":{"x":1}}})")}))
        << R"({"a":{}})";
    QTest::newRow("refused-proto-as-first-segment-writes-nothing")
        << R"({"k":1})" << q(rows({bundle(trace({e("merge", "__proto__")}), "{}", R"({"__proto__":{"x":1}})")}))
        << R"({"k":1})";
    QTest::newRow("refused-segment-in-delete-does-nothing")
        << R"({"a":{"prototype":1}})" << q(rows({bundle(trace({e("delete", R"(a\u001fprototype)")}))}))
        << R"({"a":{"prototype":1}})";
    QTest::newRow("refused-segment-in-append-keeps-created-parent")
        << R"({"a":5})" << q(rows({bundle(trace({e("append", R"(a\u001f__proto__)")}), R"({"a":{"__proto__":[1]}})")}))
        << R"({"a":{}})";

    // fold base
    QTest::newRow("initial-base-carries-keys-the-log-never-writes")
        << R"({"keep":{"n":1},"p":0})" << q(rows({bundle(trace({e("set", "p")}), R"({"p":2})")}))
        << R"({"keep":{"n":1},"p":2})";
    QTest::newRow("log-only-starts-from-empty-object")
        << "" << q(rows({bundle(trace({e("set", "p")}), R"({"p":2})")})) << R"({"p":2})";
    QTest::newRow("non-object-initial-state-starts-from-empty-object")
        << "[1,2]" << q(rows({bundle(trace({e("set", "p")}), R"({"p":2})")})) << R"({"p":2})";
    QTest::newRow("empty-trace-changes-nothing")
        << R"({"p":2})" << q(rows({bundle("[]", R"({"p":5})", R"({"p":6})")})) << R"({"p":2})";
}

void TestCommitLogFold::fold()
{
    QFETCH(QString, initial);
    QFETCH(QString, log);
    QFETCH(QString, expected);

    const Parsed base = parseOk(initial.isEmpty() ? "null" : initial.toStdString());
    const Parsed logValue = parseOk(log.toStdString());
    const Parsed want = parseOk(expected.toStdString());

    recording::CommitLogFold fold(initial.isEmpty() ? nullptr : &base.value);
    for (const json::Value &row : logValue.value)
        QVERIFY(fold.apply(row));
    if (!json::deepEqual(fold.state(), want.value))
        QFAIL(qPrintable(QStringLiteral("got %1, expected %2")
                             .arg(q(json::stringify(fold.state())), q(json::stringify(want.value)))));
}

void TestCommitLogFold::isCommitBundle_data()
{
    QTest::addColumn<QString>("row");
    QTest::addColumn<bool>("bundle");
    QTest::newRow("full-bundle") << q(bundle("[]")) << true;
    QTest::newRow("without-overwrite-and-updates") << R"({"runtimeStageId":"x#1","trace":[]})" << true;
    QTest::newRow("idx-stage-and-stageId-not-checked")
        << R"({"idx":"nine","stage":5,"runtimeStageId":"","trace":[]})" << true;
    QTest::newRow("null") << "null" << false;
    QTest::newRow("string") << R"("not a bundle")" << false;
    QTest::newRow("number") << "3" << false;
    QTest::newRow("array") << "[]" << false;
    QTest::newRow("without-trace") << R"({"runtimeStageId":"x#1"})" << false;
    QTest::newRow("trace-is-object") << R"({"runtimeStageId":"x#1","trace":{"path":"p"}})" << false;
    QTest::newRow("runtimeStageId-number") << R"({"runtimeStageId":9,"trace":[]})" << false;
    QTest::newRow("without-runtimeStageId") << R"({"trace":[]})" << false;
    QTest::newRow("overwrite-array") << R"({"runtimeStageId":"x#1","trace":[],"overwrite":[]})" << false;
    QTest::newRow("overwrite-null") << R"({"runtimeStageId":"x#1","trace":[],"overwrite":null})" << false;
    QTest::newRow("updates-array") << R"({"runtimeStageId":"x#1","trace":[],"updates":["b"]})" << false;
    QTest::newRow("updates-string") << R"({"runtimeStageId":"x#1","trace":[],"updates":"u"})" << false;
}

void TestCommitLogFold::isCommitBundle()
{
    QFETCH(QString, row);
    QFETCH(bool, bundle);
    const Parsed p = parseOk(row.toStdString());
    QCOMPARE(recording::isCommitBundle(p.value), bundle);
}

void TestCommitLogFold::nonBundleRowsAreSkipped()
{
    const Parsed log =
        parseOk(rows({bundle(trace({e("set", "score")}), R"({"score":39})"), R"("not a bundle")", "null",
                      R"({"runtimeStageId":9,"trace":[{"path":"score","verb":"set"}],"overwrite":{"score":2}})",
                      R"({"runtimeStageId":"x#9","trace":[{"path":"score","verb":"merge"}],"updates":["b"]})",
                      R"({"runtimeStageId":"x#3","trace":[{"path":"score","verb":"set"}]})",
                      bundle(trace({e("set", "flag")}), R"({"flag":true})")}));
    recording::CommitLogFold fold(nullptr);
    std::vector<std::size_t> skipped;
    std::vector<std::string> states;
    for (std::size_t i = 0; i < log.value.size(); ++i) {
        if (!fold.apply(log.value.at(i)))
            skipped.push_back(i);
        states.push_back(json::sortedKeyJson(fold.state()));
    }
    QCOMPARE(skipped, (std::vector<std::size_t>{1, 2, 3, 4}));
    // A skipped row keeps its index and changes nothing; a bundle without overwrite reads it as empty.
    QCOMPARE(states, (std::vector<std::string>{R"({"score":39})", R"({"score":39})", R"({"score":39})",
                                               R"({"score":39})", R"({"score":39})", "{}", R"({"flag":true})"}));
}

void TestCommitLogFold::splitStatePath_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QStringList>("segments");
    QTest::newRow("one-segment") << "history" << QStringList{"history"};
    QTest::newRow("unit-separator-splits")
        << "activeByslot\x1fsystemPrompt" << QStringList{"activeByslot", "systemPrompt"};
    QTest::newRow("dot-does-not-split") << "meta.data" << QStringList{"meta.data"};
    QTest::newRow("empty-is-one-empty-segment") << "" << QStringList{""};
    QTest::newRow("trailing-separator-gives-empty-segment") << "a\x1f" << QStringList{"a", ""};
    QTest::newRow("three-segments") << "a\x1f"
                                       "0\x1f"
                                       "b"
                                    << QStringList{"a", "0", "b"};
}

void TestCommitLogFold::splitStatePath()
{
    QFETCH(QString, path);
    QFETCH(QStringList, segments);
    const std::string text = path.toStdString();
    QStringList got;
    for (std::string_view s : recording::splitStatePath(text))
        got << QString::fromUtf8(s.data(), qsizetype(s.size()));
    QCOMPARE(got, segments);
}

void TestCommitLogFold::readStatePath_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("expected"); // empty: missing
    QTest::newRow("top-level") << "a"
                               << R"({"b":[10,{"c":"x"}],"constructor":1})";
    QTest::newRow("nested") << "a\x1f"
                               "b"
                            << R"([10,{"c":"x"}])";
    QTest::newRow("array-index") << "a\x1f"
                                    "b\x1f"
                                    "1\x1f"
                                    "c"
                                 << R"("x")";
    QTest::newRow("non-canonical-index-is-missing") << "a\x1f"
                                                       "b\x1f"
                                                       "01"
                                                    << "";
    QTest::newRow("index-past-end-is-missing") << "a\x1f"
                                                  "b\x1f"
                                                  "2"
                                               << "";
    QTest::newRow("through-number-is-missing") << "a\x1f"
                                                  "b\x1f"
                                                  "0\x1f"
                                                  "c"
                                               << "";
    QTest::newRow("missing-member") << "z"
                                    << "";
    QTest::newRow("refused-constructor-even-as-own-key") << "a\x1f"
                                                            "constructor"
                                                         << "";
    QTest::newRow("refused-proto") << "__proto__"
                                   << "";
    QTest::newRow("refused-prototype") << "prototype"
                                       << "";
}

void TestCommitLogFold::readStatePath()
{
    QFETCH(QString, path);
    QFETCH(QString, expected);
    const Parsed root = parseOk(R"({"a":{"b":[10,{"c":"x"}],"constructor":1}})");
    const std::string text = path.toStdString();
    const json::Value *v = recording::readStatePath(root.value, recording::splitStatePath(text));
    if (expected.isEmpty()) {
        QVERIFY2(!v, v ? json::stringify(*v).c_str() : "");
    } else {
        QVERIFY(v);
        QCOMPARE(q(json::stringify(*v)), expected);
    }
}

void TestCommitLogFold::unionTurnsNegativeZeroIntoZero()
{
    // deepEqual cannot see the sign of zero; a JavaScript Set stores -0 as 0, from either side of the union.
    const Parsed base = parseOk(R"({"p":[-0,"a"],"q":"x"})");
    const Parsed row = parseOk(bundle(trace({e("merge", "p"), e("merge", "q")}), "{}", R"({"p":[-0,2],"q":[-0]})"));
    recording::CommitLogFold fold(&base.value);
    QVERIFY(fold.apply(row.value));
    const json::Value &p = *fold.state().find("p");
    QCOMPARE(p.size(), std::size_t(3));
    QVERIFY(p.at(0).isNumber() && p.at(0).asNumber() == 0 && !std::signbit(p.at(0).asNumber()));
    QCOMPARE(p.at(2).asNumber(), 2.0);
    // A copy (no union) keeps the sign.
    QVERIFY(std::signbit(fold.state().find("q")->at(0).asNumber()));
}

void TestCommitLogFold::unknownVerbsAreCounted()
{
    const Parsed log =
        parseOk(rows({bundle(trace({e("update", "a"), e("merge", "b"), e("SET", "c")}), "{}", R"({"a":1,"b":2,"c":3})"),
                      bundle(trace({e("", "d"), e("set", "e"), e("append", "f"), e("delete", "g")}),
                             R"({"e":1,"f":[1]})", R"({"d":4})")}));
    recording::CommitLogFold fold(nullptr);
    for (const json::Value &row : log.value)
        QVERIFY(fold.apply(row));
    QCOMPARE(fold.unknownVerbCount(), std::size_t(3));
    QCOMPARE(q(json::sortedKeyJson(fold.state())), QStringLiteral(R"({"a":1,"b":2,"c":3,"d":4,"e":1,"f":[1]})"));
}

void TestCommitLogFold::sameRowAppliedTwiceCountsAsTwoRows()
{
    // Applying one parsed row twice shares its `updates` nodes with what the first application placed. The library
    // deep-copies the state per row, so the second application still adds its own object.
    const Parsed row = parseOk(bundle(trace({e("merge", "p"), e("merge", "p")}), "{}", R"({"p":[{"k":1}]})"));
    recording::CommitLogFold fold(nullptr);
    QVERIFY(fold.apply(row.value));
    QCOMPARE(fold.state().find("p")->size(), std::size_t(1));
    QVERIFY(fold.apply(row.value));
    QCOMPARE(fold.state().find("p")->size(), std::size_t(2));
}

void TestCommitLogFold::sharedOverwriteAndUpdatesNodesAreNotIdentical()
{
    // A row built in code may hold one node under both `overwrite` and `updates`. What `set` places is a clone in
    // the library, never identical to the `updates` element, so `[merge p, set p, merge p]` still ends with two.
    const Parsed p = parseOk(R"([{"k":1}])");
    json::Value overwrite = json::Value::object();
    overwrite.set("p", p.value);
    json::Value updates = json::Value::object();
    updates.set("p", p.value);
    const Parsed traceValue = parseOk(trace({e("merge", "p"), e("set", "p"), e("merge", "p")}));
    json::Value row = json::Value::object();
    row.set("runtimeStageId", json::Value::string("s#1"));
    row.set("trace", traceValue.value);
    row.set("overwrite", overwrite);
    row.set("updates", updates);
    recording::CommitLogFold fold(nullptr);
    QVERIFY(fold.apply(row));
    QCOMPARE(q(json::stringify(fold.state())), QStringLiteral(R"({"p":[{"k":1},{"k":1}]})"));
    QCOMPARE(q(json::stringify(p.value)), QStringLiteral(R"([{"k":1}])")); // the row is untouched
}

void TestCommitLogFold::snapshotsDoNotSeeLaterRows()
{
    const Parsed log = parseOk(rows(
        {bundle(trace({e("set", R"(a\u001fb)"), e("set", "h")}), R"({"a":{"b":1},"h":[1]})"),
         bundle(trace({e("set", R"(a\u001fb)"), e("append", "h"), e("delete", "x")}), R"({"a":{"b":2},"h":[2]})")}));
    const Parsed base = parseOk(R"({"x":true})");
    recording::CommitLogFold fold(&base.value);
    QVERIFY(fold.apply(log.value.at(0)));
    const json::Value snapshot = fold.state();
    QVERIFY(fold.apply(log.value.at(1)));
    QCOMPARE(q(json::stringify(snapshot)), QStringLiteral(R"({"x":true,"a":{"b":1},"h":[1]})"));
    QCOMPARE(q(json::stringify(fold.state())), QStringLiteral(R"({"a":{"b":2},"h":[1,2]})"));
}

void TestCommitLogFold::deltaAppendLeavesAHeldStateAlone()
{
    // A delta log appends one message per row. A state someone holds (a view on another thread) is never written:
    // the append copies. A history no one else holds grows in place.
    const Parsed log = parseOk(rows({bundle(trace({e("set", "history")}), R"({"history":[{"role":"user"}]})"),
                                     bundle(trace({e("append", "history")}), R"({"history":[{"role":"assistant"}]})"),
                                     bundle(trace({e("append", "history")}), R"({"history":[{"role":"tool"}]})")}));
    recording::CommitLogFold fold(nullptr);
    QVERIFY(fold.apply(log.value.at(0)));
    QVERIFY(fold.apply(log.value.at(1)));
    const void *grown = fold.state().find("history")->identity();
    const json::Value snapshot = fold.state();
    QVERIFY(fold.apply(log.value.at(2)));
    const json::Value &before = *snapshot.find("history");
    const json::Value &after = *fold.state().find("history");
    QCOMPARE(before.size(), std::size_t(2));
    QCOMPARE(after.size(), std::size_t(3));
    QCOMPARE(before.identity(), grown);
    QVERIFY(after.identity() != before.identity());
    QCOMPARE(q(json::stringify(before)), QStringLiteral(R"([{"role":"user"},{"role":"assistant"}])"));
    QCOMPARE(q(json::stringify(after.at(2))), QStringLiteral(R"({"role":"tool"})"));
    // With no snapshot held, the next append extends the node in place.
    const Parsed more = parseOk(rows({bundle(trace({e("append", "history")}), R"({"history":[{"role":"user"}]})")}));
    const void *live = fold.state().find("history")->identity();
    QVERIFY(fold.apply(more.value.at(0)));
    QCOMPARE(fold.state().find("history")->identity(), live);
}

void TestCommitLogFold::initialStateIsNeverModified()
{
    const Parsed base = parseOk(R"({"h":[1],"o":{"k":[1]},"d":1})");
    const Parsed log =
        parseOk(rows({bundle(trace({e("append", "h"), e("merge", "o"), e("delete", "d"), e("set", R"(o\u001fz)")}),
                             R"({"h":[2],"o":{"z":0}})", R"({"o":{"k":[2]}})")}));
    recording::CommitLogFold fold(&base.value);
    QVERIFY(fold.apply(log.value.at(0)));
    QCOMPARE(q(json::stringify(base.value)), QStringLiteral(R"({"h":[1],"o":{"k":[1]},"d":1})"));
    QCOMPARE(q(json::sortedKeyJson(fold.state())), QStringLiteral(R"({"h":[1,2],"o":{"k":[1,2],"z":0}})"));
}

void TestCommitLogFold::referenceSampleFold()
{
    const Parsed sample =
        parseOk(readFile(TRACEFOLD_TEST_DATA "/samples/agentfootprint-reference-agent-findings.json"));
    const json::Value *log = sample.value.findArray("commitLog");
    QVERIFY(log);
    QCOMPARE(log->size(), std::size_t(53));

    recording::CommitLogFold fold(nullptr); // the sample carries no initialState: log-only
    std::vector<json::Value> states;
    for (const json::Value &row : *log) {
        QVERIFY(fold.apply(row));
        states.push_back(fold.state());
    }
    QCOMPARE(fold.unknownVerbCount(), std::size_t(0));

    // idx 15 appends the first tool call onto the [] that seed#0 set.
    QCOMPARE(states[14].find("llmLatestToolCalls")->size(), std::size_t(0));
    const json::Value *calls = states[15].findArray("llmLatestToolCalls");
    QVERIFY(calls);
    QCOMPARE(calls->size(), std::size_t(1));
    QCOMPARE(q(std::string(calls->at(0).findString("id")->asString())), QStringLiteral("c1"));
    // ...and idx 32 sets it whole.
    QCOMPARE(q(std::string(states[32].find("llmLatestToolCalls")->at(0).findString("id")->asString())),
             QStringLiteral("c2"));

    // activeByslot␟systemPrompt: set with 2 entries, then a two-entry tail appended at idx 18 and idx 35. The log
    // is folded as written, not repaired.
    const auto systemPromptEntries = [&](std::size_t i) {
        const json::Value *v = at(states[i], "activeByslot\x1fsystemPrompt");
        return v && v->isArray() ? v->size() : std::size_t(-1);
    };
    QCOMPARE(systemPromptEntries(1), std::size_t(2));
    QCOMPARE(systemPromptEntries(17), std::size_t(2));
    QCOMPARE(systemPromptEntries(18), std::size_t(4));
    QCOMPARE(systemPromptEntries(34), std::size_t(4));
    QCOMPARE(systemPromptEntries(35), std::size_t(6));
    QCOMPARE(systemPromptEntries(52), std::size_t(6));

    // idx 51 sets finalContent with nothing in overwrite: the member is absent afterwards.
    QVERIFY(states[50].find("finalContent"));
    QVERIFY(!states[51].find("finalContent"));
    QVERIFY(!fold.state().find("finalContent"));

    const json::Value *history = fold.state().findArray("history");
    QVERIFY(history);
    QCOMPARE(history->size(), std::size_t(5));
    QStringList roles;
    for (const json::Value &m : *history)
        roles << q(std::string(m.findString("role")->asString()));
    QCOMPARE(roles, (QStringList{"user", "assistant", "tool", "assistant", "tool"}));

    const json::Value *content = fold.state().findString("llmLatestContent");
    QVERIFY(content);
    QCOMPARE(q(std::string(content->asString())), QStringLiteral(R"({"done":true})"));

    const json::Value *ledger = fold.state().findArray("findingsLedger");
    QVERIFY(ledger);
    QCOMPARE(ledger->size(), std::size_t(4));
    QStringList ledgerRows;
    for (const json::Value &r : *ledger)
        ledgerRows << q(std::string(r.findString("kind")->asString()) + ":" +
                        std::string(r.findString("toolCallId")->asString()));
    QCOMPARE(ledgerRows, (QStringList{"basis:c1", "standing:c1", "basis:c2", "standing:c2"}));
    QCOMPARE(q(std::string(ledger->at(3).findString("standing")->asString())), QStringLiteral("noise"));
    QCOMPARE(q(std::string(ledger->at(3).findString("declaredOn")->asString())), QStringLiteral("answer"));
}

void TestCommitLogFold::journalCheckpointsMadeAheadGiveTheSameStates()
{
    // A ledger appended at every row (one long chain) beside a history set anew at every row (a chain of one).
    constexpr int kRows = 100;
    std::string text = "[";
    for (int i = 0; i < kRows; ++i)
        text += (i ? "," : "") +
                bundle(trace({e(i ? "append" : "set", "ledger"), e("set", "history")}),
                       R"({"ledger":[{"n":)" + std::to_string(i) + R"(}],"history":[)" + std::to_string(i) + "]}");
    const Parsed log = parseOk(text + "]");
    recording::CommitLogFold fold(nullptr);
    recording::StateJournal lazy(*log.text, nullptr), ahead(*log.text, nullptr);
    std::vector<std::string> folded{"{}"};
    for (int i = 0; i < kRows; ++i) {
        QVERIFY(fold.apply(log.value.at(std::size_t(i))));
        folded.push_back(json::stringify(fold.state()));
        lazy.apply(std::size_t(i), log.value.at(std::size_t(i)));
        ahead.apply(std::size_t(i), log.value.at(std::size_t(i)));
    }
    lazy.finish();
    ahead.finish();
    ahead.buildCheckpoints();
    // The ledger's, after every 16th group from the 16th on (16 is the interval of a chain this short); none of the
    // history's.
    QCOMPARE(ahead.checkpointCount(), std::size_t(6));
    QCOMPARE(lazy.checkpointCount(), std::size_t(0));
    for (std::size_t row = kRows + 1; row-- > 0;) { // from the last: the lazy journal's first rebuild replays it all
        QCOMPARE(q(json::stringify(ahead.stateBefore(row))), q(folded[row]));
        QCOMPARE(q(json::stringify(lazy.stateBefore(row))), q(folded[row]));
    }
    QCOMPARE(ahead.checkpointCount(), std::size_t(6)); // every rebuild found its checkpoint made
    QCOMPARE(lazy.checkpointCount(), std::size_t(6));

    // A chain of 20 groups set anew after: its one checkpoint (after group 16) is made from its end, as a rebuild
    // there makes it.
    std::string restarting = "[";
    for (int i = 0; i < 25; ++i)
        restarting += (i ? "," : "") + bundle(trace({e(i == 0 || i == 20 ? "set" : "append", "ledger")}),
                                              R"({"ledger":[)" + std::to_string(i) + "]}");
    const Parsed log2 = parseOk(restarting + "]");
    recording::StateJournal twoChains(*log2.text, nullptr);
    for (int i = 0; i < 25; ++i)
        twoChains.apply(std::size_t(i), log2.value.at(std::size_t(i)));
    twoChains.finish();
    twoChains.buildCheckpoints();
    QCOMPARE(twoChains.checkpointCount(), std::size_t(1));
    QCOMPARE(q(json::stringify(twoChains.stateBefore(20))),
             QStringLiteral(R"({"ledger":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19]})"));
}

QTEST_APPLESS_MAIN(TestCommitLogFold)
#include "tst_commitlogfold.moc"
