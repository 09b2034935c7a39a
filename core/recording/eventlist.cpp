#include "eventlist.h"

#include <algorithm>
#include <atomic>

namespace tf::recording {

void EventList::push_back(const Event &e)
{
    const std::size_t slot = m_size & (kChunkEvents - 1);
    if (slot == 0) {
        m_chunks.push_back(std::make_shared<Chunk>());
    } else if (m_chunks.back().use_count() > 1) {
        // A copy holds this chunk and reads its first `slot` events: write into a chunk of our own. A count read as
        // more than one while the other holder lets go costs a needless copy, never a shared write: no one can come
        // to hold the chunk again except by copying this list.
        auto own = std::make_shared<Chunk>();
        std::copy_n(m_chunks.back()->begin(), slot, own->begin());
        m_chunks.back() = std::move(own);
    } else {
        // use_count() is a relaxed load: order this write after whatever the last other holder read before letting go.
        std::atomic_thread_fence(std::memory_order_acquire);
    }
    (*m_chunks.back())[slot] = e;
    ++m_size;
}

void EventList::clear()
{
    m_chunks.clear();
    m_size = 0;
}

std::size_t EventList::chunksSharedWith(const EventList &other) const
{
    std::size_t shared = 0;
    for (std::size_t i = 0; i < std::min(m_chunks.size(), other.m_chunks.size()); ++i)
        shared += m_chunks[i] == other.m_chunks[i] ? 1 : 0;
    return shared;
}

} // namespace tf::recording
