// Opening a recording never changes it (issue 8): the loader opens the file O_RDONLY and maps it PROT_READ, and the
// file's bytes and mtime are the same after a load. The kernel is the witness: inotify reports how the file was
// closed (IN_CLOSE_NOWRITE only for a descriptor not opened for writing) and whether anything wrote to it, and
// /proc/self/maps shows the mapping's permissions while the run is loaded.

#include "core/generate/recordinggenerator.h"
#include "core/recording/recordingloader.h"

#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace tf;

namespace {

std::string readAll(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct timespec mtimeOf(const std::string &path)
{
    struct stat st
    {
    };
    if (::stat(path.c_str(), &st) != 0)
        qFatal("cannot stat %s", path.c_str());
    return st.st_mtim;
}

// Every inotify event mask queued for the watch so far.
std::vector<std::uint32_t> drainEvents(int fd)
{
    std::vector<std::uint32_t> masks;
    alignas(struct inotify_event) char buf[4096];
    for (;;) {
        struct pollfd p
        {
            fd, POLLIN, 0
        };
        if (::poll(&p, 1, 50) <= 0)
            break;
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n <= 0)
            break;
        for (ssize_t at = 0; at < n;) {
            const auto *e = reinterpret_cast<const struct inotify_event *>(buf + at);
            masks.push_back(e->mask);
            at += ssize_t(sizeof(struct inotify_event) + e->len);
        }
    }
    return masks;
}

// The permission field ("r--p") of the first mapping of `path` in this process, or "" when it is not mapped.
std::string mappingPermissions(const std::string &path)
{
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line))
        if (line.size() > path.size() && line.compare(line.size() - path.size(), path.size(), path) == 0)
            return line.substr(line.find(' ') + 1, 4);
    return {};
}

} // namespace

class TestReadOnly : public QObject
{
    Q_OBJECT

private slots:
    void loadingLeavesTheFileUntouched_data();
    void loadingLeavesTheFileUntouched();
};

void TestReadOnly::loadingLeavesTheFileUntouched_data()
{
    QTest::addColumn<QString>("source");
    QTest::newRow("generated") << QString();
    QTest::newRow("sample") << QStringLiteral(TRACEFOLD_TEST_DATA "/samples/agentfootprint-demo-turn.json");
    QTest::newRow("refused") << QStringLiteral("not json");
}

void TestReadOnly::loadingLeavesTheFileUntouched()
{
    QFETCH(QString, source);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath(QStringLiteral("recording.json")).toStdString();
    std::string bytes;
    if (source.isEmpty()) {
        generate::GeneratorOptions options;
        options.calls = 4;
        options.seed = 8;
        bytes = generate::generateRecording(options);
    } else if (source.startsWith(QLatin1Char('/'))) {
        bytes = readAll(source.toStdString());
    } else {
        bytes = source.toStdString();
    }
    QVERIFY(!bytes.empty());
    {
        std::ofstream out(path, std::ios::binary);
        out << bytes;
    }
    // An mtime in the past, so a write during the load could not hide inside the same clock tick.
    struct timespec old[2] = {{1'000'000'000, 0}, {1'000'000'000, 0}};
    QCOMPARE(::utimensat(AT_FDCWD, path.c_str(), old, 0), 0);
    const struct timespec before = mtimeOf(path);

    const int watch = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    QVERIFY(watch >= 0);
    QVERIFY(::inotify_add_watch(watch, path.c_str(), IN_ALL_EVENTS) >= 0);
    {
        const recording::LoadResult result = recording::loadRecording(path);
        if (source == QLatin1String("not json")) {
            QVERIFY(!result.run);
        } else {
            QVERIFY2(result.run, result.error.c_str());
            // Mapped read-only while the run lives.
            const std::string perms = mappingPermissions(path);
            QVERIFY2(!perms.empty(), "the recording is not mapped");
            QCOMPARE(perms[1], '-');
        }
    } // the run (and its mapping) is released here, which closes the file for the kernel
    const std::vector<std::uint32_t> events = drainEvents(watch);
    ::close(watch);

    bool opened = false, closedReadOnly = false;
    for (std::uint32_t mask : events) {
        opened = opened || (mask & IN_OPEN);
        closedReadOnly = closedReadOnly || (mask & IN_CLOSE_NOWRITE);
        QVERIFY2(!(mask & (IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB | IN_MOVE_SELF | IN_DELETE_SELF)),
                 qPrintable(QStringLiteral("unexpected inotify event 0x%1").arg(mask, 0, 16)));
    }
    QVERIFY2(opened, "inotify saw no open of the recording");
    QVERIFY2(closedReadOnly, "the recording was not closed as a read-only descriptor (IN_CLOSE_NOWRITE)");

    const struct timespec after = mtimeOf(path);
    QCOMPARE(after.tv_sec, before.tv_sec);
    QCOMPARE(after.tv_nsec, before.tv_nsec);
    QVERIFY(readAll(path) == bytes);
}

QTEST_GUILESS_MAIN(TestReadOnly)
#include "tst_readonly.moc"
