#include "stringends.h"

#include <algorithm>
#include <limits>

namespace tf::json {

void StringEnds::add(std::size_t start, const StringBodyScan &scan)
{
    const std::size_t length = scan.end - start;
    if (length < kMinBodyBytes || length > std::numeric_limits<std::uint32_t>::max())
        return;
    if (!m_entries.empty() && m_entries.back().start >= start)
        return;
    m_entries.push_back({start, std::uint32_t(length),
                         std::uint8_t((scan.escaped ? kEscaped : 0) | (scan.stringifyForm ? kStringifyForm : 0))});
}

void StringEnds::append(const StringEnds &later)
{
    auto from = later.m_entries.begin();
    if (!m_entries.empty())
        from = std::upper_bound(from, later.m_entries.end(), m_entries.back().start,
                                [](std::uint64_t at, const Entry &e) { return at < e.start; });
    m_entries.insert(m_entries.end(), from, later.m_entries.end());
}

bool StringEnds::Cursor::find(std::size_t start, StringBodyScan &scan)
{
    if (!m_ends)
        return false;
    const std::vector<Entry> &entries = m_ends->m_entries;
    // A parse meets bodies in increasing order, and every long one it meets is recorded: the next entry is either
    // this body or one further on. Anything else (the first lookup, a body skipped) is a search.
    if (!m_placed || (m_next < entries.size() && entries[m_next].start < start) ||
        (m_next > 0 && entries[m_next - 1].start >= start)) {
        m_next = std::size_t(std::lower_bound(entries.begin(), entries.end(), start,
                                              [](const Entry &e, std::size_t at) { return e.start < at; }) -
                             entries.begin());
        m_placed = true;
    }
    if (m_next >= entries.size() || entries[m_next].start != start)
        return false;
    const Entry &e = entries[m_next++];
    scan = StringBodyScan{};
    scan.end = start + e.length;
    scan.escaped = e.flags & kEscaped;
    scan.stringifyForm = e.flags & kStringifyForm;
    return true;
}

StringBodyScan StringEnds::Cursor::scan(std::string_view text, std::size_t start, bool trusted)
{
    StringBodyScan recorded;
    return find(start, recorded) ? recorded : scanStringBody(text, start, trusted);
}

} // namespace tf::json
