#pragma once

#include "htmlwriter.h"

#include "core/findings/findingspiece.h"

#include <cstddef>

namespace tf::report::html {

// The findings piece as a two-column table: the ledger rows each line quotes, then the line with the model's text and
// the clip notes marked. The fixed header is named, not quoted (the appendix quotes it once).
void renderPiece(HtmlWriter &h, const findings::FindingsPiece &piece);
// One line of a piece in the piece's monospace style.
void pieceLineText(HtmlWriter &h, const findings::PieceLine &line);

struct PieceStats
{
    std::size_t contentLines = 0, clippedLines = 0, hiddenLines = 0;
};
PieceStats statsOf(const findings::FindingsPiece &piece);

} // namespace tf::report::html
