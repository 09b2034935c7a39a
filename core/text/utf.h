#pragma once

#include <cstddef>
#include <string>
#include <string_view>

// Text in core is WTF-8: UTF-8 in which a lone surrogate may appear as its 3-byte form (ED A0 80..ED BF BF).
// Recordings are written by JSON.stringify, which can emit `\udXXX` for a surrogate a cut left alone; WTF-8 keeps
// such a string without loss. Lengths the spec counts are UTF-16 code units; every byte figure and every hash
// uses UTF-8 where a lone surrogate becomes U+FFFD (the WHATWG encoder).
namespace tf::text {

// Decodes WTF-8 to UTF-16. Input is assumed valid WTF-8 (the parser validates).
std::u16string toUtf16(std::string_view wtf8);
// Encodes UTF-16 to WTF-8: pairs become 4-byte sequences, lone surrogates 3-byte ones.
std::string toWtf8(std::u16string_view utf16);
// UTF-16 code units of a WTF-8 string.
std::size_t lengthU16(std::string_view wtf8);
// WHATWG TextEncoder: a lone surrogate becomes EF BF BD. Returns the input unchanged when it holds none.
std::string toUtf8Lossy(std::string_view wtf8);
std::string toUtf8Lossy(std::u16string_view utf16);
// UTF-8 bytes the WHATWG encoder would produce.
std::size_t sizeUtf8Lossy(std::u16string_view utf16);
bool hasLoneSurrogate(std::u16string_view utf16);
bool hasLoneSurrogate(std::string_view wtf8);

// Appends one code point as WTF-8 (surrogate code points allowed).
void appendCodePoint(std::string &out, char32_t cp);

// Length of the valid UTF-8 sequence starting at byte i (1 for ASCII), or 0 when the bytes there are not one. Inline:
// the parser validates every non-ASCII character of a recording with it.
inline std::size_t utf8SequenceLengthAt(std::string_view s, std::size_t i)
{
    const auto *p = reinterpret_cast<const unsigned char *>(s.data());
    const std::size_t n = s.size();
    const unsigned char c = p[i];
    if (c < 0x80)
        return 1;
    std::size_t len;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0;
        if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90;
        if (c == 0xF4)
            hi = 0x8F;
    } else {
        return 0;
    }
    if (i + len > n)
        return 0;
    if (p[i + 1] < lo || p[i + 1] > hi)
        return 0;
    for (std::size_t k = 2; k < len; ++k)
        if ((p[i + k] & 0xC0) != 0x80)
            return 0;
    return len;
}

// Strict UTF-8 validation (no surrogates, no overlongs). Returns the offset of the first bad byte, or npos.
std::size_t findInvalidUtf8(std::string_view bytes);

// Text from a recording quoted on one line of a message or a terminal table: control characters (C0, DEL, C1, line
// separators) and lone surrogates become \uXXXX, so it can neither break the line nor drive a terminal; text past
// maxUnits UTF-16 units is cut with an ellipsis.
std::string printableLine(std::string_view wtf8, std::size_t maxUnits = 120);

// The text around UTF-16 unit `at` (clamped to the text's length): up to `before` units before it and `after` from
// it, with "…" where the text goes on; where two texts first differ, say, shown in context. `atByte` receives where
// unit `at` starts in the result. Never escaped here.
std::string aroundUnit(std::string_view wtf8, std::size_t at, std::size_t before, std::size_t after,
                       std::size_t *atByte = nullptr);

inline bool isHighSurrogate(char16_t u)
{
    return u >= 0xD800 && u <= 0xDBFF;
}
inline bool isLowSurrogate(char16_t u)
{
    return u >= 0xDC00 && u <= 0xDFFF;
}

} // namespace tf::text
