#include "listreadahead.h"

#include "core/io/environmentsize.h"
#include "core/io/passedpages.h"
#include "core/json/skim.h"

#include <unistd.h>

namespace tf::recording::detail {

std::size_t ListReadAhead::minimumFileBytes()
{
    static const std::size_t bytes = io::sizeFromEnvironment("TRACEFOLD_READ_AHEAD_BYTES", 8u << 20);
    return bytes;
}

ListReadAhead::ListReadAhead(std::shared_ptr<const io::MappedFile> file, std::size_t rootOffset,
                             const json::ParseLimits &limits, Lists lists, const LoadControl &control)
    : m_file(std::move(file))
    , m_rootOffset(rootOffset)
    , m_limits(limits)
    , m_lists(std::move(lists))
    , m_control(control)
{
    m_limits.streamArrayAt = nullptr;
    m_limits.streamedItemDepth = nullptr;
    m_limits.readAhead = nullptr;
    // A failure here is the parse's to describe, when it reads the list again: counting the lines up to it would be
    // a pass over everything before it, with the parse waiting.
    m_limits.locateErrors = false;
    m_thread = std::thread([this] {
        try {
            skimThenRead();
        } catch (...) { // out of memory: the parse reads the list itself, and meets the same
            const std::lock_guard lock(m_mutex);
            m_skimDone = true;
            m_readDone = true;
            m_readOk = false;
            m_changed.notify_all();
        }
    });
}

ListReadAhead::~ListReadAhead()
{
    m_stop = true;
    m_thread.join();
}

void ListReadAhead::skimThenRead()
{
    const std::string_view text = m_file->bytes();
    // Where the skim is: a list the parse reaches before it that the skim did not report is not read here.
    const auto skimmedTo = [&](std::size_t offset) {
        const std::lock_guard lock(m_mutex);
        m_skimmedTo = offset;
        m_changed.notify_all();
    };
    // The first list is the parse's to read; the skim goes on to the second and stops there.
    const auto place = [&](const std::vector<std::string_view> &names, std::size_t at) {
        if (stopping())
            return false;
        skimmedTo(at);
        const std::string path = joinedPath(names);
        if (!m_lists.isEventList(path) && !m_lists.isCommitLog(path))
            return true;
        const std::lock_guard lock(m_mutex);
        if (m_first == SIZE_MAX) {
            m_first = at;
            m_changed.notify_all();
            return true;
        }
        m_target = at;
        m_path = path;
        m_depth = names.size();
        m_itemDepth = m_lists.itemDepth(path);
        m_isEvents = m_lists.isEventList(path);
        m_changed.notify_all();
        return false;
    };
    const auto crossed = [&](std::size_t offset) {
        skimmedTo(offset);
        return !stopping();
    };
    // Read through a buffer: the pages the skim crosses are the parse's to bring in. A mapping that cannot be read so
    // (an unpacked recording's scratch file) is not skimmed: through the mapping, the skim would bring its pages in
    // ahead of the parse, or let go of pages the parse is yet to read.
    const std::size_t depth = m_limits.streamPathDepth;
    if (!m_file->mapped()) {
        json::skimMembers(text, m_rootOffset, depth, place, crossed);
    } else if (const int fd = m_file->reopen(); fd >= 0) {
        json::skimMembersOfFile(fd, text.size(), m_rootOffset, depth, place, json::kSkimChunkBytes, crossed);
        ::close(fd);
    }
    {
        const std::lock_guard lock(m_mutex);
        m_skimDone = true;
        m_changed.notify_all();
        if (m_target == SIZE_MAX)
            return;
    }

    json::ParseLimits limits = m_limits;
    io::PassedPages passed(m_file.get(), m_target);
    limits.progress = [&](std::size_t offset) {
        passed.at(offset);
        return !stopping();
    };
    limits.recordStringEnds = &m_ends;
    limits.onStreamedItem = [&](json::Value item, std::size_t begin, std::size_t) {
        if (m_isEvents)
            m_events.add(item);
        else
            m_rows.push_back(begin);
        return true;
    };
    json::ParseError error;
    std::size_t end = 0;
    const bool ok = json::parseStreamedArray(text, m_target, m_depth, m_itemDepth, m_arena, limits, error, end);
    m_ends.finish();
    const std::lock_guard lock(m_mutex);
    m_end = end;
    m_readOk = ok;
    m_readDone = true;
    m_changed.notify_all();
}

std::optional<std::size_t> ListReadAhead::take(std::size_t begin, std::size_t depth, std::size_t itemDepth,
                                               json::StringEnds *ends)
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [&] { return m_skimDone || m_first == begin || m_target != SIZE_MAX || m_skimmedTo > begin; });
    if (begin != m_target || depth != m_depth || itemDepth != m_itemDepth)
        return std::nullopt;
    m_changed.wait(lock, [&] { return m_readDone; });
    if (!m_readOk)
        return std::nullopt;
    lock.unlock(); // the thread is done
    if (ends)
        ends->append(m_ends);
    m_lists.taken(*this);
    return m_end;
}

} // namespace tf::recording::detail
