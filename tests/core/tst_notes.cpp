#include "core/crypto/sha256.h"
#include "core/generate/recordinggenerator.h"
#include "core/recording/recordingloader.h"
#include "core/report/notes.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace tf;

namespace {

std::shared_ptr<const recording::Run> generated(int calls, std::uint64_t seed, const std::string &name = "run.json")
{
    generate::GeneratorOptions options;
    options.calls = calls;
    options.seed = seed;
    auto result = recording::loadRecordingFromBytes(generate::generateRecording(options), name);
    if (!result.run)
        qFatal("generated recording failed to load: %s", result.error.c_str());
    return result.run;
}

notes::Note callNote(const notes::CallRef &call, std::string text)
{
    notes::Note n;
    n.target.kind = notes::TargetKind::Call;
    n.target.call = call;
    n.text = std::move(text);
    n.created = "2025-01-31T12:00:00Z";
    return n;
}

notes::Note rowNote(const notes::CallRef &call, std::size_t row, std::optional<std::string> id, std::string text)
{
    notes::Note n = callNote(call, std::move(text));
    n.target.kind = notes::TargetKind::LedgerRow;
    n.target.rowIndex = row;
    n.target.toolCallId = std::move(id);
    return n;
}

} // namespace

class TestNotes : public QObject
{
    Q_OBJECT

private slots:
    void sidecarPath();
    void roundTrip();
    void serializedSchema();
    void parseErrors_data();
    void parseErrors();
    void malformedEntriesAreSkippedWithWarnings();
    void missingFileIsNoSidecar();
    void bookmarksToggle();
    void editAndRemove();
    void identityOfFirstMiB();
    void resolveAttachedAndOrphaned();
    void resolveNoticesAnotherRecording();
    void findCallByEpochAlone();
};

void TestNotes::sidecarPath()
{
    QCOMPARE(notes::sidecarPathFor("/data/runs/run-7.json"), std::string("/data/runs/run-7.json.tracefold.json"));
    QCOMPARE(notes::sidecarPathFor("r.ndjson"), std::string("r.ndjson.tracefold.json"));
}

void TestNotes::roundTrip()
{
    notes::Sidecar s;
    s.recording = {"run.json", 12345, std::string(64, 'a')};
    s.bookmarks.push_back({{3, "call-llm#12"}, "2025-01-31T12:00:00Z"});
    s.bookmarks.push_back({{5, "call-llm#20"}, ""});
    s.notes.push_back(callNote({3, "call-llm#12"}, "line one\nline \"two\" <b>"));
    s.notes.push_back(rowNote({3, "call-llm#12"}, 4, std::string("call_2"), "row note"));
    s.notes.push_back(rowNote({4, "call-llm#16"}, 0, std::nullopt, std::string("lone \xED\xA0\x80 surrogate")));
    const std::string text = notes::serializeSidecar(s);
    QVERIFY(text.find("\\ud800") != std::string::npos); // strict UTF-8 on disk
    QVERIFY(text.back() == '\n');
    const notes::ReadResult back = notes::parseSidecar(text, "x.tracefold.json");
    QVERIFY2(back.error.empty(), back.error.c_str());
    QVERIFY(back.warnings.empty());
    QVERIFY(back.sidecar);
    QCOMPARE(back.sidecar->recording, s.recording);
    QCOMPARE(back.sidecar->bookmarks.size(), s.bookmarks.size());
    for (std::size_t i = 0; i < s.bookmarks.size(); ++i) {
        QCOMPARE(back.sidecar->bookmarks[i].call, s.bookmarks[i].call);
        QCOMPARE(back.sidecar->bookmarks[i].created, s.bookmarks[i].created);
    }
    QCOMPARE(back.sidecar->notes.size(), s.notes.size());
    for (std::size_t i = 0; i < s.notes.size(); ++i) {
        QVERIFY(back.sidecar->notes[i].target == s.notes[i].target);
        QCOMPARE(back.sidecar->notes[i].text, s.notes[i].text);
        QCOMPARE(back.sidecar->notes[i].created, s.notes[i].created);
    }
    QCOMPARE(notes::serializeSidecar(*back.sidecar), text);
}

void TestNotes::serializedSchema()
{
    notes::Sidecar s;
    s.recording = {"run.json", 10, "ab"};
    s.notes.push_back(rowNote({2, "call-llm#6"}, 1, std::string("c1"), "t"));
    const std::string text = notes::serializeSidecar(s);
    for (const char *key :
         {"\"version\": 1", "\"recording\"", "\"path\": \"run.json\"", "\"size\": 10", "\"sha256OfFirstMiB\": \"ab\"",
          "\"bookmarks\": []", "\"kind\": \"ledger-row\"", "\"epoch\": 2", "\"callRuntimeStageId\": \"call-llm#6\"",
          "\"rowIndex\": 1", "\"toolCallId\": \"c1\"", "\"text\": \"t\""})
        QVERIFY2(text.find(key) != std::string::npos, key);
}

void TestNotes::parseErrors_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("error");
    QTest::newRow("not-json") << QByteArray("{oops") << "invalid JSON";
    QTest::newRow("not-an-object") << QByteArray("[1]") << "a sidecar is a JSON object";
    QTest::newRow("no-version") << QByteArray("{}") << "no numeric \"version\"";
    QTest::newRow("future-version") << QByteArray("{\"version\":2}") << "unsupported sidecar version 2";
    QTest::newRow("trailing-text") << QByteArray("{\"version\":1} x") << "unexpected text after the sidecar";
}

void TestNotes::parseErrors()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, error);
    const notes::ReadResult r = notes::parseSidecar(text.toStdString(), "side.tracefold.json");
    QVERIFY(!r.sidecar);
    QVERIFY2(r.error.rfind("side.tracefold.json: ", 0) == 0, r.error.c_str());
    QVERIFY2(r.error.find(error.toStdString()) != std::string::npos, r.error.c_str());
}

void TestNotes::malformedEntriesAreSkippedWithWarnings()
{
    const char *text = R"({"version":1,
        "bookmarks":[{"call":{"epoch":2,"callRuntimeStageId":"a"}}, {"call":{}}, 7],
        "notes":[{"target":{"kind":"call","epoch":1,"callRuntimeStageId":"x"},"text":"ok"},
                 {"target":{"kind":"ledger-row","epoch":1,"callRuntimeStageId":"x"},"text":"no row"},
                 {"target":{"kind":"planet","epoch":1},"text":"bad kind"},
                 {"target":{"kind":"call","epoch":1.5},"text":"bad epoch"},
                 {"text":"no target"}],
        "future":{"ignored":true}})";
    const notes::ReadResult r = notes::parseSidecar(text, "s");
    QVERIFY(r.error.empty());
    QVERIFY(r.sidecar);
    QCOMPARE(r.sidecar->bookmarks.size(), std::size_t(1));
    QCOMPARE(r.sidecar->notes.size(), std::size_t(1));
    QCOMPARE(r.sidecar->notes[0].text, std::string("ok"));
    QCOMPARE(r.warnings.size(), std::size_t(6));
    QVERIFY(r.warnings[0].rfind("bookmarks[1] skipped", 0) == 0);
    QVERIFY(r.warnings[2].rfind("notes[1] skipped", 0) == 0);
}

void TestNotes::missingFileIsNoSidecar()
{
    QTemporaryDir dir;
    const notes::ReadResult r =
        notes::readSidecarFile((dir.path() + QStringLiteral("/none.tracefold.json")).toStdString());
    QVERIFY(!r.sidecar);
    QVERIFY(r.error.empty());
    // A file on disk is read.
    const std::string path = (dir.path() + QStringLiteral("/r.json.tracefold.json")).toStdString();
    notes::Sidecar s;
    s.notes.push_back(callNote({1, "c"}, "on disk"));
    std::ofstream(path) << notes::serializeSidecar(s);
    const notes::ReadResult back = notes::readSidecarFile(path);
    QVERIFY(back.sidecar);
    QCOMPARE(back.sidecar->notes[0].text, std::string("on disk"));
}

void TestNotes::bookmarksToggle()
{
    notes::Sidecar s;
    const notes::CallRef c{2, "call-llm#6"};
    QVERIFY(!notes::isBookmarked(s, c));
    QVERIFY(notes::toggleBookmark(s, c, "t1"));
    QVERIFY(notes::isBookmarked(s, c));
    QVERIFY(!notes::isBookmarked(s, {2, "call-llm#7"}));
    QVERIFY(!notes::toggleBookmark(s, c, "t2"));
    QVERIFY(!notes::isBookmarked(s, c));
    QVERIFY(s.bookmarks.empty());
}

void TestNotes::editAndRemove()
{
    notes::Sidecar s;
    notes::addNote(s, callNote({1, "a"}, "one"));
    notes::addNote(s, rowNote({1, "a"}, 3, std::nullopt, "two"));
    notes::addNote(s, callNote({1, "a"}, "three"));
    QCOMPARE(notes::notesOn(s, s.notes[0].target), (std::vector<std::size_t>{0, 2}));
    QCOMPARE(notes::notesOn(s, s.notes[1].target), (std::vector<std::size_t>{1}));
    QVERIFY(notes::editNote(s, 1, "two, edited"));
    QVERIFY(!notes::editNote(s, 1, "two, edited"));
    QVERIFY(!notes::editNote(s, 9, "x"));
    QCOMPARE(s.notes[1].text, std::string("two, edited"));
    QVERIFY(notes::removeNote(s, 0));
    QVERIFY(!notes::removeNote(s, 5));
    QCOMPARE(s.notes.size(), std::size_t(2));
    QCOMPARE(s.notes[0].text, std::string("two, edited"));
    const std::string now = notes::nowUtcIso8601();
    QCOMPARE(now.size(), std::size_t(20));
    QCOMPARE(now.back(), 'Z');
}

void TestNotes::identityOfFirstMiB()
{
    std::string big(notes::kIdentityPrefixBytes + 5000, 'x');
    big[10] = 'y';
    const notes::RecordingIdentity id = notes::identityOf(big, "/some/dir/run.json");
    QCOMPARE(id.path, std::string("run.json"));
    QCOMPARE(id.size, std::uint64_t(big.size()));
    QCOMPARE(id.sha256OfFirstMiB,
             crypto::Sha256::hexDigest(std::string_view(big).substr(0, notes::kIdentityPrefixBytes)));
    // A change past the first MiB keeps the hash, but not the size; a change inside it changes the hash.
    std::string tail = big + "z";
    QCOMPARE(notes::identityOf(tail, "run.json").sha256OfFirstMiB, id.sha256OfFirstMiB);
    big[20] = 'q';
    QVERIFY(notes::identityOf(big, "run.json").sha256OfFirstMiB != id.sha256OfFirstMiB);
    QCOMPARE(notes::identityOf("abc", "r").sha256OfFirstMiB, crypto::Sha256::hexDigest("abc"));
}

void TestNotes::resolveAttachedAndOrphaned()
{
    const auto run = generated(8, 3);
    const notes::CallRef call4 = notes::callRefOf(run->calls[3]);
    const std::optional<json::Value> ledger = run->ledgerAt(run->calls[3]);
    QVERIFY(ledger && ledger->size() > 1);
    const std::string id0(ledger->at(0).findString("toolCallId")->asString());

    notes::Sidecar s;
    s.recording = notes::identityOf(*run);
    s.bookmarks.push_back({call4, ""});
    s.bookmarks.push_back({{40, "call-llm#400"}, ""});
    s.notes.push_back(callNote(call4, "attached call note"));                                // 0
    s.notes.push_back(rowNote(call4, 0, id0, "attached row note"));                          // 1
    s.notes.push_back(rowNote(call4, ledger->size() + 3, std::nullopt, "row past the end")); // 2
    s.notes.push_back(rowNote(call4, 0, std::string("call_999"), "row names another id"));   // 3
    s.notes.push_back(callNote({call4.epoch, "call-llm#0"}, "same epoch, other stage"));     // 4
    s.notes.push_back(callNote({99, call4.callRuntimeStageId}, "same stage, other epoch"));  // 5
    const notes::CallRef call1 = notes::callRefOf(run->calls[0]);
    s.notes.push_back(rowNote(call1, 0, std::nullopt, "no ledger yet at call 1")); // 6

    const notes::Resolution r = notes::resolve(s, *run);
    QVERIFY(r.sameRecording);
    QCOMPARE(r.bookmarks.size(), std::size_t(2));
    QCOMPARE(r.bookmarks[0].ordinal, std::optional<std::size_t>(3));
    QVERIFY(r.bookmarks[1].orphaned);
    QCOMPARE(r.notes.size(), s.notes.size());
    QCOMPARE(r.notes[0].ordinal, std::optional<std::size_t>(3));
    QVERIFY(!r.notes[0].orphaned);
    QCOMPARE(r.notes[1].ordinal, std::optional<std::size_t>(3));
    QVERIFY(!r.notes[1].orphaned);
    QVERIFY(r.notes[2].orphaned);
    QVERIFY(r.notes[2].reason.find("is not in the ledger at call") != std::string::npos);
    QVERIFY(r.notes[3].orphaned);
    QVERIFY(r.notes[3].reason.find("no longer names the tool call") != std::string::npos);
    QVERIFY(r.notes[4].orphaned);
    QVERIFY(r.notes[4].reason.find("is not in this recording") != std::string::npos);
    QVERIFY(r.notes[5].orphaned);
    QVERIFY(r.notes[6].orphaned);
    QVERIFY(r.notes[6].reason.find("no findings ledger") != std::string::npos);
    QCOMPARE(r.orphanedNotes(), std::size_t(5));
    for (const auto &n : r.notes)
        QCOMPARE(n.orphaned, !n.ordinal.has_value());
}

void TestNotes::resolveNoticesAnotherRecording()
{
    const auto run = generated(4, 1);
    notes::Sidecar s;
    s.recording = notes::identityOf(*run);
    s.recording.size += 1;
    s.recording.sha256OfFirstMiB = std::string(64, '0');
    s.notes.push_back(callNote(notes::callRefOf(run->calls[1]), "still matched by stage id"));
    const notes::Resolution r = notes::resolve(s, *run);
    QVERIFY(!r.sameRecording);
    QVERIFY(r.recordingNote.find("another version of this recording") != std::string::npos);
    QVERIFY(!r.notes[0].orphaned);
    // No identity recorded: nothing to compare, nothing flagged.
    s.recording = {};
    QVERIFY(notes::resolve(s, *run).sameRecording);
}

void TestNotes::findCallByEpochAlone()
{
    const auto run = generated(5, 1);
    QCOMPARE(notes::findCall(*run, {3, ""}), std::optional<std::size_t>(2));
    QCOMPARE(notes::findCall(*run, notes::callRefOf(run->calls[4])), std::optional<std::size_t>(4));
    QVERIFY(!notes::findCall(*run, {6, ""}));
}

QTEST_APPLESS_MAIN(TestNotes)
#include "tst_notes.moc"
