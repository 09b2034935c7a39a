// The window and a file that changes on disk (issue 17, items 1 and 2): truncated while the window steps through
// its calls, the window lives, keeps the call it showed, says "The file changed on disk" in a bar with Reload, and
// keeps the bookmarks and notes; a file replaced by rename is noticed by the watch alone; a reload keeps the
// selected call; the screenshot mode never waits: it fails with the reason on stderr.

#include "uitesthelpers.h"

#include "ui/panes/mainwindow.h"
#include "ui/services/screenshot.h"
#include "ui/services/sidecarstore.h"

#include "core/report/notes.h"

#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

using namespace tf;
using namespace tf::ui;

namespace {

// Another recording put in the file's place the way atomic writers and log rotation do: a new file renamed over it.
void replaceByRename(const QTemporaryDir &dir, const QString &path, int calls, std::uint64_t seed)
{
    const QString fresh = test::writeGenerated(dir, QStringLiteral("fresh.json"), calls, seed);
    QVERIFY(!fresh.isEmpty());
    QVERIFY(::rename(QFile::encodeName(fresh).constData(), QFile::encodeName(path).constData()) == 0);
}

void stepTo(MainWindow &window, int ordinal)
{
    QSignalSpy shown(&window, &MainWindow::callShown);
    window.showCall(ordinal);
    QTRY_VERIFY_WITH_TIMEOUT(window.currentBundle() && int(window.currentBundle()->ordinal) == ordinal, 20000);
}

} // namespace

class TestFileChange : public QObject
{
    Q_OBJECT

private slots:
    void truncatedWhileStepping();
    void replacedByRenameOffersReload();
    void screenshotFailsOnAChangedFile();
};

void TestFileChange::truncatedWhileStepping()
{
    QTemporaryDir dir;
    const QString path = test::writeGenerated(dir, QStringLiteral("run.json"), 24, 5);
    QVERIFY(!path.isEmpty());
    MainWindow window(test::quietWindowOptions());
    window.resize(1400, 900);
    window.show();
    QSignalSpy loaded(&window, &MainWindow::runLoaded);
    window.openFile(path);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 30000);

    auto *store = window.findChild<SidecarStore *>(QStringLiteral("sidecarStore"));
    QVERIFY(store);
    stepTo(window, 1);
    QVERIFY(store->toggleBookmark(1));
    const notes::Target target{notes::TargetKind::Call, notes::callRefOf(window.run()->run->calls[1]), {}, {}};
    store->addNote(target, QStringLiteral("kept across the change"));
    QVERIFY(store->save());
    const QByteArray sidecar = test::readBytes(store->path());
    QVERIFY(sidecar.contains("kept across the change"));

    stepTo(window, 2);
    stepTo(window, 3);
    // The loader let go of the mapping's pages: the next calls are read from the file again, which is cut now.
    const QByteArray original = test::readBytes(path);
    QCOMPARE(::truncate(QFile::encodeName(path).constData(), 4096), 0);
    QSignalSpy changed(&window, &MainWindow::fileChanged);
    for (int ordinal = 4; ordinal < 12; ++ordinal) {
        window.showCall(ordinal);
        QTest::qWait(20);
    }
    QTRY_VERIFY_WITH_TIMEOUT(!window.fileChangedReason().isEmpty(), 10000);
    QCOMPARE(changed.count(), 1);
    const QString reason = window.fileChangedReason();
    QVERIFY2(reason.startsWith(path + QStringLiteral(": the file changed on disk while it was being read")),
             qPrintable(reason));

    // The window lives and keeps the last call it read before the change.
    auto *bar = window.findChild<QWidget *>(QStringLiteral("fileChangedBar"));
    QVERIFY(bar && bar->isVisible());
    QVERIFY(window.isVisible());
    QVERIFY(window.currentBundle());
    QCOMPARE(int(window.currentBundle()->ordinal), 3); // every build after the cut was refused, none shown
    QVERIFY(window.run());
    QCOMPARE(window.run()->calls.size(), std::size_t(24));
    if (const QString shots = qEnvironmentVariable("TRACEFOLD_TEST_SHOTS"); !shots.isEmpty())
        window.grab().save(shots + QStringLiteral("/file-changed.png"));

    // Nothing written: the recording is what the truncation left, the sidecar what the notes made.
    QCOMPARE(test::readBytes(path), original.left(4096));
    QCOMPARE(test::readBytes(store->path()), sidecar);
    QCOMPARE(store->sidecar().bookmarks.size(), std::size_t(1));
    QCOMPARE(store->sidecar().notes.size(), std::size_t(1));

    // The writer finishes (the file whole again, by rename); Reload reads it and stays on the selected call.
    QTemporaryDir other;
    const QString whole = other.filePath(QStringLiteral("whole.json"));
    {
        QFile f(whole);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(original);
    }
    QVERIFY(::rename(QFile::encodeName(whole).constData(), QFile::encodeName(path).constData()) == 0);
    const int selected = window.currentCall();
    auto *reload = bar->findChild<QPushButton *>(QStringLiteral("fileChangedReload"));
    QVERIFY(reload);
    reload->click();
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 30000);
    QCOMPARE(window.currentCall(), selected);
    QTRY_VERIFY_WITH_TIMEOUT(window.currentBundle() && int(window.currentBundle()->ordinal) == selected, 20000);
    QVERIFY(window.fileChangedReason().isEmpty());
    QVERIFY(!bar->isVisible());
    QCOMPARE(store->sidecar().bookmarks.size(), std::size_t(1));
    QCOMPARE(store->sidecar().notes.size(), std::size_t(1));
    QVERIFY(store->isBookmarked(1));
}

void TestFileChange::replacedByRenameOffersReload()
{
    QTemporaryDir dir;
    const QString path = test::writeGenerated(dir, QStringLiteral("run.json"), 12, 2);
    MainWindow window(test::quietWindowOptions());
    window.show();
    QSignalSpy loaded(&window, &MainWindow::runLoaded);
    window.openFile(path);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 30000);
    stepTo(window, 5);

    // Nothing is being read: the watch alone notices.
    QSignalSpy changed(&window, &MainWindow::fileChanged);
    replaceByRename(dir, path, 9, 3);
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, 5000);
    QVERIFY2(window.fileChangedReason().contains(QStringLiteral("another file was put in its place")),
             qPrintable(window.fileChangedReason()));
    QCOMPARE(window.run()->calls.size(), std::size_t(12)); // still the run as read
    QCOMPARE(int(window.currentBundle()->ordinal), 5);

    window.findChild<QPushButton *>(QStringLiteral("fileChangedReload"))->click();
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 30000);
    QCOMPARE(window.run()->calls.size(), std::size_t(9));
    QCOMPARE(window.currentCall(), 5);
    QVERIFY(window.fileChangedReason().isEmpty());

    // The new file is watched in its turn: appending to it is noticed too.
    QFile f(path);
    QVERIFY(f.open(QIODevice::Append));
    f.write("\n");
    f.close();
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 2, 5000);
    QVERIFY2(window.fileChangedReason().contains(QStringLiteral("grew from")), qPrintable(window.fileChangedReason()));
}

void TestFileChange::screenshotFailsOnAChangedFile()
{
    QTemporaryDir dir;
    const QString path = test::writeGenerated(dir, QStringLiteral("shot.json"), 16, 4);
    // The file is cut as soon as the window has loaded it, before its first call is drawn.
    QTimer attach;
    QObject::connect(&attach, &QTimer::timeout, [&] {
        for (QWidget *w : QApplication::topLevelWidgets())
            if (auto *window = qobject_cast<MainWindow *>(w)) {
                attach.stop();
                QObject::connect(window, &MainWindow::runLoaded,
                                 [&] { QCOMPARE(::truncate(QFile::encodeName(path).constData(), 100), 0); });
            }
    });
    attach.start(0);

    // What the shot says goes to stderr: caught in a file for the length of the call.
    const QString errPath = dir.filePath(QStringLiteral("stderr.txt"));
    std::fflush(stderr);
    const int saved = ::dup(2);
    const int errFd = ::open(QFile::encodeName(errPath).constData(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    QVERIFY(saved >= 0 && errFd >= 0);
    ::dup2(errFd, 2);
    ScreenshotRequest request;
    request.file = path;
    request.output = dir.filePath(QStringLiteral("shot.png"));
    request.call = 8;
    const int status = renderScreenshot(request);
    std::fflush(stderr);
    ::dup2(saved, 2);
    ::close(saved);
    ::close(errFd);

    QCOMPARE(status, 2);
    QVERIFY(!QFile::exists(request.output));
    const QByteArray err = test::readBytes(errPath);
    QVERIFY2(err.contains(QByteArray(QFile::encodeName(path) + ": the file changed on disk while it was being read")),
             err.constData());
}

QTEST_MAIN(TestFileChange)
#include "tst_filechange.moc"
