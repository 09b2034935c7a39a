// ui::releasedOffThread: the last release of a call's bundle destroys it on a pool thread, not on the GUI thread that
// lets it go in the middle of a call switch; a handle still held keeps it alive.

#include "ui/services/offthreadrelease.h"

#include <QSemaphore>
#include <QTest>
#include <QThread>

#include <atomic>

namespace {

struct Watched
{
    QSemaphore *destroyed = nullptr;
    std::atomic<QThread *> *destroyedOn = nullptr;
    int value = 7;
    ~Watched()
    {
        destroyedOn->store(QThread::currentThread());
        destroyed->release();
    }
};

} // namespace

class TestOffThreadRelease : public QObject
{
    Q_OBJECT

private slots:
    void lastReleaseDestroysOnAPoolThread();
};

void TestOffThreadRelease::lastReleaseDestroysOnAPoolThread()
{
    QSemaphore destroyed;
    std::atomic<QThread *> destroyedOn{nullptr};
    auto owned = std::make_shared<Watched>();
    owned->destroyed = &destroyed;
    owned->destroyedOn = &destroyedOn;
    std::shared_ptr<const Watched> handle = tf::ui::releasedOffThread(std::move(owned));
    QVERIFY(!owned);
    std::shared_ptr<const Watched> second = handle;
    handle.reset();
    QVERIFY(!destroyed.tryAcquire(1, 100)); // still held
    QCOMPARE(second->value, 7);
    second.reset();
    QVERIFY(destroyed.tryAcquire(1, 5000));
    QVERIFY(destroyedOn.load() != nullptr);
    QVERIFY(destroyedOn.load() != QThread::currentThread());
}

QTEST_GUILESS_MAIN(TestOffThreadRelease)
#include "tst_offthreadrelease.moc"
