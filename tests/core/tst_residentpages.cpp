// How much of a mapped recording stays resident while it is read (issue 18, target 4): a pass over the file lets go
// of what it has read, so a window holding a large recording does not hold the recording. Measured from the kernel's
// own count for the mapping (/proc/self/smaps: mincore would report the page cache, not this process), at fixed
// points of each pass, never by time.

#include "core/generate/recordinggenerator.h"
#include "core/io/mappedfile.h"
#include "core/io/passedpages.h"
#include "core/recording/recordingloader.h"
#include "core/recording/resultentry.h"
#include "core/recording/runpreview.h"
#include "core/report/backtrack.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>

using namespace tf;

namespace {

constexpr std::size_t kMB = 1u << 20;
constexpr int kCalls = 700;
// What one call of the file below reads beyond the budget after the last trim (its messages, with the kernel's
// fault-around of 64 KB for each).
constexpr std::size_t kOneCall = 6 * kMB;

// The resident bytes of the mapping that begins at `data`; npos where /proc does not say.
std::size_t residentBytes(const char *data)
{
    std::ifstream smaps("/proc/self/smaps");
    if (!smaps)
        return std::string::npos;
    const auto start = reinterpret_cast<std::uintptr_t>(data);
    std::string line;
    bool inMapping = false;
    while (std::getline(smaps, line)) {
        const std::size_t dash = line.find('-');
        if (dash != std::string::npos && dash <= 16 && line.find(' ') > dash) {
            inMapping = std::stoull(line.substr(0, dash), nullptr, 16) == start;
            continue;
        }
        if (inMapping && line.rfind("Rss:", 0) == 0)
            return std::size_t(std::stoull(line.substr(4))) * 1024;
    }
    return std::string::npos;
}

std::size_t residentBytes(const io::MappedFile &file)
{
    return residentBytes(file.bytes().data());
}

// The resident bytes of every mapping of the file at `path` (a load maps it itself).
std::size_t residentBytesOf(const std::string &path)
{
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    bool inMapping = false;
    std::size_t total = 0;
    while (std::getline(smaps, line)) {
        const std::size_t dash = line.find('-');
        if (dash != std::string::npos && dash <= 16 && line.find(' ') > dash) {
            inMapping = line.size() >= path.size() && line.compare(line.size() - path.size(), path.size(), path) == 0;
            continue;
        }
        if (inMapping && line.rfind("Rss:", 0) == 0)
            total += std::size_t(std::stoull(line.substr(4))) * 1024;
    }
    return total;
}

} // namespace

class TestResidentPages : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void frontToBackPassKeepsAWindow();
    void loadHoldsAWindow();
    void passesOverTheCallsStayWithinTheBudget();
    void previewLetsGoOfWhatItRead();

private:
    QTemporaryDir m_dir;
    std::string m_path;
    std::size_t m_size = 0;
};

void TestResidentPages::initTestCase()
{
    if (!std::ifstream("/proc/self/smaps"))
        QSKIP("no /proc/self/smaps: the kernel does not say what is resident");
    QVERIFY(m_dir.isValid());
    // The many-call shape of the benchmarks (generate --history-window 40 --turn-calls 50), large enough that
    // holding it whole is far above every bound asserted here.
    generate::GeneratorOptions options;
    options.calls = kCalls;
    options.seed = 7;
    options.historyWindow = 40;
    options.turnCalls = 50;
    m_path = m_dir.filePath(QStringLiteral("long.json")).toStdString();
    std::ofstream out(m_path, std::ios::binary);
    generate::writeRecording(out, options);
    out.close();
    std::ifstream in(m_path, std::ios::binary | std::ios::ate);
    m_size = std::size_t(in.tellg());
    QVERIFY2(m_size > 3 * (io::kPassResidentBytes + kOneCall), std::to_string(m_size).c_str());
}

void TestResidentPages::frontToBackPassKeepsAWindow()
{
    std::string error;
    const auto file = io::MappedFile::open(m_path, error);
    QVERIFY2(file, error.c_str());
    const std::string_view text = file->bytes();
    io::PassedPages passed(file.get());
    constexpr std::size_t kChunk = 256 * 1024;
    std::size_t most = 0;
    unsigned sum = 0;
    for (std::size_t at = 0; at < text.size(); at += kChunk) {
        for (std::size_t i = at; i < std::min(text.size(), at + kChunk); i += 4096)
            sum += static_cast<unsigned char>(text[i]);
        passed.at(std::min(text.size(), at + kChunk));
        most = std::max(most, residentBytes(*file));
    }
    QVERIFY(sum > 0);
    // What is kept behind, the step it is let go by, the chunk just read, the kernel's fault-around.
    QVERIFY2(most <= io::kKeepBehindBytes + io::kPassStepBytes + kChunk + kMB, std::to_string(most).c_str());
}

void TestResidentPages::loadHoldsAWindow()
{
    // Sampled at every progress report: through the parse and the commit-log fold.
    std::size_t most = 0, reports = 0;
    recording::LoadControl control;
    control.progress = [&](double, const std::string &) {
        ++reports;
        most = std::max(most, residentBytesOf(m_path));
    };
    const recording::LoadResult loaded = recording::loadRecording(m_path, control);
    QVERIFY2(loaded.run, loaded.error.c_str());
    QCOMPARE(loaded.run->calls.size(), std::size_t(kCalls));
    QVERIFY(reports >= 4);
    // Kept behind, not yet let go (a step), the value being read ahead of where the parse reported; for each of the
    // two passes while the later list is read on a thread of its own (recording::detail::ListReadAhead).
    const std::size_t passes = loaded.run->listReadAhead ? 2 : 1;
    QVERIFY2(most <= passes * (io::kKeepBehindBytes + io::kPassStepBytes + 2 * kMB), std::to_string(most).c_str());
    // The run story read a payload of every call after the last report; the load lets everything go at the end.
    QVERIFY2(residentBytes(*loaded.run->source) <= kMB, std::to_string(residentBytes(*loaded.run->source)).c_str());
}

void TestResidentPages::passesOverTheCallsStayWithinTheBudget()
{
    const recording::LoadResult loaded = recording::loadRecording(m_path);
    QVERIFY2(loaded.run, loaded.error.c_str());
    const recording::Run &run = *loaded.run;
    // Where a result no call was served entered: every call is rebuilt, its messages read from all over the file.
    const auto entered = recording::whereResultsEntered(run, {"no-such-tool-call"});
    QVERIFY(entered.empty());
    const std::size_t afterEntered = residentBytes(*run.source);
    // The audit's backtrack: the final call rebuilt and where each of its results entered.
    const report::Backtrack backtrack = report::backtrackAnswer(run);
    QVERIFY(backtrack.finalOrdinal.has_value());
    const std::size_t afterBacktrack = residentBytes(*run.source);
    const std::vector<recording::CallSummary> calls = recording::summarizeCalls(run);
    QCOMPARE(calls.size(), run.calls.size());
    const std::size_t afterSummaries = residentBytes(*run.source);
    // The budget, and what the last call read after the last trim.
    const std::size_t bound = io::kPassResidentBytes + kOneCall;
    QVERIFY2(afterEntered <= bound, std::to_string(afterEntered).c_str());
    QVERIFY2(afterBacktrack <= bound, std::to_string(afterBacktrack).c_str());
    QVERIFY2(afterSummaries <= bound, std::to_string(afterSummaries).c_str());
}

void TestResidentPages::previewLetsGoOfWhatItRead()
{
    std::string error;
    const auto file = io::MappedFile::open(m_path, error);
    QVERIFY2(file, error.c_str());
    // More calls than the file holds: the preview reads all of it.
    const std::optional<recording::RunPreview> preview = recording::previewRun(file, 100000);
    QVERIFY(preview);
    QCOMPARE(preview->calls.size(), std::size_t(kCalls));
    // Kept by the window until the load replaces it: what it shows is read again on demand.
    QVERIFY2(residentBytes(*file) <= kMB, std::to_string(residentBytes(*file)).c_str());
}

QTEST_GUILESS_MAIN(TestResidentPages)
#include "tst_residentpages.moc"
