// Opening a large recording (issue 18, item 1): its first calls are on screen while the rest is indexed — call 1
// shown, the window usable, the progress in the status bar (no dialog in the way), a call not read yet said to be
// still indexing — then the whole run replaces them, on the call the user went to meanwhile.

#include "ui/panes/mainwindow.h"
#include "ui/panes/summarybar.h"
#include "ui/services/runloader.h"

#include "core/generate/recordinggenerator.h"

#include "tests/ui/windowfixture.h"

#include <QAbstractItemView>
#include <QFile>
#include <QLabel>
#include <QProgressBar>
#include <QTemporaryDir>
#include <QTest>

using namespace tf;
using namespace tf::ui;

class TestProgressiveOpen : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void firstCallsWhileIndexing();
    void wholeRunFillsTheListWhileSummarized();

private:
    // A window without a progress dialog (the load reports in its status bar), and its loader.
    std::pair<std::unique_ptr<MainWindow>, RunLoader *> openingWindow();

    QTemporaryDir m_dir;
    QString m_path; // the long run both cases open
};

void TestProgressiveOpen::initTestCase()
{
    test::setUpGuiTestApplication();
    // A long run with a sliding history, as real long runs are: large enough that indexing it takes a while here.
    m_path = m_dir.filePath(QStringLiteral("long.json"));
    generate::GeneratorOptions options;
    options.calls = 1000;
    options.seed = 7;
    options.historyWindow = 40;
    options.turnCalls = 50;
    const std::string text = generate::generateRecording(options);
    QFile f(m_path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(text.data(), qint64(text.size())), qint64(text.size()));
}

std::pair<std::unique_ptr<MainWindow>, RunLoader *> TestProgressiveOpen::openingWindow()
{
    auto window = test::shownTestWindow(false);
    RunLoader *loader = window ? window->findChild<RunLoader *>() : nullptr;
    return {std::move(window), loader};
}

void TestProgressiveOpen::firstCallsWhileIndexing()
{
    auto opened = openingWindow(); // not a structured binding: the lambdas below capture the window
    std::unique_ptr<MainWindow> &window = opened.first;
    RunLoader *loader = opened.second;
    QVERIFY(window && loader);
    loader->setPreviewFromBytes(0);

    QSignalSpy previewed(window.get(), &MainWindow::runPreviewShown);
    QSignalSpy loaded(window.get(), &MainWindow::runLoaded);
    window->openFile(m_path);
    QVERIFY(previewed.wait(30000));
    // The first calls, before the whole file: the window shows them and says the rest is being indexed. (On a
    // machine so busy that the whole load lands in the same breath, the window has moved on to it already.)
    const RunHandle preview = previewed.at(0).at(0).value<RunHandle>();
    QVERIFY(preview && preview->run->preview);
    QVERIFY(preview->calls.size() >= 1 && preview->calls.size() <= RunLoader::kPreviewCalls);
    auto *bar = window->findChild<QProgressBar *>(QStringLiteral("loadProgressBar"));
    QVERIFY(bar);
    if (loaded.count() == 0) {
        QVERIFY(window->windowTitle().contains(QStringLiteral("indexing")));
        QVERIFY(bar->isVisible());
        QVERIFY(
            QTest::qWaitFor([&] { return window->currentBundle() && window->currentBundle()->ordinal == 0; }, 10000));
    }
    // Usable meanwhile: the user goes to call 3 of the ones read.
    bool moved = false;
    if (loaded.count() == 0) {
        QVERIFY(test::showCallAndWait(*window, 2));
        moved = true;
        auto *status = window->findChild<QLabel *>(QStringLiteral("statusCall"));
        QVERIFY(status);
        if (loaded.count() == 0)
            QVERIFY2(status->text().contains(QStringLiteral("being indexed")), qPrintable(status->text()));
    }

    QVERIFY(loaded.count() == 1 || loaded.wait(120000));
    QVERIFY(!window->run()->run->preview);
    QCOMPARE(window->run()->calls.size(), std::size_t(1000));
    if (moved)
        QCOMPARE(window->currentCall(), 2); // where the user went, kept
    QVERIFY(!bar->isVisible());
    QVERIFY(!window->windowTitle().contains(QStringLiteral("indexing")));
    // Each preview read more calls than the one before (ten times as many; then the whole run's summaries as they
    // settle): the list filled as the index was built, and never shrank.
    for (int i = 1; i < previewed.count(); ++i)
        QVERIFY(previewed.at(i).at(0).value<RunHandle>()->calls.size() >
                previewed.at(i - 1).at(0).value<RunHandle>()->calls.size());
    qInfo("%lld previews before the whole run", qlonglong(previewed.count()));
    // The preview's calls are the loaded run's, call for call.
    for (std::size_t i = 0; i < preview->calls.size(); ++i) {
        QCOMPARE(preview->calls[i].messageCount, window->run()->calls[i].messageCount);
        QCOMPARE(preview->calls[i].verdict, window->run()->calls[i].verdict);
        QCOMPARE(preview->calls[i].checks().size(), window->run()->calls[i].checks().size());
    }
}

// Once the whole file is read, the calls list shows every call summarized so far while the rest are: rows appended,
// never reset, the call the user went to kept, the summary bar and the status line saying how much is indexed, the
// audit said to come once all is indexed.
void TestProgressiveOpen::wholeRunFillsTheListWhileSummarized()
{
    auto [window, loader] = openingWindow();
    QVERIFY(window && loader);
    loader->setPreviewFromBytes(std::numeric_limits<qint64>::max()); // no preview: snapshots of the whole run only
    loader->setIndexingSnapshotMs(0);                                // one each time more calls settle
    auto *list = window->findChild<QAbstractItemView *>(QStringLiteral("callsView"));
    QVERIFY(list);

    struct Seen
    {
        RunHandle run;
        int rows = 0;
        QString calls, problems, problemsPane, status;
    };
    std::vector<Seen> seen;
    int resetsWhileIndexing = 0;
    connect(list->model(), &QAbstractItemModel::modelReset, this, [&] { resetsWhileIndexing += seen.empty() ? 0 : 1; });
    auto *summary = window->findChild<SummaryBar *>();
    auto *status = window->findChild<QLabel *>(QStringLiteral("statusCall"));
    auto *problemsPane = window->findChild<QLabel *>(QStringLiteral("problemsCounts"));
    QVERIFY(summary && status && problemsPane);
    connect(window.get(), &MainWindow::runPreviewShown, this, [&](const RunHandle &run) {
        seen.push_back({run, list->model()->rowCount(), summary->fieldText(QStringLiteral("summaryCalls")),
                        summary->fieldText(QStringLiteral("summaryProblems")), problemsPane->text(), status->text()});
    });
    QSignalSpy loaded(window.get(), &MainWindow::runLoaded);
    window->openFile(m_path);
    QVERIFY(QTest::qWaitFor([&] { return !seen.empty() || loaded.count() > 0; }, 60000));
    bool moved = false;
    if (loaded.count() == 0 && seen.front().run->calls.size() >= 3) {
        QVERIFY(test::showCallAndWait(*window, 2)); // usable meanwhile: the user goes to call 3
        moved = true;
    }
    QVERIFY(loaded.count() == 1 || loaded.wait(120000));
    QVERIFY2(seen.size() >= 2, "the list filled in steps"); // 1,000 calls settle in chunks of at most 63 on 2 cores

    for (std::size_t i = 0; i < seen.size(); ++i) {
        const Seen &s = seen[i];
        QVERIFY(s.run->indexing);
        QVERIFY(!s.run->run->preview);
        QCOMPARE(s.run->run, seen.front().run->run); // one run, read once; only its summaries grow
        QCOMPARE(s.rows, int(s.run->calls.size()));
        QVERIFY(s.run->calls.size() < std::size_t(1000));
        if (i > 0)
            QVERIFY(s.run->calls.size() > seen[i - 1].run->calls.size());
        QCOMPARE(s.calls, QStringLiteral("1000 (%1 indexed)").arg(s.run->calls.size()));
        QCOMPARE(s.problems, QStringLiteral("audit once indexed"));
        QCOMPARE(s.problemsPane, QStringLiteral("The audit runs once every call is indexed."));
        QVERIFY(s.run->problems.empty());
    }
    if (moved)
        QVERIFY2(seen.back().status.contains(QStringLiteral("indexed so far")), qPrintable(seen.back().status));
    QCOMPARE(resetsWhileIndexing, 0); // rows appended: the selection and the scroll stay
    QCOMPARE(window->run()->run, seen.front().run->run);
    QCOMPARE(list->model()->rowCount(), 1000);
    QVERIFY(!window->run()->indexing);
    QVERIFY(!summary->fieldText(QStringLiteral("summaryCalls")).contains(QStringLiteral("indexed")));
    QVERIFY(summary->fieldText(QStringLiteral("summaryProblems")) != QStringLiteral("audit once indexed"));
    if (moved)
        QCOMPARE(window->currentCall(), 2);
    // What each snapshot listed is what the whole index says of those calls.
    for (std::size_t i = 0; i < seen.back().run->calls.size(); ++i) {
        QCOMPARE(seen.back().run->calls[i].messageCount, window->run()->calls[i].messageCount);
        QCOMPARE(seen.back().run->calls[i].checks(), window->run()->calls[i].checks());
    }
}

QTEST_MAIN(TestProgressiveOpen)
#include "tst_progressiveopen.moc"
