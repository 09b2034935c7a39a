#include "findingspiece.h"

#include "clip.h"

#include <string>

namespace tf::findings {

namespace {

std::string where(std::size_t s, std::size_t l)
{
    return "section " + std::to_string(s) + " line " + std::to_string(l) + ": ";
}

std::string checkLine(const PieceLine &line)
{
    std::size_t at = 0;
    std::size_t overflowUnits = 0;
    for (const PieceSpan &span : line.spans) {
        if (span.begin != at || span.end <= span.begin || span.end > line.text.size())
            return "spans do not tile the line at unit " + std::to_string(at);
        if (span.origin == SpanOrigin::Overflow) {
            const std::u16string_view note(line.text.data() + span.begin, span.end - span.begin);
            if (note.substr(0, 11) != u" \u2026[clipped " || note.substr(note.size() - 7) != u" chars]")
                return "an Overflow span is not a clip note";
            overflowUnits += span.end - span.begin;
        }
        at = span.end;
    }
    if (at != line.text.size())
        return "spans cover " + std::to_string(at) + " of " + std::to_string(line.text.size()) + " units";
    if ((line.clippedUnits == 0) != (overflowUnits == 0))
        return "clippedUnits disagrees with the Overflow spans";
    if (line.kind == LineKind::Content && line.clippedUnits) {
        std::u16string note;
        appendClipNote(note, line.clippedUnits);
        if (line.text.size() < note.size() || line.text.compare(line.text.size() - note.size(), note.size(), note))
            return "the line does not end with its clip note";
        if (line.text.size() - note.size() != line.clipCap)
            return "a clipped line is not cut at its cap";
    }
    if (line.kind == LineKind::More) {
        std::u16string more = u"+";
        appendDecimal(more, line.hiddenLines);
        more += u" more (cap 64)";
        if (line.text != more)
            return "a More line does not state its hiddenLines";
    }
    return {};
}

} // namespace

std::string checkPieceStructure(const FindingsPiece &piece)
{
    std::u16string joined;
    for (std::size_t s = 0; s < piece.sections.size(); ++s) {
        const PieceSection &section = piece.sections[s];
        if (section.lines.empty())
            return "section " + std::to_string(s) + " (" + sectionKindName(section.kind) + ") has no lines";
        if (s)
            joined += u"\n\n";
        for (std::size_t l = 0; l < section.lines.size(); ++l) {
            if (l)
                joined += u'\n';
            joined += section.lines[l].text;
            if (std::string problem = checkLine(section.lines[l]); !problem.empty())
                return where(s, l) + problem;
        }
    }
    if (joined != piece.text) {
        std::size_t i = 0;
        while (i < joined.size() && i < piece.text.size() && joined[i] == piece.text[i])
            ++i;
        return "the join of the lines differs from the text at unit " + std::to_string(i);
    }
    return {};
}

} // namespace tf::findings
