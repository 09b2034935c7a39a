// A recording that changes on disk while Tracefold reads it (issue 17, item 1): truncated in place (logrotate's
// copytruncate), shrunk, replaced by rename, appended to, rewritten in place. Nothing may crash (the mapping outlives
// the file's bytes, which used to kill the process with SIGBUS), a changed file is reported as such (one line naming
// it; the CLI exits 2), an answer is only ever given for a file as it was (the original or what it became), and the
// recording's bytes are never written.
//
// The guard itself is checked first, deterministically: a vanished page reads as zeros and marks its mapping, and a
// fault anywhere else still reaches the handler that was there before. Then the stress runs: the in-process reader
// (load, every call's summary, the inspect document) and the CLI, each hundreds of times with the change landing at
// a random moment of the read.

#include "core/generate/recordinggenerator.h"
#include "core/io/mappedfile.h"
#include "core/recording/callview.h"
#include "core/recording/recordingloader.h"
#include "core/report/inspectreport.h"

#include "tests/clirun.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <optional>
#include <sys/mman.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace tf;

namespace {

std::string readAll(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Writes `bytes` into the file at `path` in place (the same inode when it exists), then dates it in the past: a
// change made within the same clock tick must still move its mtime.
void writeInPlace(const std::string &path, std::string_view bytes)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        qFatal("cannot write %s", path.c_str());
    for (std::size_t off = 0; off < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + off, bytes.size() - off);
        if (n <= 0)
            qFatal("cannot write %s", path.c_str());
        off += std::size_t(n);
    }
    const struct timespec old[2] = {{1'000'000'000, 0}, {1'000'000'000, 0}};
    ::futimens(fd, old);
    ::close(fd);
}

void appendTo(const std::string &path, std::string_view bytes)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0 || ::write(fd, bytes.data(), bytes.size()) != ssize_t(bytes.size()))
        qFatal("cannot append to %s", path.c_str());
    ::close(fd);
}

// The inspect document a reader gives for a run, or "" when the load fails.
std::string inspectDocument(const recording::Run &run)
{
    return report::inspectJsonText(run, recording::summarizeCalls(run));
}

// How the file at the path changes under the reader.
enum class Change
{
    TruncateToZero,
    Shrink,
    ReplaceByRename,
    Append,
    RewriteInPlace
};

struct Scenario
{
    std::string original;    // the file as the reader opens it
    std::string appended;    // what Append adds
    std::string replacement; // what ReplaceByRename and RewriteInPlace put there (another size than the original)
};

// Whether `holds` is true of a state the path was in after the change began: the end state `now`, or the empty file
// a rewrite in place leaves for a moment before it writes the new bytes (a reader that opened it then is right).
template <typename Predicate>
bool anyState(Change change, const std::string &now, Predicate holds)
{
    return holds(now) || (change == Change::RewriteInPlace && holds(std::string()));
}

// Applies the change; returns what the path holds afterwards. `held` keeps the replaced inode reachable, so the
// test can check that nobody wrote to the file the reader had mapped.
std::string applyChange(Change change, const std::string &path, const Scenario &s, std::size_t shrinkTo,
                        const std::string &held)
{
    switch (change) {
    case Change::TruncateToZero:
        if (::truncate(path.c_str(), 0) != 0)
            qFatal("truncate failed");
        return {};
    case Change::Shrink:
        if (::truncate(path.c_str(), off_t(shrinkTo)) != 0)
            qFatal("truncate failed");
        return s.original.substr(0, shrinkTo);
    case Change::ReplaceByRename: {
        const std::string fresh = path + ".new";
        writeInPlace(fresh, s.replacement);
        ::unlink(held.c_str());
        if (::link(path.c_str(), held.c_str()) != 0 || ::rename(fresh.c_str(), path.c_str()) != 0)
            qFatal("replace failed");
        return s.replacement;
    }
    case Change::Append:
        appendTo(path, s.appended);
        return s.original + s.appended;
    case Change::RewriteInPlace: {
        const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
        if (fd < 0 || ::write(fd, s.replacement.data(), s.replacement.size()) != ssize_t(s.replacement.size()))
            qFatal("rewrite failed");
        ::close(fd);
        return s.replacement;
    }
    }
    return {};
}

const char *const kChangedWording = "the file changed on disk while it was being read";

// Counts over a stress run, printed at its end.
struct Tally
{
    int rounds = 0, originalAnswer = 0, finalAnswer = 0, changedRefusal = 0, otherRefusal = 0;
    // Where a change lands is up to the machine's timing: on a loaded one, the planned rounds may all land before or
    // after the reads. More rounds then, up to four times as many, until one has landed during a read.
    bool wantsAnotherRound(int planned) const
    {
        return rounds < planned || (changedRefusal == 0 && rounds < 4 * planned);
    }
    QString line() const
    {
        return QStringLiteral("answered for the original %1, for the changed file %2; refused as changed %3, "
                              "refused otherwise (the file as changed before the open) %4")
            .arg(originalAnswer)
            .arg(finalAnswer)
            .arg(changedRefusal)
            .arg(otherRefusal);
    }
};

// The handler that was installed before Tracefold's (the first MappedFile installs it): counts what reached it.
// A real fault in a mapping nobody guards is repaired here the same way, so the test process survives it.
std::atomic<int> g_previousHandlerCalls{0};
void previousHandler(int, siginfo_t *info, void *)
{
    g_previousHandlerCalls.fetch_add(1);
    if (info->si_code > 0) {
        const auto page = reinterpret_cast<std::uintptr_t>(info->si_addr) & ~std::uintptr_t(4095);
        ::mmap(reinterpret_cast<void *>(page), 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    }
}

// Under AddressSanitizer every read costs ten to twenty times as much: fewer rounds over smaller files, still a
// couple of hundred reads in all.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif
constexpr int kRoundsPerChange = kSanitized ? 12 : 25;

} // namespace

class TestChangingFile : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void vanishedPagesReadAsZeros();
    void otherFaultsReachThePreviousHandler();
    void aLoadedRunReportsTheChange();
    void replacedOrGrownFileIsNamed_data();
    void replacedOrGrownFileIsNamed();
    void coreReaderUnderChanges_data();
    void coreReaderUnderChanges();
    void cliUnderChanges_data();
    void cliUnderChanges();

private:
    void addChangeRows();
    QTemporaryDir m_dir;
    Scenario m_recording, m_ndjson;
};

void TestChangingFile::initTestCase()
{
    // Before the first mapping: Tracefold's handler must chain to this one.
    struct sigaction action
    {
    };
    action.sa_sigaction = &previousHandler;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    QCOMPARE(::sigaction(SIGBUS, &action, nullptr), 0);

    QVERIFY(m_dir.isValid());
    generate::GeneratorOptions options;
    options.calls = kSanitized ? 8 : 20;
    options.seed = 3;
    m_recording.original = generate::generateRecording(options);
    options.calls = kSanitized ? 6 : 14;
    options.seed = 4;
    m_recording.replacement = generate::generateRecording(options);
    m_recording.appended = "\n{\"events\": []}\n";

    // NDJSON grows by appending: thirty turns of a real event log (ten under ASan), then one more.
    const std::string log = readAll(TRACEFOLD_TEST_DATA "/samples/real-9.62/dev-6-events.ndjson");
    QVERIFY(!log.empty() && log.back() == '\n');
    for (int i = 0; i < (kSanitized ? 10 : 30); ++i)
        m_ndjson.original += log;
    m_ndjson.appended = log;
    for (int i = 0; i < (kSanitized ? 7 : 20); ++i)
        m_ndjson.replacement += log;
}

void TestChangingFile::vanishedPagesReadAsZeros()
{
    const std::string path = m_dir.filePath(QStringLiteral("guard.bin")).toStdString();
    const std::string bytes(5 * 4096 + 100, 'x');
    writeInPlace(path, bytes);
    std::string error;
    const auto file = io::MappedFile::open(path, error);
    QVERIFY2(file, error.c_str());
    QVERIFY(file->changedOnDisk().empty());
    QVERIFY(!file->pagesVanished());

    QCOMPARE(::truncate(path.c_str(), 4096), 0);
    file->releaseResidentPages(); // the next read goes to the file, which no longer has these pages
    const std::string_view view = file->bytes();
    QCOMPARE(view[0], 'x');
    QCOMPARE(view[4096 * 3 + 7], '\0'); // SIGBUS before the guard
    QCOMPARE(view[view.size() - 1], '\0');
    QVERIFY(file->pagesVanished());
    QCOMPARE(g_previousHandlerCalls.load(), 0);

    const std::string message = file->changedOnDisk();
    QVERIFY2(message.rfind(path + ": " + kChangedWording, 0) == 0, message.c_str());
    QVERIFY2(message.find("truncated from 20580 to 4096 bytes") != std::string::npos, message.c_str());
    QVERIFY(message.find('\n') == std::string::npos);

    // What was mapped over is read-only and private like the rest: nothing can reach the file through it.
    std::ifstream maps("/proc/self/maps");
    std::string line;
    const auto at = reinterpret_cast<std::uintptr_t>(view.data()) + 4096 * 3;
    bool found = false;
    while (std::getline(maps, line)) {
        unsigned long from = 0, to = 0;
        char perms[5] = {};
        if (std::sscanf(line.c_str(), "%lx-%lx %4s", &from, &to, perms) == 3 && at >= from && at < to) {
            QCOMPARE(QByteArray(perms), QByteArray("r--p"));
            found = true;
        }
    }
    QVERIFY(found);
    QCOMPARE(readAll(path), bytes.substr(0, 4096));
}

void TestChangingFile::otherFaultsReachThePreviousHandler()
{
    // Tracefold's handler is installed by now (the test above mapped a file).
    const std::string path = m_dir.filePath(QStringLiteral("unguarded.bin")).toStdString();
    writeInPlace(path, std::string(3 * 4096, 'y'));
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    QVERIFY(fd >= 0);
    void *p = ::mmap(nullptr, 3 * 4096, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    QVERIFY(p != MAP_FAILED);
    QCOMPARE(::truncate(path.c_str(), 0), 0);
    const volatile char *bytes = static_cast<const char *>(p);
    QCOMPARE(bytes[4096 + 1], '\0'); // a fault in a mapping nobody guards: the previous handler repaired it
    QCOMPARE(g_previousHandlerCalls.load(), 1);
    ::munmap(p, 3 * 4096);

    // A SIGBUS sent by a process is no page fault: it goes to the previous handler too.
    QCOMPARE(::raise(SIGBUS), 0);
    QCOMPARE(g_previousHandlerCalls.load(), 2);
}

void TestChangingFile::aLoadedRunReportsTheChange()
{
    const std::string path = m_dir.filePath(QStringLiteral("loaded.json")).toStdString();
    writeInPlace(path, m_recording.original);
    const recording::LoadResult loaded = recording::loadRecording(path);
    QVERIFY2(loaded.run, loaded.error.c_str());
    QVERIFY(loaded.run->changedOnDisk().empty());
    const std::string before = inspectDocument(*loaded.run);

    // The loader released the mapping's pages: every call rebuilt from here reads the file again, which is gone.
    QCOMPARE(::truncate(path.c_str(), 8192), 0);
    const std::string after = inspectDocument(*loaded.run);
    QVERIFY(loaded.run->pagesVanished());
    QVERIFY(after != before); // zeros where the payloads were: this is why no front end may trust it now
    const std::string message = loaded.run->changedOnDisk();
    QVERIFY2(message.rfind(path + ": " + kChangedWording, 0) == 0, message.c_str());

    // A load of what is there now is a plain refusal of a cut file, not a crash.
    const recording::LoadResult again = recording::loadRecording(path);
    QVERIFY(!again.run);
    QVERIFY(!again.changedOnDisk);
}

void TestChangingFile::replacedOrGrownFileIsNamed_data()
{
    QTest::addColumn<int>("change");
    QTest::addColumn<QString>("wording");
    QTest::newRow("replaced-by-rename") << int(Change::ReplaceByRename) << "another file was put in its place";
    QTest::newRow("appended") << int(Change::Append) << "grew from";
    QTest::newRow("rewritten-same-size") << -1 << "rewritten in place";
}

void TestChangingFile::replacedOrGrownFileIsNamed()
{
    // No page vanishes in these: the path's stat tells.
    QFETCH(int, change);
    QFETCH(QString, wording);
    const std::string path = m_dir.filePath(QStringLiteral("stamp.json")).toStdString();
    writeInPlace(path, m_recording.original);
    const recording::LoadResult loaded = recording::loadRecording(path);
    QVERIFY2(loaded.run, loaded.error.c_str());
    if (change < 0) {
        std::string same = m_recording.original;
        same[same.size() - 2] = ' ';
        const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
        QCOMPARE(::pwrite(fd, same.data() + same.size() - 2, 1, off_t(same.size() - 2)), ssize_t(1));
        ::close(fd);
    } else {
        applyChange(Change(change), path, m_recording, 0, path + ".held");
    }
    const std::string message = loaded.run->changedOnDisk();
    QVERIFY2(message.rfind(path + ": " + kChangedWording, 0) == 0, message.c_str());
    QVERIFY2(message.find(wording.toStdString()) != std::string::npos, message.c_str());
    QVERIFY(!loaded.run->pagesVanished());
}

void TestChangingFile::addChangeRows()
{
    QTest::addColumn<bool>("ndjson");
    QTest::addColumn<int>("change");
    QTest::newRow("recording-truncated-to-zero") << false << int(Change::TruncateToZero);
    QTest::newRow("recording-shrunk") << false << int(Change::Shrink);
    QTest::newRow("recording-replaced-by-rename") << false << int(Change::ReplaceByRename);
    QTest::newRow("recording-appended") << false << int(Change::Append);
    QTest::newRow("recording-rewritten-in-place") << false << int(Change::RewriteInPlace);
    QTest::newRow("ndjson-truncated-to-zero") << true << int(Change::TruncateToZero);
    QTest::newRow("ndjson-shrunk") << true << int(Change::Shrink);
    QTest::newRow("ndjson-appended") << true << int(Change::Append);
}

void TestChangingFile::coreReaderUnderChanges_data()
{
    addChangeRows();
}

void TestChangingFile::coreReaderUnderChanges()
{
    QFETCH(bool, ndjson);
    QFETCH(int, change);
    const Scenario &s = ndjson ? m_ndjson : m_recording;
    const std::string path =
        m_dir.filePath(ndjson ? QStringLiteral("core.ndjson") : QStringLiteral("core.json")).toStdString();
    const std::string held = path + ".held";

    // What a reader answers for the file as it is: the document, or nothing when it refuses.
    const auto answerFor = [&](const std::string &bytes) -> std::optional<std::string> {
        writeInPlace(path, bytes);
        const recording::LoadResult r = recording::loadRecording(path);
        return r.run ? std::optional(inspectDocument(*r.run)) : std::nullopt;
    };
    const std::optional<std::string> originalAnswer = answerFor(s.original);
    QVERIFY(originalAnswer);

    QElapsedTimer clock;
    clock.start();
    answerFor(s.original);
    const qint64 readNs = std::max<qint64>(clock.nsecsElapsed(), 1'000'000);

    QRandomGenerator random(17 + quint32(change) + (ndjson ? 100 : 0));
    Tally tally;
    for (; tally.wantsAnotherRound(kRoundsPerChange); ++tally.rounds) {
        writeInPlace(path, s.original);
        std::string answer, error;
        bool changed = false;
        std::thread reader([&] {
            const recording::LoadResult r = recording::loadRecording(path);
            if (!r.run) {
                error = r.error;
                changed = r.changedOnDisk;
                return;
            }
            answer = inspectDocument(*r.run); // built in full before the check, as every front end does
            error = r.run->changedOnDisk();
            changed = !error.empty();
        });
        std::this_thread::sleep_for(std::chrono::nanoseconds(random.bounded(readNs + readNs / 4)));
        const std::size_t shrinkTo = std::size_t(random.bounded(quint32(s.original.size())));
        const std::string now = applyChange(Change(change), path, s, shrinkTo, held);
        reader.join();

        // Nothing was written: the path holds what the change left, the replaced inode what was opened.
        QVERIFY(readAll(path) == now);
        if (Change(change) == Change::ReplaceByRename)
            QVERIFY(readAll(held) == s.original);

        if (changed) {
            QVERIFY2(error.rfind(path + ": " + kChangedWording, 0) == 0, error.c_str());
            ++tally.changedRefusal;
            continue;
        }
        if (!error.empty()) {
            QVERIFY2(error.rfind(path + ": ", 0) == 0 && error.find('\n') == std::string::npos, error.c_str());
            QVERIFY2(anyState(Change(change), now, [&](const std::string &state) { return !answerFor(state); }),
                     "refused a file that reads well in every state it was in");
            ++tally.otherRefusal;
            continue;
        }
        // An answer is for the file as opened, or for what it became when the change came first.
        if (answer == originalAnswer) {
            ++tally.originalAnswer;
        } else {
            QVERIFY2(
                anyState(Change(change), now, [&](const std::string &state) { return answerFor(state) == answer; }),
                "an answer for neither the original nor any state the file was changed to");
            ++tally.finalAnswer;
        }
    }
    qInfo("%d rounds: %s", tally.rounds, qPrintable(tally.line()));
    QVERIFY2(tally.changedRefusal > 0, "no change landed during a read: the test did not test the guard");
}

void TestChangingFile::cliUnderChanges_data()
{
    addChangeRows();
}

void TestChangingFile::cliUnderChanges()
{
    QFETCH(bool, ndjson);
    QFETCH(int, change);
    const Scenario &s = ndjson ? m_ndjson : m_recording;
    const QString qpath = m_dir.filePath(ndjson ? QStringLiteral("cli.ndjson") : QStringLiteral("cli.json"));
    const std::string path = qpath.toStdString();
    const std::string held = path + ".held";
    // Every command that reads a recording takes its turn.
    const QString html = m_dir.filePath(QStringLiteral("cli-report.html"));
    const QList<QStringList> commands = {{QStringLiteral("inspect"), QStringLiteral("--json"), qpath},
                                         {QStringLiteral("search"), qpath, QStringLiteral("parcel")},
                                         {QStringLiteral("report"), qpath, QStringLiteral("-o"), html},
                                         {QStringLiteral("unpack"), qpath, QStringLiteral("-o"), html}};

    // What the command answers for the file as it is: its output and the file it wrote, or nothing when it refuses.
    const auto outputOf = [&](const QByteArray &out) {
        return out + QByteArray::fromStdString(readAll(html.toStdString()));
    };
    const auto answerFor = [&](const QStringList &args, const std::string &bytes) -> std::optional<QByteArray> {
        writeInPlace(path, bytes);
        ::unlink(html.toStdString().c_str());
        const testsupport::CliResult r = testsupport::cli(args);
        return r.exitCode == 0 ? std::optional(outputOf(r.out)) : std::nullopt;
    };
    QList<std::optional<QByteArray>> originalAnswers;
    QElapsedTimer clock;
    clock.start();
    for (const QStringList &args : commands) {
        originalAnswers.append(answerFor(args, s.original));
        QVERIFY(originalAnswers.last());
    }
    const qint64 commandUs = std::max<qint64>(clock.nsecsElapsed() / 1000 / commands.size(), 1000);

    QRandomGenerator random(29 + quint32(change) + (ndjson ? 100 : 0));
    Tally tally;
    for (; tally.wantsAnotherRound(kRoundsPerChange); ++tally.rounds) {
        const int round = tally.rounds;
        const QStringList &args = commands[round % commands.size()];
        const std::optional<QByteArray> &originalAnswer = originalAnswers[round % commands.size()];
        ::unlink(html.toStdString().c_str());
        writeInPlace(path, s.original);
        QProcess process;
        process.start(QStringLiteral(TRACEFOLD_CLI), args);
        QVERIFY(process.waitForStarted());
        // The change lands anywhere from the command's start to just after its end.
        std::this_thread::sleep_for(std::chrono::microseconds(random.bounded(commandUs + commandUs / 4)));
        const std::size_t shrinkTo = std::size_t(random.bounded(quint32(s.original.size())));
        const std::string now = applyChange(Change(change), path, s, shrinkTo, held);
        QVERIFY(process.waitForFinished(60000));
        QVERIFY2(process.exitStatus() == QProcess::NormalExit,
                 qPrintable(QStringLiteral("%1 died (signal %2)").arg(args.first()).arg(process.exitCode())));
        const QByteArray out = process.readAllStandardOutput();
        const QByteArray err = process.readAllStandardError();

        QVERIFY(readAll(path) == now);
        if (Change(change) == Change::ReplaceByRename)
            QVERIFY(readAll(held) == s.original);

        if (process.exitCode() != 0) {
            QCOMPARE(process.exitCode(), 2);
            QVERIFY2(err.endsWith('\n') && err.count('\n') == 1, err.constData());
            QVERIFY2(err.startsWith(QByteArray::fromStdString(path + ": ")), err.constData());
            QVERIFY2(out.isEmpty(), "printed an answer and refused");
            if (err.contains(kChangedWording)) {
                ++tally.changedRefusal;
            } else {
                QVERIFY2(
                    anyState(Change(change), now, [&](const std::string &state) { return !answerFor(args, state); }),
                    "refused a file that reads well in every state it was in");
                ++tally.otherRefusal;
            }
            continue;
        }
        const QByteArray answer = outputOf(out);
        if (answer == originalAnswer) {
            ++tally.originalAnswer;
        } else {
            QVERIFY2(anyState(Change(change), now,
                              [&](const std::string &state) { return answerFor(args, state) == answer; }),
                     "an answer for neither the original nor any state the file was changed to");
            ++tally.finalAnswer;
        }
    }
    qInfo("%d rounds: %s", tally.rounds, qPrintable(tally.line()));
    QVERIFY2(tally.changedRefusal > 0, "no change landed during a read: the test did not test the guard");
}

QTEST_APPLESS_MAIN(TestChangingFile)
#include "tst_changingfile.moc"
