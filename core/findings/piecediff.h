#pragma once

#include "findingspiece.h"

#include "core/text/linediff.h"

#include <vector>

namespace tf::findings {

// The findings piece of a call against the previous call's, line by line (either may be absent: no piece there).
std::vector<text::DiffLine> pieceLineDiff(const FindingsPiece *previous, const FindingsPiece *current);

} // namespace tf::findings
