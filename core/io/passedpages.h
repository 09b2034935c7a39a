#pragma once

#include "mappedfile.h"

#include <cstddef>

namespace tf::io {

// How much of what a front-to-back pass has read stays resident behind it: the value being read may reach back
// that far, and a page let go too early is only read again from the page cache.
inline constexpr std::size_t kKeepBehindBytes = 4u << 20;
// How often it lets go: madvise walks the range it is given, so a few megabytes at a time, not once per row. A
// parse that reports where it is (json::ParseLimits::progressIntervalBytes) reports at this step.
inline constexpr std::size_t kPassStepBytes = 2u << 20;

// The one rule for a pass that reads a mapped file front to back (the loader's parse, the skim to a recording's parts,
// the commit-log fold, a preview's streamed events and rows): tell it where the pass is, and the pages more than
// kKeepBehindBytes behind are let go, a few megabytes at a time, so such a pass holds about kKeepBehindBytes of the
// file at any moment however large the file. One per pass: a pass that starts over from an earlier offset takes a
// new one.
class PassedPages
{
public:
    // `from`: where the pass starts; the pages before it are another pass's to let go.
    explicit PassedPages(const MappedFile *file, std::size_t from = 0)
        : m_file(file)
        , m_from(from)
        , m_releasedBefore(from)
    {
    }
    // `offset`: where the pass reads now (one past the file's end, or none, is ignored).
    void at(std::size_t offset);

private:
    const MappedFile *m_file;
    std::size_t m_from;
    std::size_t m_releasedBefore;
};

} // namespace tf::io
