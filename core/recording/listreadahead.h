#pragma once

#include "builders.h"

#include "core/json/parser.h"
#include "core/json/stringends.h"

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace tf::recording::detail {

// The later of a recording's two big lists (its event list and its run's commit log) read on a thread of its own
// while the load's parse reads the rest of the file. The parse is serial, and it was more than a third of an
// `inspect --json` with the other core idle all along. The thread skims the file to the second list
// (json::skimMembers, several times the parse's speed), then parses that list as the load's parse would
// (json::parseStreamedArray, into an event collector or a list of row offsets of its own); the parse steps over it
// (json::ArrayReadAhead) and the loader takes what was read.
//
// Only the offset of the list comes from the skim, which validates nothing: the parse steps over a list only where it
// reaches a streamed array at that very offset, as deep, with items as deep, so what is read is what the parse would
// have read there. A list whose reading failed is read again by the parse, which then finds the same failure itself.
class ListReadAhead final : public json::ArrayReadAhead
{
public:
    // What the loader streams: whether a member path (names joined with '/') is an event list or a commit log, and
    // how deep the items of each are built; and what it does with the list when the parse steps over it, called on
    // the parse's thread at that point (so that it comes after what the parse streamed before it, and before what it
    // streams after: a list at the same path twice).
    struct Lists
    {
        std::function<bool(const std::string &path)> isEventList;
        std::function<bool(const std::string &path)> isCommitLog;
        std::function<std::size_t(const std::string &path)> itemDepth;
        std::function<void(ListReadAhead &read)> taken;
    };

    // Starts the thread (std::system_error when none can be made). `limits` are the load's parse's (their callbacks
    // are not used); the root object is at `rootOffset` of the file's bytes.
    ListReadAhead(std::shared_ptr<const io::MappedFile> file, std::size_t rootOffset, const json::ParseLimits &limits,
                  Lists lists, const LoadControl &control);
    // Stops the thread and waits for it.
    ~ListReadAhead() override;
    ListReadAhead(const ListReadAhead &) = delete;
    ListReadAhead &operator=(const ListReadAhead &) = delete;

    std::optional<std::size_t> take(std::size_t begin, std::size_t depth, std::size_t itemDepth,
                                    json::StringEnds *ends) override;

    // For Lists::taken: the list's path and what was read of it.
    const std::string &path() const { return m_path; }
    bool isEventList() const { return m_isEvents; }
    EventCollector &events() { return m_events; }
    std::vector<std::uint64_t> &rows() { return m_rows; }
    // Where the strings the event collector kept are: to be adopted by the run's arena.
    json::StringArena &arena() { return m_arena; }

    // Files smaller than this are parsed by the load alone (a thread costs more than it saves); 8 MB, or the value of
    // the environment variable TRACEFOLD_READ_AHEAD_BYTES: the test suite runs the samples again with 0, so every
    // recording with both lists takes this path.
    static std::size_t minimumFileBytes();

private:
    void skimThenRead();
    bool stopping() const { return m_stop.load(std::memory_order_relaxed) || m_control.cancelled(); }

    const std::shared_ptr<const io::MappedFile> m_file;
    const std::size_t m_rootOffset;
    json::ParseLimits m_limits;
    const Lists m_lists;
    const LoadControl &m_control;
    std::atomic<bool> m_stop{false};

    // Set by the thread under m_mutex, read by the parse.
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::size_t m_first = SIZE_MAX;  // the first list the skim found
    std::size_t m_target = SIZE_MAX; // the second: the one read here
    std::size_t m_skimmedTo = 0;     // the skim has reported every list before this offset
    bool m_skimDone = false;
    bool m_readDone = false;
    bool m_readOk = false;

    // The list: set with m_target.
    std::string m_path;
    std::size_t m_depth = 0;
    std::size_t m_itemDepth = SIZE_MAX;
    bool m_isEvents = false;
    // The thread's until m_readDone, then the parse's.
    json::StringArena m_arena;
    EventCollector m_events{m_arena};
    std::vector<std::uint64_t> m_rows;
    json::StringEnds m_ends;
    std::size_t m_end = 0;

    std::thread m_thread; // last: started once everything above is
};

} // namespace tf::recording::detail
