#include "passedpages.h"

namespace tf::io {

void PassedPages::at(std::size_t offset)
{
    // madvise walks the range it is given: a few megabytes at a time, not once per row of a commit log.
    constexpr std::size_t kStep = 4u << 20;
    // An offset past the end is no place in the file (json::kNoSource: a value built in memory).
    if (!m_file || offset > m_file->bytes().size() || offset < m_releasedBefore + kKeepBehindBytes + kStep)
        return;
    m_releasedBefore = offset - kKeepBehindBytes;
    m_file->releaseResidentPages(m_releasedBefore);
}

} // namespace tf::io
