#include "linecomposer.h"

#include "clip.h"
#include "jsstring.h"
#include "piecetext.h"

#include "core/json/writer.h"
#include "core/text/utf.h"

#include <algorithm>

namespace tf::findings {

namespace {

void appendUtf16(std::u16string &out, std::string_view wtf8)
{
    // The ASCII prefix (most of a ledger's text) is widened in one loop the compiler vectorizes, into space made
    // once: appended unit by unit it was a tenth of a findings piece's cost. The rest goes through the WTF-8
    // decoder, which keeps a lone surrogate.
    const auto *bytes = reinterpret_cast<const unsigned char *>(wtf8.data());
    std::size_t ascii = 0;
    while (ascii < wtf8.size() && bytes[ascii] < 0x80)
        ++ascii;
    const std::size_t at = out.size();
    out.resize(at + ascii);
    std::transform(bytes, bytes + ascii, out.begin() + std::ptrdiff_t(at), [](unsigned char b) { return char16_t(b); });
    if (ascii < wtf8.size())
        out += text::toUtf16(wtf8.substr(ascii));
}

} // namespace

void LineComposer::append(std::u16string_view text, SpanOrigin origin)
{
    if (m_hiddenRows)
        return;
    m_text.append(text);
    m_origins.insert(m_origins.end(), text.size(), origin);
}

void LineComposer::appendWtf8(std::string_view wtf8, SpanOrigin origin)
{
    if (m_hiddenRows)
        return;
    const std::size_t before = m_text.size();
    appendUtf16(m_text, wtf8);
    m_origins.insert(m_origins.end(), m_text.size() - before, origin);
}

LineComposer &LineComposer::library(std::u16string_view text)
{
    append(text, SpanOrigin::Library);
    return *this;
}

LineComposer &LineComposer::library(std::size_t number)
{
    if (m_hiddenRows)
        return *this;
    const std::size_t before = m_text.size();
    appendDecimal(m_text, number);
    m_origins.insert(m_origins.end(), m_text.size() - before, SpanOrigin::Library);
    return *this;
}

LineComposer &LineComposer::model(const json::Value *v)
{
    if (m_hiddenRows)
        return *this;
    if (v && v->isString())
        appendWtf8(v->asString(), SpanOrigin::Model);
    else
        appendWtf8(stringOf(v), SpanOrigin::Model);
    return *this;
}

LineComposer &LineComposer::rendered(const json::Value *v)
{
    if (m_hiddenRows)
        return *this;
    if (!v)
        appendWtf8("undefined", SpanOrigin::Model); // JSON.stringify(undefined) is undefined; String() of it
    else if (v->isString())
        appendWtf8(v->asString(), SpanOrigin::Model);
    else
        appendWtf8(json::stringify(*v), SpanOrigin::Model); // property order, not sorted; a Claim whole
    return *this;
}

LineComposer &LineComposer::clippedId(std::string_view wtf8, std::size_t max)
{
    if (m_hiddenRows)
        return *this;
    std::u16string id;
    appendUtf16(id, wtf8);
    const std::vector<SpanOrigin> origins(id.size(), SpanOrigin::Model);
    m_idClippedUnits += clipInto(id, origins.data(), max, m_text, &m_origins);
    return *this;
}

LineComposer &LineComposer::row(std::size_t index)
{
    (m_hiddenRows ? *m_hiddenRows : m_rows).push_back(index);
    return *this;
}

PieceLine LineComposer::fixedLine(std::u16string_view text, LineKind kind)
{
    LineComposer c;
    c.library(text);
    return std::move(c).unclipped(kind);
}

PieceLine LineComposer::clipLine(LineKind kind) &&
{
    std::u16string text;
    std::vector<SpanOrigin> origins;
    text.reserve(m_text.size() + 24);
    origins.reserve(m_text.size() + 24);
    const std::size_t clipped = clipInto(m_text, m_origins.data(), kLineChars, text, &origins);
    PieceLine line = finish(kind, std::move(text), std::move(origins));
    line.clippedUnits = clipped;
    line.clipCap = clipped ? kLineChars : 0;
    return line;
}

PieceLine LineComposer::unclipped(LineKind kind) &&
{
    PieceLine line = finish(kind, std::move(m_text), std::move(m_origins));
    // A count line is never clipped whole; its ids are, each at 64 (§3.5). The line reports their total.
    line.clippedUnits = m_idClippedUnits;
    line.clipCap = m_idClippedUnits ? kIdChars : 0;
    return line;
}

PieceLine LineComposer::finish(LineKind kind, std::u16string text, std::vector<SpanOrigin> origins)
{
    PieceLine line;
    line.kind = kind;
    for (std::size_t i = 0; i < origins.size();) {
        std::size_t end = i + 1;
        while (end < origins.size() && origins[end] == origins[i])
            ++end;
        line.spans.push_back(PieceSpan{i, end, origins[i]});
        i = end;
    }
    line.text = std::move(text);
    std::sort(m_rows.begin(), m_rows.end());
    m_rows.erase(std::unique(m_rows.begin(), m_rows.end()), m_rows.end());
    line.rowIndices = std::move(m_rows);
    return line;
}

} // namespace tf::findings
