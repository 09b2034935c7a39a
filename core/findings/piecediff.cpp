#include "piecediff.h"

#include "core/text/utf.h"

namespace tf::findings {

namespace {

std::vector<std::string> linesOf(const FindingsPiece *piece)
{
    return piece ? text::splitLines(text::toWtf8(piece->text)) : std::vector<std::string>{};
}

} // namespace

std::vector<text::DiffLine> pieceLineDiff(const FindingsPiece *previous, const FindingsPiece *current)
{
    return text::diffLines(linesOf(previous), linesOf(current));
}

} // namespace tf::findings
