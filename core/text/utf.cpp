#include "utf.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace tf::text {

namespace {

// Decodes one WTF-8 sequence at s[i]; advances i. Invalid bytes decode as U+FFFD so a caller never loops forever.
char32_t decodeOne(std::string_view s, std::size_t &i)
{
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
        ++i;
        return b0;
    }
    int extra = 0;
    char32_t cp = 0;
    if ((b0 & 0xE0) == 0xC0) {
        extra = 1;
        cp = b0 & 0x1F;
    } else if ((b0 & 0xF0) == 0xE0) {
        extra = 2;
        cp = b0 & 0x0F;
    } else if ((b0 & 0xF8) == 0xF0) {
        extra = 3;
        cp = b0 & 0x07;
    } else {
        ++i;
        return 0xFFFD;
    }
    if (i + std::size_t(extra) >= s.size()) {
        ++i;
        return 0xFFFD;
    }
    for (int k = 1; k <= extra; ++k) {
        const auto b = static_cast<unsigned char>(s[i + std::size_t(k)]);
        if ((b & 0xC0) != 0x80) {
            ++i;
            return 0xFFFD;
        }
        cp = (cp << 6) | (b & 0x3F);
    }
    i += std::size_t(extra) + 1;
    return cp;
}

} // namespace

void appendCodePoint(std::string &out, char32_t cp)
{
    if (cp < 0x80) {
        out.push_back(char(cp));
    } else if (cp < 0x800) {
        out.push_back(char(0xC0 | (cp >> 6)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(char(0xE0 | (cp >> 12)));
        out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(char(0xF0 | (cp >> 18)));
        out.push_back(char(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    }
}

std::u16string toUtf16(std::string_view s)
{
    std::u16string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const char32_t cp = decodeOne(s, i);
        if (cp >= 0x10000) {
            const char32_t v = cp - 0x10000;
            out.push_back(char16_t(0xD800 + (v >> 10)));
            out.push_back(char16_t(0xDC00 + (v & 0x3FF)));
        } else {
            out.push_back(char16_t(cp));
        }
    }
    return out;
}

namespace {

// UTF-16 to UTF-8; a lone surrogate becomes its own 3-byte form (WTF-8) or U+FFFD (the WHATWG encoder).
std::string encodeUtf16(std::u16string_view u, bool lossy)
{
    std::string out;
    out.reserve(u.size());
    for (std::size_t i = 0; i < u.size(); ++i) {
        // A run of ASCII (most of a findings piece or a prompt) is copied in one step, unit by unit.
        std::size_t ascii = i;
        while (ascii < u.size() && u[ascii] < 0x80)
            ++ascii;
        if (ascii > i) {
            const std::size_t at = out.size();
            out.resize(at + (ascii - i));
            for (std::size_t k = i; k < ascii; ++k)
                out[at + (k - i)] = char(u[k]);
            i = ascii - 1;
            continue;
        }
        const char16_t c = u[i];
        if (isHighSurrogate(c) && i + 1 < u.size() && isLowSurrogate(u[i + 1])) {
            appendCodePoint(out, 0x10000 + ((char32_t(c) - 0xD800) << 10) + (char32_t(u[i + 1]) - 0xDC00));
            ++i;
        } else if (lossy && (isHighSurrogate(c) || isLowSurrogate(c))) {
            appendCodePoint(out, 0xFFFD);
        } else {
            appendCodePoint(out, c);
        }
    }
    return out;
}

} // namespace

std::string toWtf8(std::u16string_view u)
{
    return encodeUtf16(u, false);
}

namespace {

// Set high bits in a word whose only set bits are high bits: without a popcount instruction in the baseline ISA,
// gather them into the top byte with one multiplication.
std::size_t highBitCount(std::uint64_t highBits)
{
    return std::size_t(((highBits >> 7) * 0x0101010101010101ULL) >> 56);
}

} // namespace

std::size_t lengthU16(std::string_view s)
{
    const auto *p = reinterpret_cast<const unsigned char *>(s.data());
    const std::size_t size = s.size();
    std::size_t n = 0;
    std::size_t i = 0;
    // Eight bytes at a time: every byte but a continuation byte (10xxxxxx) starts a unit, and a 4-byte lead
    // (11110xxx) starts two. Shifting left moves bit k of a byte to bit k+1 of the same byte, so bit 7 of
    // `w & ~(w << 1)` is "bit 7 set, bit 6 clear"; what crosses into the next byte lands on bit 0, masked off.
    constexpr std::uint64_t kHigh = 0x8080808080808080ULL;
    for (; i + 8 <= size; i += 8) {
        std::uint64_t w;
        __builtin_memcpy(&w, p + i, 8);
        const std::uint64_t continuation = w & ~(w << 1) & kHigh;
        const std::uint64_t fourByteLead = w & (w << 1) & (w << 2) & (w << 3) & kHigh;
        n += 8 - highBitCount(continuation) + highBitCount(fourByteLead);
    }
    for (; i < size; ++i)
        if ((p[i] & 0xC0) != 0x80)
            n += (p[i] >= 0xF0) ? 2 : 1;
    return n;
}

bool hasLoneSurrogate(std::string_view s)
{
    // A surrogate's WTF-8 form starts with ED, which is rare in text: jump between ED bytes.
    if (s.empty())
        return false; // an empty view may hold a null pointer, which memchr must not see
    const char *p = s.data();
    const char *end = p + s.size();
    while ((p = static_cast<const char *>(std::memchr(p, '\xED', std::size_t(end - p)))) != nullptr) {
        if (p + 1 < end && (static_cast<unsigned char>(p[1]) & 0xE0) == 0xA0)
            return true;
        ++p;
    }
    return false;
}

bool hasLoneSurrogate(std::u16string_view u)
{
    for (std::size_t i = 0; i < u.size(); ++i) {
        if (isHighSurrogate(u[i]) && i + 1 < u.size() && isLowSurrogate(u[i + 1])) {
            ++i;
            continue;
        }
        if (isHighSurrogate(u[i]) || isLowSurrogate(u[i]))
            return true;
    }
    return false;
}

std::string toUtf8Lossy(std::string_view s)
{
    if (!hasLoneSurrogate(s))
        return std::string(s);
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t start = i;
        const char32_t cp = decodeOne(s, i);
        if (cp >= 0xD800 && cp <= 0xDFFF)
            out.append("\xEF\xBF\xBD");
        else
            out.append(s.substr(start, i - start));
    }
    return out;
}

std::string toUtf8Lossy(std::u16string_view u)
{
    return encodeUtf16(u, true);
}

std::size_t sizeUtf8Lossy(std::u16string_view u)
{
    std::size_t n = 0;
    for (std::size_t i = 0; i < u.size(); ++i) {
        const char16_t c = u[i];
        if (isHighSurrogate(c) && i + 1 < u.size() && isLowSurrogate(u[i + 1])) {
            n += 4;
            ++i;
        } else if (c < 0x80) {
            n += 1;
        } else if (c < 0x800) {
            n += 2;
        } else {
            n += 3; // includes a lone surrogate, encoded as U+FFFD
        }
    }
    return n;
}

std::size_t findInvalidUtf8(std::string_view s)
{
    const auto *p = reinterpret_cast<const unsigned char *>(s.data());
    const std::size_t n = s.size();
    std::size_t i = 0;
    while (i < n) {
        // Skip ASCII eight bytes at a time; most recording text is ASCII.
        while (i + 8 <= n) {
            std::uint64_t w;
            __builtin_memcpy(&w, p + i, 8);
            if (w & 0x8080808080808080ULL)
                break;
            i += 8;
        }
        if (i >= n)
            break;
        const std::size_t len = utf8SequenceLengthAt(s, i);
        if (len == 0)
            return i;
        i += len;
    }
    return std::string_view::npos;
}

std::string printableLine(std::string_view wtf8, std::size_t maxUnits)
{
    const std::u16string u = toUtf16(wtf8);
    std::string out;
    for (std::size_t i = 0; i < u.size(); ++i) {
        if (i >= maxUnits) {
            out += "\u2026";
            break;
        }
        const char16_t c = u[i];
        if (isHighSurrogate(c) && i + 1 < u.size() && isLowSurrogate(u[i + 1])) {
            out += toWtf8(std::u16string_view(u).substr(i, 2));
            ++i;
            continue;
        }
        if (c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029 || isHighSurrogate(c) ||
            isLowSurrogate(c)) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(c));
            out += buf;
            continue;
        }
        out += toWtf8(std::u16string_view(&c, 1));
    }
    return out;
}

std::string aroundUnit(std::string_view wtf8, std::size_t at, std::size_t before, std::size_t after,
                       std::size_t *atByte)
{
    const std::u16string units = toUtf16(wtf8);
    at = std::min(at, units.size());
    const std::size_t from = at > before ? at - before : 0;
    const std::size_t to = std::min(units.size(), at + after);
    std::string out = from > 0 ? "\u2026" : "";
    out += toWtf8(std::u16string_view(units).substr(from, at - from));
    if (atByte)
        *atByte = out.size();
    out += toWtf8(std::u16string_view(units).substr(at, to - at));
    if (to < units.size())
        out += "\u2026";
    return out;
}

} // namespace tf::text
