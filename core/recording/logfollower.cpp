#include "logfollower.h"

#include "builders.h"
#include "eventrunindex.h"
#include "loaderror.h"
#include "ndjsonline.h"
#include "recordingloader.h"

#include "core/io/bytesink.h"
#include "core/io/mappedfile.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tf::recording {

namespace {

// Enough of the last line read to notice a file rewritten in place to at least the size already read (an agent
// re-run writing `> run.ndjson` between two polls): a size check alone would take its bytes for an append.
constexpr std::size_t kTailCheckBytes = 64;

std::string errnoText()
{
    return std::strerror(errno);
}

} // namespace

struct LogFollower::State
{
    enum class Mode
    {
        Unknown,  // nothing complete on disk yet
        EventLog, // NDJSON, read incrementally
        Document, // a recording read whole on every new version
    };

    explicit State(std::string p)
        : path(std::move(p))
        , arena(std::make_shared<json::StringArena>())
    {
        staging = std::make_unique<Run>();
        staging->arena = arena;
        collector = std::make_unique<detail::EventCollector>(*staging);
    }
    ~State()
    {
        if (fd >= 0)
            ::close(fd);
        if (scratchFd >= 0)
            ::close(scratchFd);
    }

    Update poll(bool final);
    bool detect(Update &u);
    Update pollDocument();
    Update pollLog(bool final);
    bool openPath(Update &u);
    // Reads the complete lines appended to the current file; false when following must stop.
    bool readAppended(Update &u);
    bool indexNewLines(std::size_t from, Update &u);
    void publish(Update &u, bool final);

    const std::string path;
    Mode mode = Mode::Unknown;
    bool stopped = false;
    std::uint64_t bytesRead = 0;

    // The followed file: its descriptor, identity, and how far its complete lines were read.
    int fd = -1;
    dev_t device = 0;
    ino_t inode = 0;
    std::uint64_t offset = 0;
    std::size_t lineNo = 1;
    std::string tail; // the last bytes read (kTailCheckBytes at most)
    bool announcedMissing = false;

    // Every complete line read, across rotations, in a scratch file that the snapshots map.
    int scratchFd = -1;
    std::uint64_t scratchSize = 0;
    std::shared_ptr<const io::MappedFile> scratch;
    std::uint64_t indexedSize = 0;

    std::shared_ptr<json::StringArena> arena;
    std::unique_ptr<Run> staging; // owns nothing but a share of the arena: the collector's strings go there
    std::unique_ptr<detail::EventCollector> collector;
    // Every event read so far, indexed once each; a snapshot is published from it.
    detail::EventRunIndex index;
    std::vector<std::string> warnings;
    bool dirty = false;
    bool publishedFinal = false;

    // The last update's summaries, to keep those of the calls that cannot have changed.
    std::shared_ptr<const std::vector<CallSummary>> summaries;
    // The poll's own, while it runs.
    const CallIndexProgress *indexing = nullptr;

    // A recording read whole: the version last read.
    io::FileStamp documentStamp;
    bool documentRead = false;
};

LogFollower::LogFollower(std::string path)
    : m_state(std::make_unique<State>(std::move(path)))
{
}

LogFollower::~LogFollower() = default;

LogFollower::Update LogFollower::poll(bool final, const CallIndexProgress &indexing)
{
    m_state->indexing = indexing ? &indexing : nullptr;
    Update u = m_state->poll(final);
    m_state->indexing = nullptr;
    return u;
}

bool LogFollower::isEventLog() const
{
    return m_state->mode == State::Mode::EventLog;
}

bool LogFollower::stopped() const
{
    return m_state->stopped;
}

std::uint64_t LogFollower::bytesRead() const
{
    return m_state->bytesRead;
}

LogFollower::Update LogFollower::State::poll(bool final)
{
    Update u;
    if (stopped)
        return u;
    if (mode == Mode::Unknown && !detect(u)) {
        if (final && u.error.empty())
            u.error = path + ": no complete recording or event line on disk";
        return u;
    }
    return mode == Mode::Document ? pollDocument() : pollLog(final);
}

// §1.2: a file whose first line is a whole event object is an NDJSON log; one whose first value is anything else is
// a recording read whole. A first line still being written decides nothing yet.
bool LogFollower::State::detect(Update &u)
{
    std::string error;
    auto file = io::MappedFile::open(path, error);
    if (!file) {
        if (!announcedMissing)
            u.error = error;
        announcedMissing = true;
        return false;
    }
    const std::string_view text = file->bytes();
    std::size_t p = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    while (p < text.size() && json::isJsonSpace(text[p]))
        ++p;
    if (p >= text.size())
        return false;
    if (text[p] != '{') {
        mode = Mode::Document; // the loader says what it is instead
        return true;
    }
    const std::size_t newline = text.find('\n', p);
    const std::size_t eol = newline == std::string_view::npos ? text.size() : newline;
    json::StringArena scratchArena;
    const detail::NdjsonLine first = detail::readNdjsonLine(text, p, eol, scratchArena);
    if (first.kind == detail::NdjsonLine::Kind::Event) {
        if (newline == std::string_view::npos)
            return false; // one event and no newline yet: wait for it
        mode = Mode::EventLog;
        return true;
    }
    if (first.parseFailed && newline == std::string_view::npos)
        return false; // a first value still being written
    mode = Mode::Document;
    return true;
}

LogFollower::Update LogFollower::State::pollDocument()
{
    Update u;
    struct stat st
    {
    };
    if (::stat(path.c_str(), &st) != 0) {
        if (!announcedMissing)
            u.error = path + ": " + errnoText();
        announcedMissing = true;
        return u;
    }
    announcedMissing = false;
    const io::FileStamp now = io::stampOf(st);
    if (documentRead && now == documentStamp)
        return u;
    LoadResult loaded = loadRecording(path);
    if (!loaded.run) {
        // A writer that does not replace the file atomically leaves it half written for a moment: try again at the
        // next poll, and say why meanwhile.
        u.error = loaded.error;
        return u;
    }
    std::shared_ptr<const Run> run = std::move(loaded.run);
    auto indexed = indexCalls(run, {}, indexing ? *indexing : CallIndexProgress());
    if (!indexed)
        return {}; // abandoned: this version is read again at the next poll
    if (documentRead)
        u.notices.push_back(path + " was rewritten; read again");
    documentRead = true;
    documentStamp = now;
    bytesRead = now.size;
    u.run = std::move(run);
    u.summaries = indexed;
    u.calls = *indexed;
    summaries = std::move(indexed);
    return u;
}

bool LogFollower::State::openPath(Update &u)
{
    const int f = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (f < 0) {
        if (!announcedMissing)
            u.notices.push_back(path + ": " + errnoText() + "; waiting for it to appear");
        announcedMissing = true;
        return false;
    }
    struct stat st
    {
    };
    ::fstat(f, &st);
    fd = f;
    device = st.st_dev;
    inode = st.st_ino;
    offset = 0;
    lineNo = 1;
    tail.clear();
    announcedMissing = false;
    return true;
}

LogFollower::Update LogFollower::State::pollLog(bool final)
{
    Update u;
    if (scratchFd < 0) {
        std::string error;
        scratchFd = io::createScratchFile(error);
        if (scratchFd < 0) {
            u.error = path + ": " + error;
            stopped = true;
            return u;
        }
    }
    if (fd < 0 && !openPath(u) && !final)
        return u;
    if (fd >= 0 && !readAppended(u)) {
        publish(u, true);
        return u;
    }
    // tail -F: the path now names another file (renamed away, a fresh one in its place). What the old file still
    // had was read above; go on with the new one from its start.
    struct stat st
    {
    };
    if (fd >= 0 && ::stat(path.c_str(), &st) == 0 && (st.st_dev != device || st.st_ino != inode)) {
        struct stat old
        {
        };
        if (::fstat(fd, &old) == 0 && std::uint64_t(old.st_size) > offset)
            warnings.push_back("line " + std::to_string(lineNo) +
                               " of the file rotated away was incomplete and was ignored");
        ::close(fd);
        fd = -1;
        u.notices.push_back(path + " was rotated (a new file took its name); what was read is kept and reading goes "
                                   "on in the new file");
        if (openPath(u) && !readAppended(u)) {
            publish(u, true);
            return u;
        }
    }
    if (dirty || (final && !publishedFinal))
        publish(u, final);
    return u;
}

bool LogFollower::State::readAppended(Update &u)
{
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0)
        return true;
    const std::uint64_t size = std::uint64_t(st.st_size);
    bool rewritten = size < offset;
    if (!rewritten && !tail.empty()) {
        std::string now(tail.size(), '\0');
        const ssize_t n = ::pread(fd, now.data(), now.size(), off_t(offset - tail.size()));
        rewritten = n != ssize_t(now.size()) || now != tail;
    }
    if (rewritten) {
        u.notices.push_back(path + " was truncated or rewritten in place; what was read is kept and reading goes on "
                                   "from its start");
        offset = 0;
        lineNo = 1;
        tail.clear();
    }
    if (size <= offset)
        return true;
    // Only the complete lines are taken; a torn last line is read again, whole, once its newline is written.
    std::string chunk(std::size_t(size - offset), '\0');
    std::size_t got = 0;
    while (got < chunk.size()) {
        const ssize_t n = ::pread(fd, chunk.data() + got, chunk.size() - got, off_t(offset + got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += std::size_t(n);
    }
    chunk.resize(got);
    const std::size_t lastNewline = chunk.rfind('\n');
    if (lastNewline == std::string::npos)
        return true;
    chunk.resize(lastNewline + 1);
    io::FileSink sink(scratchFd);
    if (!sink.write(chunk)) {
        u.error = path + ": cannot keep what was read: " + sink.error();
        stopped = true;
        return false;
    }
    const std::uint64_t from = scratchSize;
    scratchSize += chunk.size();
    offset += chunk.size();
    bytesRead += chunk.size();
    tail = chunk.substr(chunk.size() - std::min(chunk.size(), kTailCheckBytes));
    return indexNewLines(std::size_t(from), u);
}

bool LogFollower::State::indexNewLines(std::size_t from, Update &u)
{
    std::string error;
    const int dupFd = ::fcntl(scratchFd, F_DUPFD_CLOEXEC, 0);
    auto mapped = dupFd >= 0 ? io::MappedFile::fromDescriptor(dupFd, path, error) : nullptr;
    if (!mapped) {
        u.error = path + ": cannot map what was read: " + (error.empty() ? errnoText() : error);
        stopped = true;
        return false;
    }
    scratch = std::move(mapped);
    const std::string_view text = scratch->bytes();
    std::size_t pos = from;
    if (pos == 0 && text.substr(0, 3) == "\xEF\xBB\xBF")
        pos = 3;
    while (pos < text.size()) {
        const std::size_t eol = text.find('\n', pos); // every line copied here ends with one
        const detail::NdjsonLine line = detail::readNdjsonLine(text, pos, eol, *arena);
        if (line.kind == detail::NdjsonLine::Kind::Bad) {
            u.error = detail::ndjsonLineError(path, lineNo, text, pos, eol, line) + "; following stopped";
            stopped = true;
            dirty = true;
            return false;
        }
        if (line.kind == detail::NdjsonLine::Kind::Event) {
            collector->add(line.value);
            dirty = true;
        }
        pos = eol + 1;
        ++lineNo;
    }
    indexedSize = text.size();
    return true;
}

void LogFollower::State::publish(Update &u, bool final)
{
    if (!scratch)
        return;
    const auto rebuildStart = std::chrono::steady_clock::now();
    auto run = std::make_shared<Run>();
    run->source = scratch;
    run->arena = arena;
    run->path = path;
    run->shape = RecordingShape::NdjsonEvents;
    run->live = !final && !stopped;
    // The first calls of the last update cannot change: lines are only ever added after them. Its last call can
    // (the tools its response asked for run after it), and so can every call after it.
    const std::size_t unchanged = !summaries || summaries->empty() ? 0 : summaries->size() - 1;
    run->events = collector->events;
    try {
        index.extend(*run);
        index.publish(*run, run->live ? detail::EventRunIndex::Calls::HoldBackAwaitingResponse
                                      : detail::EventRunIndex::Calls::All);
    } catch (const LoadFailure &failure) {
        u.error = failure.what();
        stopped = true;
        return;
    }
    if (run->calls.size() > kMaxCalls) {
        u.error = path + ": more than " + std::to_string(kMaxCalls) + " LLM calls; following stopped";
        stopped = true;
        return;
    }
    run->warnings.insert(run->warnings.end(), warnings.begin(), warnings.end());
    const std::span<const CallSummary> settled =
        summaries ? std::span(*summaries).first(std::min(unchanged, run->calls.size()))
                  : std::span<const CallSummary>();
    const double rebuildMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - rebuildStart).count();
    std::shared_ptr<const Run> published = std::move(run);
    double carriedMs = 0;
    auto indexed = indexCalls(published, settled, indexing ? *indexing : CallIndexProgress(), &carriedMs);
    if (!indexed)
        return; // abandoned: still dirty, published at the next poll
    u.rebuildMs = rebuildMs + carriedMs;
    u.unchangedCalls = settled.size();
    u.summaries = indexed;
    u.calls = *indexed;
    summaries = std::move(indexed);
    u.run = std::move(published);
    dirty = false;
    publishedFinal = final || stopped;
}

} // namespace tf::recording
