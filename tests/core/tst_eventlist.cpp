// recording::EventList: a run's events, kept in chunks that copies share so that a followed log's snapshots hold each
// event once. It must behave as a value: whatever is appended to one copy, another reads what it held when copied.

#include "core/recording/eventlist.h"

#include <QTest>

#include <algorithm>
#include <numeric>

using namespace tf::recording;

namespace {

Event numbered(std::size_t i)
{
    Event e;
    e.index = i;
    e.payloadOffset = 1000 + i;
    return e;
}

EventList listOf(std::size_t n)
{
    EventList list;
    for (std::size_t i = 0; i < n; ++i)
        list.push_back(numbered(i));
    return list;
}

// Every event is the one appended at its place, read by index and by iterator.
bool holdsNumbered(const EventList &list, std::size_t n)
{
    if (list.size() != n || list.empty() != (n == 0))
        return false;
    for (std::size_t i = 0; i < n; ++i)
        if (list[i].index != i || list[i].payloadOffset != 1000 + i)
            return false;
    std::size_t expected = 0;
    for (const Event &e : list)
        if (e.index != expected++)
            return false;
    return expected == n && std::distance(list.begin(), list.end()) == std::ptrdiff_t(n);
}

} // namespace

class TestEventList : public QObject
{
    Q_OBJECT

private slots:
    void copiesAreValues_data();
    void copiesAreValues();
    void fullChunksAreShared();
    void iteratorIsRandomAccess();
    void movedFromIsEmpty();
};

void TestEventList::copiesAreValues_data()
{
    QTest::addColumn<int>("copiedAt");
    QTest::addColumn<int>("appended");
    const int chunk = int(EventList::kChunkEvents);
    QTest::newRow("empty, then one") << 0 << 1;
    QTest::newRow("mid-chunk, a few more") << 5 << 7;
    QTest::newRow("one short of a chunk, across it") << chunk - 1 << 3;
    QTest::newRow("a full chunk, the next begun") << chunk << 1;
    QTest::newRow("a chunk and a half, two more chunks") << chunk + chunk / 2 << 2 * chunk;
}

void TestEventList::copiesAreValues()
{
    QFETCH(int, copiedAt);
    QFETCH(int, appended);
    const std::size_t at = std::size_t(copiedAt), total = std::size_t(copiedAt + appended);

    // The original goes on growing; the copy keeps what it held.
    EventList original = listOf(at);
    const EventList snapshot = original;
    for (std::size_t i = at; i < total; ++i)
        original.push_back(numbered(i));
    QVERIFY(holdsNumbered(snapshot, at));
    QVERIFY(holdsNumbered(original, total));

    // The copy grows differently: neither sees the other's events.
    EventList fork = snapshot;
    Event other;
    other.index = 999999;
    fork.push_back(other);
    QVERIFY(holdsNumbered(original, total));
    QVERIFY(holdsNumbered(snapshot, at));
    QCOMPARE(fork.size(), at + 1);
    QCOMPARE(fork.back().index, std::size_t(999999));

    original.clear();
    QVERIFY(original.empty());
    QVERIFY(holdsNumbered(snapshot, at));
}

void TestEventList::fullChunksAreShared()
{
    // Ten chunks and a half read, then a poll's worth appended: the new snapshot holds the ten full chunks of the
    // one before, not copies of them.
    const std::size_t chunk = EventList::kChunkEvents;
    EventList log = listOf(10 * chunk + chunk / 2);
    const EventList before = log;
    for (std::size_t i = log.size(); i < 11 * chunk + 3; ++i)
        log.push_back(numbered(i));
    const EventList after = log;
    QCOMPARE(after.chunksSharedWith(before), std::size_t(10));
    QCOMPARE(after.chunksSharedWith(log), std::size_t(12));
    QVERIFY(holdsNumbered(before, 10 * chunk + chunk / 2));
    QVERIFY(holdsNumbered(after, 11 * chunk + 3));
}

void TestEventList::iteratorIsRandomAccess()
{
    const EventList list = listOf(3 * EventList::kChunkEvents + 17);
    // What the rules do with a list: find, count, step back from the end, binary search by index.
    const auto it = std::find_if(list.begin(), list.end(), [](const Event &e) { return e.index == 2000; });
    QVERIFY(it != list.end());
    QCOMPARE(it - list.begin(), std::ptrdiff_t(2000));
    QCOMPARE((it + 5)->index, std::size_t(2005));
    QCOMPARE(it[-3].index, std::size_t(1997));
    QCOMPARE(std::prev(list.end())->index, list.size() - 1);
    QCOMPARE(std::count_if(list.begin(), list.end(), [](const Event &e) { return e.index % 2 == 0; }),
             std::ptrdiff_t((list.size() + 1) / 2));
    const auto found = std::lower_bound(list.begin(), list.end(), std::size_t(3000),
                                        [](const Event &e, std::size_t i) { return e.index < i; });
    QCOMPARE(found->index, std::size_t(3000));
    QVERIFY(list.begin() < found && found < list.end());
}

void TestEventList::movedFromIsEmpty()
{
    // The loader moves a collector's list into the run; the collector's list must then be an empty list that can
    // grow again, not a size with no chunks behind it.
    EventList collected = listOf(5);
    const EventList kept = std::move(collected);
    QVERIFY(holdsNumbered(kept, 5));
    QVERIFY(collected.empty()); // NOLINT(bugprone-use-after-move): what a move leaves is the point
    collected.push_back(numbered(0));
    QVERIFY(holdsNumbered(collected, 1));
    EventList assigned;
    assigned = std::move(collected);
    QVERIFY(holdsNumbered(assigned, 1));
    QVERIFY(collected.empty()); // NOLINT(bugprone-use-after-move)
    QVERIFY(holdsNumbered(kept, 5));
}

QTEST_GUILESS_MAIN(TestEventList)
#include "tst_eventlist.moc"
