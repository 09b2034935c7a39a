#include "passedpages.h"

namespace tf::io {

void PassedPages::at(std::size_t offset)
{
    // An offset past the end is no place in the file (json::kNoSource: a value built in memory).
    if (!m_file || offset > m_file->bytes().size() || offset < m_releasedBefore + kKeepBehindBytes + kPassStepBytes)
        return;
    m_releasedBefore = offset - kKeepBehindBytes;
    m_file->releaseResidentPages(m_from, m_releasedBefore);
}

} // namespace tf::io
