// The window following a run in progress (issue 17, item 3): File > Follow on the real sink-written NDJSON log while
// it is appended in chunks that end mid-line. Each call appears in the Calls list within a second of its response
// being written; the user's selection stays put unless Follow Latest Call is on; a rotation is said and reading goes
// on; Stop Following shows the run as it stands. Widgets are found by object name, offscreen.

#include "ui/models/calllistmodel.h"
#include "ui/panes/mainwindow.h"
#include "ui/services/followservice.h"
#include "ui/services/followtools.h"

#include "tests/core/recordingfile.h"
#include "tests/ui/windowfixture.h"

#include <QAbstractItemView>
#include <QAction>
#include <QElapsedTimer>
#include <QLabel>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <fstream>

using namespace tf;
using namespace tf::ui;

namespace {

const QString kRealLog = QStringLiteral(TRACEFOLD_TEST_DATA "/samples/real-9.62/dev-6-events.ndjson");

void append(const QString &path, std::string_view bytes)
{
    std::ofstream out(path.toStdString(), std::ios::binary | std::ios::app);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

// Where each response's line ends in the log, and half way into the line after it.
std::vector<std::pair<std::size_t, std::size_t>> responseCuts(const std::string &log)
{
    std::vector<std::pair<std::size_t, std::size_t>> cuts;
    for (std::size_t at = log.find("\"agentfootprint.stream.llm_end\""); at != std::string::npos;
         at = log.find("\"agentfootprint.stream.llm_end\"", at + 1)) {
        const std::size_t lineEnd = log.find('\n', at) + 1;
        const std::size_t next = log.find('\n', lineEnd);
        cuts.emplace_back(lineEnd, next == std::string::npos ? lineEnd : lineEnd + (next - lineEnd) / 2);
    }
    return cuts;
}

int shownCalls(MainWindow &window)
{
    return window.run() ? int(window.run()->calls.size()) : 0;
}

} // namespace

class TestFollowWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { test::setUpGuiTestApplication(); }
    void callsAppearAsTheirResponsesAreWritten();
    void followLatestCall();
    void rotationIsSaidAndFollowed();
    void openingAnotherFileStopsFollowing();
    void longLogIsShownWhileIndexed();
    void openingAnotherFileWhileIndexing();
};

void TestFollowWindow::callsAppearAsTheirResponsesAreWritten()
{
    const std::string log = testsupport::readFile(kRealLog);
    QTemporaryDir dir;
    const QString path = dir.path() + QStringLiteral("/run.ndjson");
    append(path, "");
    auto window = test::shownTestWindow(false);
    QVERIFY(window);
    auto *tools = window->findChild<FollowTools *>(QStringLiteral("followTools"));
    QVERIFY(tools);
    QVERIFY(window->findChild<QAction *>(QStringLiteral("followAction")));
    tools->follow(path);
    QVERIFY(tools->isFollowing());
    auto *status = window->findChild<QLabel *>(QStringLiteral("followStatus"));
    QVERIFY(status && status->isVisible());

    std::size_t written = 0;
    int expected = 0;
    qint64 worstMs = 0;
    for (const auto &[lineEnd, cut] : responseCuts(log)) {
        QTest::qWait(250);
        append(path, std::string_view(log).substr(written, cut - written));
        written = cut;
        ++expected;
        QElapsedTimer since;
        since.start();
        QVERIFY(QTest::qWaitFor([&] { return shownCalls(*window) >= expected; }, 5000));
        worstMs = std::max(worstMs, since.elapsed());
        QVERIFY2(since.elapsed() < 1000,
                 qPrintable(QStringLiteral("call %1 took %2 ms").arg(expected).arg(since.elapsed())));
        QCOMPARE(shownCalls(*window), expected);
        // The user stays where they were: on call 1, however many calls came since.
        QCOMPARE(window->currentCall(), 0);
        QVERIFY(window->windowTitle().contains(QStringLiteral("(following)")));
        QVERIFY(status->text().contains(QStringLiteral("%1 call").arg(expected)));
    }
    qInfo("worst time from a response written to its call listed: %lld ms", worstMs);
    // Looked at by a person (README): the window while the run is still being written.
    QVERIFY(window->grab().save(QStringLiteral(QT_TESTCASE_BUILDDIR "/following.png")));
    append(path, std::string_view(log).substr(written));
    QVERIFY(QTest::qWaitFor([&] { return window->run()->run->outcome.status == recording::OutcomeStatus::Completed; },
                            3000));
    // The calls list and the summary grew with the run; the calls are those of the whole log.
    auto *calls = window->findChild<QAbstractItemView *>(QStringLiteral("callsView"));
    QVERIFY(calls);
    QCOMPARE(calls->model()->rowCount(), 4);
    QVERIFY(test::showCallAndWait(*window, 3));
    QVERIFY(window->currentBundle()->view->response.has_value());

    QSignalSpy stopped(tools->service(), &FollowService::stopped);
    window->findChild<QAction *>(QStringLiteral("stopFollowingAction"))->trigger();
    QVERIFY(stopped.wait(5000));
    QVERIFY(!tools->isFollowing());
    QVERIFY(status->text().startsWith(QStringLiteral("Followed run.ndjson until stopped: 4 calls")));
    QCOMPARE(window->currentCall(), 3);
    QCOMPARE(testsupport::readFile(path), log); // nothing written to the log
}

void TestFollowWindow::followLatestCall()
{
    const std::string log = testsupport::readFile(kRealLog);
    QTemporaryDir dir;
    const QString path = dir.path() + QStringLiteral("/run.ndjson");
    const auto cuts = responseCuts(log);
    append(path, std::string_view(log).substr(0, cuts[0].second));
    auto window = test::shownTestWindow(false);
    QVERIFY(window);
    auto *tools = window->findChild<FollowTools *>();
    window->findChild<QAction *>(QStringLiteral("followLatestAction"))->setChecked(true);
    tools->follow(path);
    QVERIFY(QTest::qWaitFor([&] { return shownCalls(*window) == 1; }, 5000));
    append(path, std::string_view(log).substr(cuts[0].second, cuts[2].second - cuts[0].second));
    QVERIFY(QTest::qWaitFor([&] { return shownCalls(*window) == 3; }, 5000));
    QVERIFY(QTest::qWaitFor([&] { return window->currentCall() == 2; }, 2000)); // the latest
    QVERIFY(QTest::qWaitFor([&] { return window->currentBundle() && window->currentBundle()->ordinal == 2; }, 5000));
    tools->stop();
}

void TestFollowWindow::rotationIsSaidAndFollowed()
{
    const std::string log = testsupport::readFile(kRealLog);
    QTemporaryDir dir;
    const QString path = dir.path() + QStringLiteral("/run.ndjson");
    const auto cuts = responseCuts(log);
    append(path, std::string_view(log).substr(0, cuts[1].first));
    auto window = test::shownTestWindow(false);
    QVERIFY(window);
    auto *tools = window->findChild<FollowTools *>();
    tools->follow(path);
    QVERIFY(QTest::qWaitFor([&] { return shownCalls(*window) == 2; }, 5000));
    QVERIFY(test::showCallAndWait(*window, 1));
    // The sink's maxBytes: renamed to <path>.1, a fresh file in its place.
    QCOMPARE(
        std::rename(QFile::encodeName(path).constData(), QFile::encodeName(path + QStringLiteral(".1")).constData()),
        0);
    append(path, std::string_view(log).substr(cuts[1].first));
    QVERIFY(QTest::qWaitFor([&] { return shownCalls(*window) == 4; }, 5000));
    QVERIFY(window->statusBar()->currentMessage().contains(QStringLiteral("was rotated")));
    QCOMPARE(window->currentCall(), 1); // still where the user was
    QCOMPARE(window->run()->run->outcome.status, recording::OutcomeStatus::Completed);
    tools->stop();
}

void TestFollowWindow::openingAnotherFileStopsFollowing()
{
    QTemporaryDir dir;
    const QString path = dir.path() + QStringLiteral("/run.ndjson");
    append(path, testsupport::readFile(kRealLog));
    auto window = test::shownTestWindow(false);
    QVERIFY(window);
    auto *tools = window->findChild<FollowTools *>();
    tools->follow(path);
    QVERIFY(QTest::qWaitFor([&] { return shownCalls(*window) == 4; }, 5000));
    QVERIFY(test::openAndShowFirstCall(
        *window, QStringLiteral(TRACEFOLD_TEST_DATA "/samples/real-9.62/dev-2-conversation.json")));
    QVERIFY(!tools->isFollowing());
    QTest::qWait(3 * FollowService::kPollIntervalMs);
    QCOMPARE(shownCalls(*window), 7); // no late snapshot of the followed log replaces it
    QVERIFY(!window->windowTitle().contains(QStringLiteral("(following)")));
}

void TestFollowWindow::longLogIsShownWhileIndexed()
{
    // Following a log that already holds many calls: its first poll indexes them as opening a file does, and the
    // window shows the calls indexed so far as they come (its title still "following", the status saying how many),
    // then all of them, on the call the user is on. When many more are appended, the poll that reads them shows them
    // as they are indexed too, never fewer calls than were listed before it.
    const std::string log = testsupport::generatedEventLog(900, 9, 50);
    const std::size_t cut = log.find('\n', log.size() * 3 / 5) + 1;
    QTemporaryDir dir;
    const QString path = dir.path() + QStringLiteral("/run.ndjson");
    append(path, std::string_view(log).substr(0, cut));
    auto window = test::shownTestWindow(false);
    QVERIFY(window);
    auto *tools = window->findChild<FollowTools *>(QStringLiteral("followTools"));
    QVERIFY(tools);
    tools->service()->setIndexingSnapshotMs(0);
    auto *status = window->findChild<QLabel *>(QStringLiteral("followStatus"));
    QVERIFY(status);
    QStringList indexingTexts;
    std::vector<std::pair<std::size_t, std::size_t>> partial; // calls listed, calls in the run
    connect(window.get(), &MainWindow::runPreviewShown, this, [&](const RunHandle &run) {
        QVERIFY(run->indexing);
        partial.emplace_back(run->calls.size(), run->run->calls.size());
        indexingTexts << status->text();
        if (partial.size() == 2) // looked at by a person: the window while the followed log is indexed
            QVERIFY(window->grab().save(QStringLiteral(QT_TESTCASE_BUILDDIR "/following-indexing.png")));
        QVERIFY(window->windowTitle().contains(QStringLiteral("(following)")));
    });
    QSignalSpy complete(window.get(), &MainWindow::runLoaded);
    const auto checkPartial = [&](const RunHandle &whole, std::size_t listedBefore) {
        QVERIFY(!whole->indexing);
        QCOMPARE(whole->calls.size(), whole->run->calls.size());
        QVERIFY2(!partial.empty(), "no snapshot of the calls indexed so far was shown");
        qInfo("%zu snapshots of the calls indexed so far shown before all %zu", partial.size(), whole->calls.size());
        std::size_t last = listedBefore;
        for (const auto &[listed, inRun] : partial) {
            QVERIFY2(listed > last && listed < inRun,
                     qPrintable(QStringLiteral("%1 listed of %2, after %3").arg(listed).arg(inRun).arg(last)));
            QCOMPARE(inRun, whole->calls.size());
            last = listed;
        }
    };

    tools->follow(path);
    QVERIFY(complete.wait(60000));
    const RunHandle first = complete.takeLast().at(0).value<RunHandle>();
    QVERIFY(first->calls.size() >= 400);
    checkPartial(first, 0);
    QVERIFY2(indexingTexts.front().contains(
                 QStringLiteral("indexing, %1 of %2 calls").arg(partial.front().first).arg(partial.front().second)),
             qPrintable(indexingTexts.front()));
    QCOMPARE(window->currentCall(), 0);
    QVERIFY(status->text().contains(QStringLiteral("%1 calls").arg(first->calls.size())));
    QVERIFY(!status->text().contains(QStringLiteral("indexing")));

    // The rest appended: the calls listed stay listed while the new ones are indexed.
    partial.clear();
    append(path, std::string_view(log).substr(cut));
    QVERIFY(QTest::qWaitFor(
        [&] { return !complete.isEmpty() && complete.last().at(0).value<RunHandle>()->calls.size() >= 890; }, 60000));
    const RunHandle whole = complete.takeLast().at(0).value<RunHandle>();
    checkPartial(whole, first->calls.size() - 1);
    QCOMPARE(window->currentCall(), 0);
    // The calls list holds them all, and a late call can be shown.
    auto *calls = window->findChild<QAbstractItemView *>(QStringLiteral("callsView"));
    QCOMPARE(calls->model()->rowCount(), int(whole->calls.size()));
    QVERIFY(test::showCallAndWait(*window, int(whole->calls.size()) - 1));
    // Nothing more appended: a poll that finds nothing rebuilds nothing, and the polls are back at their floor pace
    // however long the last rebuild took (LogFollower::nextPollDelayMs).
    QVERIFY(tools->isFollowing());
    QVERIFY(
        QTest::qWaitFor([&] { return tools->service()->pollIntervalMs() == FollowService::kPollIntervalMs; }, 10000));
}

void TestFollowWindow::openingAnotherFileWhileIndexing()
{
    // Another file opened while a followed log's calls are being indexed: the poll is cancelled and nothing of it
    // replaces the file opened, neither its snapshots nor its end.
    QTemporaryDir dir;
    const QString path = dir.path() + QStringLiteral("/run.ndjson");
    append(path, testsupport::generatedEventLog(600, 9, 50));
    auto window = test::shownTestWindow(false);
    QVERIFY(window);
    auto *tools = window->findChild<FollowTools *>(QStringLiteral("followTools"));
    tools->service()->setIndexingSnapshotMs(0);
    QSignalSpy indexing(window.get(), &MainWindow::runPreviewShown);
    tools->follow(path);
    QVERIFY(indexing.wait(30000));
    QVERIFY(test::openAndShowFirstCall(
        *window, QStringLiteral(TRACEFOLD_TEST_DATA "/samples/real-9.62/dev-2-conversation.json")));
    QVERIFY(!tools->isFollowing());
    QTest::qWait(1000);
    QCOMPARE(shownCalls(*window), 7);
    QVERIFY(!window->windowTitle().contains(QStringLiteral("(following)")));
}

QTEST_MAIN(TestFollowWindow)
#include "tst_followwindow.moc"
