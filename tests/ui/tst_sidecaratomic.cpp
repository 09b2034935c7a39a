// Sidecar writes are atomic (issue 8): a write that fails, or a writer that dies half way, leaves the previous
// sidecar whole and leaves the recording alone. The failing write is made real with RLIMIT_FSIZE, which stops a
// write past a few bytes with EFBIG for every user, root included (a read-only directory would not stop root).

#include "ui/services/sidecarstore.h"

#include "core/generate/recordinggenerator.h"
#include "core/recording/recordingloader.h"
#include "core/report/notes.h"

#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <fstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tf;
using ui::SidecarStore;

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

// Caps the size of any file this process writes, for the scope's lifetime.
class FileSizeLimit
{
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        ::getrlimit(RLIMIT_FSIZE, &m_old);
        m_oldHandler = std::signal(SIGXFSZ, SIG_IGN); // EFBIG instead of the signal that would end the test
        struct rlimit limit = m_old;
        limit.rlim_cur = bytes;
        m_ok = ::setrlimit(RLIMIT_FSIZE, &limit) == 0;
    }
    ~FileSizeLimit()
    {
        ::setrlimit(RLIMIT_FSIZE, &m_old);
        std::signal(SIGXFSZ, m_oldHandler);
    }
    bool ok() const { return m_ok; }

private:
    struct rlimit m_old
    {
    };
    void (*m_oldHandler)(int) = nullptr;
    bool m_ok = false;
};

} // namespace

class TestSidecarAtomic : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void failedWriteKeepsThePreviousSidecar();
    void writerDyingMidWriteKeepsThePreviousSidecar();

private:
    QTemporaryDir m_dir;
    QString m_recording;
    QByteArray m_recordingBytes;
    std::shared_ptr<const recording::Run> m_run;
};

void TestSidecarAtomic::init()
{
    QVERIFY(m_dir.isValid());
    m_recording = m_dir.filePath(QStringLiteral("run-%1.json").arg(QLatin1String(QTest::currentTestFunction())));
    generate::GeneratorOptions options;
    options.calls = 3;
    options.seed = 4;
    m_recordingBytes = QByteArray::fromStdString(generate::generateRecording(options));
    QFile f(m_recording);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(m_recordingBytes), m_recordingBytes.size());
    f.close();
    const recording::LoadResult result = recording::loadRecording(m_recording.toStdString());
    QVERIFY2(result.run, result.error.c_str());
    m_run = result.run;
}

void TestSidecarAtomic::failedWriteKeepsThePreviousSidecar()
{
    SidecarStore store;
    QVERIFY(store.open(m_run));
    QVERIFY(store.isWritable());
    QVERIFY(store.toggleBookmark(0));
    const QString sidecar = store.path();
    const QByteArray before = readAll(sidecar);
    QVERIFY(!before.isEmpty());
    QVERIFY(before.contains("\"bookmarks\""));

    QSignalSpy failed(&store, &SidecarStore::saveFailed);
    {
        FileSizeLimit limit(16); // far less than the sidecar: the temporary file cannot be written whole
        QVERIFY(limit.ok());
        store.addNote(store.callTarget(1), QStringLiteral("a note that does not fit"));
    }
    QCOMPARE(failed.count(), 1);
    QVERIFY(!store.lastError().isEmpty());
    QCOMPARE(readAll(sidecar), before);               // the previous sidecar, whole
    QCOMPARE(readAll(m_recording), m_recordingBytes); // the recording untouched
    const QStringList left = QDir(m_dir.path()).entryList(QDir::Files);
    for (const QString &name : left) // no half-written file beside it
        QVERIFY2(name.endsWith(QLatin1String(".json")), qPrintable(name));

    // The edit is kept in memory; the next write that can succeed saves it.
    QVERIFY(store.save());
    QVERIFY(readAll(sidecar).contains("a note that does not fit"));
    const notes::ReadResult read = notes::readSidecarFile(sidecar.toStdString());
    QVERIFY2(read.error.empty(), read.error.c_str());
    QVERIFY(read.sidecar);
    QCOMPARE(read.sidecar->notes.size(), std::size_t(1));
}

void TestSidecarAtomic::writerDyingMidWriteKeepsThePreviousSidecar()
{
    SidecarStore store;
    QVERIFY(store.open(m_run));
    QVERIFY(store.toggleBookmark(0));
    const QString sidecar = store.path();
    const QByteArray before = readAll(sidecar);
    QVERIFY(!before.isEmpty());

    // A child writes a new sidecar the way the store does (QSaveFile), gets half of it out, and dies before the
    // commit, as a crash would: nothing is renamed over the old file.
    const pid_t pid = ::fork();
    QVERIFY(pid >= 0);
    if (pid == 0) {
        QSaveFile file(sidecar);
        if (!file.open(QIODevice::WriteOnly))
            ::_exit(3);
        const QByteArray half = before.left(before.size() / 2);
        file.write(half);
        file.flush();
        ::_exit(0); // no commit, no destructor: the crash
    }
    int status = 0;
    QCOMPARE(::waitpid(pid, &status, 0), pid);
    QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    QCOMPARE(readAll(sidecar), before);
    QCOMPARE(readAll(m_recording), m_recordingBytes);

    // The store reopens it as it was.
    SidecarStore reopened;
    QVERIFY(reopened.open(m_run));
    QVERIFY(reopened.isBookmarked(0));
}

QTEST_GUILESS_MAIN(TestSidecarAtomic)
#include "tst_sidecaratomic.moc"
