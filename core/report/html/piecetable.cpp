#include "piecetable.h"

#include <algorithm>
#include <string>
#include <vector>

namespace tf::report::html {

namespace {

void pieceLineSpans(HtmlWriter &h, const findings::PieceLine &line)
{
    const std::u16string_view text = line.text;
    if (line.spans.empty()) {
        h.text16(text);
        return;
    }
    for (const findings::PieceSpan &span : line.spans) {
        const std::size_t begin = std::min(span.begin, text.size());
        const std::size_t end = std::min(std::max(span.end, begin), text.size());
        // The library's wording is the line's own colour (td.t); only quoted model text and clip notes are marked,
        // which keeps long runs' reports small.
        if (span.origin == findings::SpanOrigin::Library) {
            h.text16(text.substr(begin, end - begin));
            continue;
        }
        const char *cls = span.origin == findings::SpanOrigin::Model ? "mdl" : "ovf";
        h.raw("<span class=\"").raw(cls).raw("\">").text16(text.substr(begin, end - begin)).raw("</span>");
    }
}

} // namespace

void pieceLineText(HtmlWriter &h, const findings::PieceLine &line)
{
    // One monospace element per line: Qt's rich-text engine takes the font from it, not from the table cell.
    h.raw("<code class=\"pl\">");
    pieceLineSpans(h, line);
    h.raw("</code>");
}

namespace {

std::string rowsGutter(const std::vector<std::size_t> &rows)
{
    std::string out;
    const std::size_t shown = std::min<std::size_t>(rows.size(), 4);
    for (std::size_t i = 0; i < shown; ++i)
        out += (i ? " " : "") + std::string("#") + std::to_string(rows[i]);
    if (rows.size() > shown)
        out += " +" + std::to_string(rows.size() - shown);
    return out;
}

bool isShortHeader(const findings::PieceSection &section)
{
    std::u16string joined;
    for (const findings::PieceLine &l : section.lines)
        joined += (joined.empty() ? u"" : u"\n") + l.text;
    return joined == findings::pieceHeader(findings::HeaderTable::Short);
}

} // namespace

void renderPiece(HtmlWriter &h, const findings::FindingsPiece &piece)
{
    h.raw("<table width=\"100%\" class=\"piece\" cellspacing=\"0\" cellpadding=\"2\">");
    bool firstSection = true;
    for (const findings::PieceSection &section : piece.sections) {
        if (!firstSection)
            h.raw("<tr class=\"sep\"><td class=\"g\"></td><td class=\"t\"></td></tr>");
        firstSection = false;
        if (section.kind == findings::SectionKind::Header) {
            // The header is the library's fixed text: named here, quoted in full once in the appendix.
            std::size_t units = 0;
            for (const auto &l : section.lines)
                units += l.text.size();
            units += section.lines.empty() ? 0 : section.lines.size() - 1;
            h.raw("<tr class=\"hdr\"><td class=\"g\">header</td><td class=\"t\">[fixed header: ")
                .num(section.lines.size())
                .raw(" lines, ")
                .num(units)
                .raw(" units, ")
                .raw(isShortHeader(section) ? "short meanings table" : "long meanings table")
                .raw(" \u2014 quoted in the appendix]</td></tr>");
            continue;
        }
        for (const findings::PieceLine &line : section.lines) {
            const char *cls = line.kind == findings::LineKind::Heading     ? "h"
                              : line.kind == findings::LineKind::More      ? "more"
                              : line.kind == findings::LineKind::Ask       ? "ask"
                              : line.kind == findings::LineKind::CountLine ? "count"
                                                                           : "c";
            h.raw("<tr class=\"").raw(cls).raw("\"><td class=\"g\">");
            if (line.kind == findings::LineKind::More)
                h.raw("<span class=\"clip\">").num(line.hiddenLines).raw(" hidden</span>");
            else if (line.clippedUnits)
                h.raw("<span class=\"clip\">clipped</span> ");
            if (line.kind != findings::LineKind::More)
                h.raw(rowsGutter(line.rowIndices));
            h.raw("</td><td class=\"t\">");
            pieceLineText(h, line);
            h.raw("</td></tr>");
        }
    }
    h.raw("</table>");
}

PieceStats statsOf(const findings::FindingsPiece &piece)
{
    PieceStats s;
    for (const auto &section : piece.sections)
        for (const auto &line : section.lines) {
            if (line.kind == findings::LineKind::Content || line.kind == findings::LineKind::CountLine)
                ++s.contentLines;
            if (line.clippedUnits)
                ++s.clippedLines;
            if (line.kind == findings::LineKind::More)
                s.hiddenLines += line.hiddenLines;
        }
    return s;
}

} // namespace tf::report::html
