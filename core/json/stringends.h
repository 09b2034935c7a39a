#pragma once

#include "stringbody.h"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace tf::json {

// Where the long string literals of a text end, as the parse that validated the text found them
// (ParseLimits::recordStringEnds). A parse of a span of the same text again (parseAgain) steps over each of them
// instead of reading its bytes for the closing quote. Tool results are most of a recording's bytes, and a run's
// states, rows and messages are parsed again from the file for every call: an inspect of a 1,300-call run scanned
// its strings about seven times over, and a call of a gigabyte run faulted their pages back in only to find where
// they end.
//
// Immutable once the parse that fills it is done; then any number of threads may read it.
class StringEnds
{
public:
    // Shorter bodies are read again: a few dozen bytes cost less to scan than to look up.
    static constexpr std::size_t kMinBodyBytes = 256;

    // Records the body starting at `start` (just past its opening quote) as `scan` found it, when it is long enough.
    // Bodies come in increasing order; one at or before the last recorded (a second parse over the same text) is left
    // out.
    void add(std::size_t start, const StringBodyScan &scan);
    // Adds what another parse recorded of a later part of the same text (a streamed array read ahead on another thread,
    // ArrayReadAhead), all of it after what this one holds.
    void append(const StringEnds &later);
    // Gives back what the growth of the record left over, once the parse that fills it is done.
    void finish() { m_entries.shrink_to_fit(); }
    std::size_t size() const { return m_entries.size(); }
    // The same bodies recorded alike (two parses of one text, however they were split between threads).
    bool operator==(const StringEnds &other) const = default;

    // Looks bodies up in the order a parse meets them (increasing), each lookup costing a comparison or two.
    class Cursor
    {
    public:
        explicit Cursor(const StringEnds *ends)
            : m_ends(ends)
        {
        }
        // True, with `scan` set as the validating parse found it, when the body starting at `start` is recorded.
        bool find(std::size_t start, StringBodyScan &scan);
        // The body starting at `start` of `text`: as recorded, or else scanned (scanStringBody).
        StringBodyScan scan(std::string_view text, std::size_t start, bool trusted);

    private:
        const StringEnds *m_ends;
        std::size_t m_next = 0; // no recorded body before m_next starts at or after the last lookup
        bool m_placed = false;
    };

private:
    struct Entry
    {
        std::uint64_t start = 0;
        std::uint32_t length = 0;
        std::uint8_t flags = 0;
        bool operator==(const Entry &other) const = default;
    };
    static constexpr std::uint8_t kEscaped = 1, kStringifyForm = 2;
    std::vector<Entry> m_entries;
};

} // namespace tf::json
