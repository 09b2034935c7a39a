// Opening a large recording (issue 18, item 1): its first calls are on screen while the rest is indexed — call 1
// shown, the window usable, the progress in the status bar (no dialog in the way), a call not read yet said to be
// still indexing — then the whole run replaces them, on the call the user went to meanwhile.

#include "ui/panes/mainwindow.h"
#include "ui/services/runloader.h"

#include "core/generate/recordinggenerator.h"

#include "tests/ui/windowfixture.h"

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
    void initTestCase() { test::setUpGuiTestApplication(); }
    void firstCallsWhileIndexing();
};

void TestProgressiveOpen::firstCallsWhileIndexing()
{
    // A long run with a sliding history, as real long runs are: large enough that indexing it takes a while here.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("long.json"));
    {
        generate::GeneratorOptions options;
        options.calls = 1000;
        options.seed = 7;
        options.historyWindow = 40;
        options.turnCalls = 50;
        const std::string text = generate::generateRecording(options);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text.data(), qint64(text.size()));
    }
    auto window = test::shownTestWindow(false);
    QVERIFY(window);
    auto *loader = window->findChild<RunLoader *>();
    QVERIFY(loader);
    loader->setPreviewFromBytes(0);

    QSignalSpy previewed(window.get(), &MainWindow::runPreviewShown);
    QSignalSpy loaded(window.get(), &MainWindow::runLoaded);
    window->openFile(path);
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
        QVERIFY(QTest::qWaitFor([&] { return window->currentBundle() && window->currentBundle()->ordinal == 0; }, 10000));
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
    // Each preview read ten times as many calls as the one before: the list filled as the index was built.
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

QTEST_MAIN(TestProgressiveOpen)
#include "tst_progressiveopen.moc"
