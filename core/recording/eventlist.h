#pragma once

#include "event.h"

#include <array>
#include <cstddef>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

namespace tf::recording {

// A run's events: a list that is cheap to copy. The events are kept in fixed-size chunks shared by the copies, so a
// followed log's snapshots (LogFollower) share every event read before them instead of each holding a copy of the
// whole list: a poll's cost and memory grow with what was appended, not with the log.
//
// A value type: appending to one copy never changes another. A chunk is written only while one list holds it; a
// partly filled last chunk that a copy shares too is copied first (at most kChunkEvents events).
class EventList
{
public:
    static constexpr std::size_t kChunkBits = 10;
    static constexpr std::size_t kChunkEvents = std::size_t(1) << kChunkBits;

    class const_iterator
    {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = Event;
        using difference_type = std::ptrdiff_t;
        using pointer = const Event *;
        using reference = const Event &;

        const_iterator() = default;
        const_iterator(const EventList *list, std::size_t i)
            : m_list(list)
            , m_i(i)
        {
        }
        reference operator*() const { return (*m_list)[m_i]; }
        pointer operator->() const { return &(*m_list)[m_i]; }
        reference operator[](difference_type n) const { return (*m_list)[std::size_t(difference_type(m_i) + n)]; }
        const_iterator &operator++()
        {
            ++m_i;
            return *this;
        }
        const_iterator operator++(int)
        {
            const_iterator was = *this;
            ++m_i;
            return was;
        }
        const_iterator &operator--()
        {
            --m_i;
            return *this;
        }
        const_iterator operator--(int)
        {
            const_iterator was = *this;
            --m_i;
            return was;
        }
        const_iterator &operator+=(difference_type n)
        {
            m_i = std::size_t(difference_type(m_i) + n);
            return *this;
        }
        const_iterator &operator-=(difference_type n) { return *this += -n; }
        friend const_iterator operator+(const_iterator it, difference_type n) { return it += n; }
        friend const_iterator operator+(difference_type n, const_iterator it) { return it += n; }
        friend const_iterator operator-(const_iterator it, difference_type n) { return it -= n; }
        friend difference_type operator-(const const_iterator &a, const const_iterator &b)
        {
            return difference_type(a.m_i) - difference_type(b.m_i);
        }
        friend bool operator==(const const_iterator &a, const const_iterator &b) { return a.m_i == b.m_i; }
        friend auto operator<=>(const const_iterator &a, const const_iterator &b) { return a.m_i <=> b.m_i; }

    private:
        const EventList *m_list = nullptr;
        std::size_t m_i = 0;
    };

    EventList() = default;
    EventList(const EventList &) = default;
    EventList &operator=(const EventList &) = default;
    // A list moved from is empty, as a vector moved from is in practice (the loader moves a collector's list away).
    EventList(EventList &&other) noexcept
        : m_chunks(std::move(other.m_chunks))
        , m_size(std::exchange(other.m_size, 0))
    {
        other.m_chunks.clear();
    }
    EventList &operator=(EventList &&other) noexcept
    {
        m_chunks = std::move(other.m_chunks);
        m_size = std::exchange(other.m_size, 0);
        other.m_chunks.clear();
        return *this;
    }

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    const Event &operator[](std::size_t i) const { return (*m_chunks[i >> kChunkBits])[i & (kChunkEvents - 1)]; }
    const Event &front() const { return (*this)[0]; }
    const Event &back() const { return (*this)[m_size - 1]; }
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, m_size}; }

    void push_back(const Event &e);
    void clear();

    // How many chunks this list shares with `other` (a test's view of what two snapshots hold once).
    std::size_t chunksSharedWith(const EventList &other) const;

private:
    using Chunk = std::array<Event, kChunkEvents>;
    std::vector<std::shared_ptr<Chunk>> m_chunks;
    std::size_t m_size = 0;
};

} // namespace tf::recording
