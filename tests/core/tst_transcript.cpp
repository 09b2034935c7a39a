// The transcript's conversation at a call (core/recording/transcript.h): which messages are new since the previous
// call, on a generated armed run (an append-only history where results get collapsed to tickets) and on the real
// 9.62 conversation, whose turns each add a user question.

#include "core/generate/recordinggenerator.h"
#include "core/recording/callview.h"
#include "core/recording/recordingloader.h"
#include "core/recording/transcript.h"

#include <QElapsedTimer>
#include <QTest>

using namespace tf;
using recording::Transcript;

namespace {

std::shared_ptr<const recording::Run> load(const std::string &path)
{
    auto result = recording::loadRecording(path);
    if (!result.run)
        qFatal("%s did not load: %s", path.c_str(), result.error.c_str());
    return result.run;
}

Transcript transcriptOf(const recording::Run &run, std::size_t call)
{
    recording::CallViews views = recording::buildCallViews(run, call);
    return recording::transcriptAt(run, views.view, views.previous ? &*views.previous : nullptr);
}

} // namespace

class TestTranscript : public QObject
{
    Q_OBJECT

private slots:
    void firstCallIsAllNew();
    void appendedMessagesAreNewCollapsedAreNot();
    void eachTurnsQuestionIsNewOnce();
    void longHistoryCost();
};

void TestTranscript::firstCallIsAllNew()
{
    const auto run = load(TRACEFOLD_TEST_DATA "/samples/real-9.62/dev-3-tool-errors.json");
    const Transcript t = transcriptOf(*run, 0);
    QVERIFY(t.comparable);
    QVERIFY(!t.messages.empty());
    QCOMPARE(t.newCount, t.messages.size());
}

void TestTranscript::appendedMessagesAreNewCollapsedAreNot()
{
    generate::GeneratorOptions options;
    options.calls = 24;
    options.seed = 2;
    auto loaded = recording::loadRecordingFromBytes(generate::generateRecording(options), "generated.json");
    QVERIFY(loaded.run);
    const recording::Run &run = *loaded.run;
    int newlyCollapsed = 0;
    std::size_t previousCount = 0;
    std::vector<bool> previousCollapsed;
    for (std::size_t call = 0; call < run.calls.size(); ++call) {
        const Transcript t = transcriptOf(run, call);
        QVERIFY(t.comparable);
        // The generator's history only grows: what the previous call sent is a prefix, the rest is new.
        QVERIFY(t.messages.size() >= previousCount);
        for (std::size_t i = 0; i < t.messages.size(); ++i) {
            QVERIFY2(t.isNew[i] == (call == 0 || i >= previousCount),
                     qPrintable(QStringLiteral("call %1 message %2").arg(call + 1).arg(i)));
            if (t.messages[i].collapsed && i < previousCollapsed.size() && !previousCollapsed[i])
                ++newlyCollapsed; // sent in full before, as a ticket now: the same message, not new
        }
        QCOMPARE(t.newCount, call == 0 ? t.messages.size() : t.messages.size() - previousCount);
        previousCount = t.messages.size();
        previousCollapsed.clear();
        for (const recording::MessageView &m : t.messages)
            previousCollapsed.push_back(m.collapsed);
    }
    QVERIFY2(newlyCollapsed > 0, "the run collapses results that were sent in full before");
}

void TestTranscript::eachTurnsQuestionIsNewOnce()
{
    const auto run = load(TRACEFOLD_TEST_DATA "/samples/real-9.62/dev-2-conversation.json");
    const QString question = QStringLiteral("How does that compare with February");
    const auto questionIsNew = [&](std::size_t call) -> std::optional<bool> {
        const Transcript t = transcriptOf(*run, call);
        for (std::size_t i = 0; i < t.messages.size(); ++i) {
            std::string scratch;
            if (t.messages[i].role == "user" &&
                QString::fromStdString(std::string(t.messages[i].content.stringView(scratch))).contains(question))
                return t.isNew[i];
        }
        return std::nullopt;
    };
    QCOMPARE(run->calls[2].turn, std::size_t(1)); // turn 2 asks it at call 3
    QCOMPARE(questionIsNew(1), std::optional<bool>());
    QCOMPARE(questionIsNew(2), std::optional<bool>(true));
    QCOMPARE(questionIsNew(3), std::optional<bool>(false));
}

void TestTranscript::longHistoryCost()
{
    // The bundled sample's size: 80 calls, the whole history sent each time (the transcript compares two of them).
    generate::GeneratorOptions options;
    options.calls = 80;
    options.seed = 9;
    auto loaded = recording::loadRecordingFromBytes(generate::generateRecording(options), "generated.json");
    QVERIFY(loaded.run);
    recording::CallViews views = recording::buildCallViews(*loaded.run, 79);
    QElapsedTimer timer;
    timer.start();
    const Transcript t = recording::transcriptAt(*loaded.run, views.view, &*views.previous);
    qInfo("transcriptAt at call 80 (%zu messages, %zu new): %.2f ms", t.messages.size(), t.newCount,
          double(timer.nsecsElapsed()) / 1e6);
    QVERIFY(t.newCount > 0 && t.newCount < t.messages.size());
}

QTEST_APPLESS_MAIN(TestTranscript)
#include "tst_transcript.moc"
