#pragma once

#include "findingspiece.h"

#include "core/json/value.h"

#include <string>
#include <string_view>
#include <vector>

namespace tf::findings {

// Builds one piece line as a sequence of (text, origin) parts, then produces the PieceLine from the same units:
// the fold and the cut of §3.2 run on the composed line with the origins carried along (clip.h), so the text and
// its spans can never disagree.
class LineComposer
{
public:
    LineComposer() = default;
    // A line past a cap: it is counted, not shown, so nothing is composed; only the rows it quotes are recorded,
    // into `hiddenRows`, for the `+K more` line.
    explicit LineComposer(std::vector<std::size_t> *hiddenRows)
        : m_hiddenRows(hiddenRows)
    {
    }

    // The library's own wording.
    LineComposer &library(std::u16string_view text);
    LineComposer &library(std::size_t number);
    // Data quoted from the record: the model's words, ids, names, refs (all interpolated through String(), §9.4).
    LineComposer &model(const json::Value *v);
    // renderValue (§3.4): a string raw, anything else JSON.stringify (§9.1), an absent value `undefined`.
    LineComposer &rendered(const json::Value *v);
    // A count-line id, clipped on its own (clipId, §3.5), not as part of the whole line.
    LineComposer &clippedId(std::string_view wtf8, std::size_t max);
    LineComposer &row(std::size_t index);

    // A line of the library's fixed wording alone (a heading, a header or ask line).
    static PieceLine fixedLine(std::u16string_view text, LineKind kind);

    // clipLine (§3.2) over the whole composed line.
    PieceLine clipLine(LineKind kind = LineKind::Content) &&;
    // As composed: headings, `+K more`, count lines, header and ask lines are never clipped as a whole.
    PieceLine unclipped(LineKind kind) &&;

private:
    void append(std::u16string_view text, SpanOrigin origin);
    void appendWtf8(std::string_view wtf8, SpanOrigin origin);
    PieceLine finish(LineKind kind, std::u16string text, std::vector<SpanOrigin> origins);

    std::u16string m_text;
    std::vector<SpanOrigin> m_origins; // one per unit of m_text
    std::vector<std::size_t> m_rows;
    std::vector<std::size_t> *m_hiddenRows = nullptr; // set: counting only
    std::size_t m_idClippedUnits = 0;
};

} // namespace tf::findings
