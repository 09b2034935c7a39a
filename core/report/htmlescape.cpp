#include "htmlescape.h"

#include "core/text/utf.h"

#include <cstdio>

namespace tf::report {

namespace {

void appendUtf8(std::string &out, char32_t cp)
{
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

constexpr char32_t kReplacement = 0xFFFD;

// Decodes one code point at `i` and advances. Surrogate code points (WTF-8) decode as themselves; anything that is
// not a well-formed sequence decodes as U+FFFD and consumes one byte.
char32_t decodeAt(std::string_view s, std::size_t &i)
{
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
        ++i;
        return b0;
    }
    std::size_t need = 0;
    char32_t cp = 0;
    char32_t min = 0;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        need = 1;
        cp = b0 & 0x1F;
        min = 0x80;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        need = 2;
        cp = b0 & 0x0F;
        min = 0x800;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        need = 3;
        cp = b0 & 0x07;
        min = 0x10000;
    } else {
        ++i;
        return kReplacement;
    }
    if (i + need >= s.size()) {
        ++i;
        return kReplacement;
    }
    for (std::size_t k = 1; k <= need; ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        if ((b & 0xC0) != 0x80) {
            ++i;
            return kReplacement;
        }
        cp = (cp << 6) | (b & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF) {
        ++i;
        return kReplacement;
    }
    i += need + 1;
    return cp;
}

void appendCodePointEscaped(std::string &out, char32_t cp)
{
    switch (cp) {
    case '&':
        out += "&amp;";
        return;
    case '<':
        out += "&lt;";
        return;
    case '>':
        out += "&gt;";
        return;
    case '"':
        out += "&quot;";
        return;
    case '\'':
        out += "&#39;";
        return;
    case '\t':
    case '\n':
    case '\r':
        out += char(cp);
        return;
    case 0x2028:
        out += "&#x2028;";
        return;
    case 0x2029:
        out += "&#x2029;";
        return;
    default:
        break;
    }
    if (cp < 0x20) {
        appendUtf8(out, 0x2400 + cp);
        return;
    }
    if (cp == 0x7F) {
        appendUtf8(out, 0x2421);
        return;
    }
    if (cp >= 0xD800 && cp <= 0xDFFF) {
        appendUtf8(out, kReplacement);
        return;
    }
    if ((cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069)) {
        char buf[24]; // 15 bytes are used; gcc -O0 (the sanitizer build) cannot see cp's range and warns below 19
        std::snprintf(buf, sizeof buf, "&lt;U+%04X&gt;", unsigned(cp));
        out += buf;
        return;
    }
    appendUtf8(out, cp);
}

} // namespace

void appendEscaped(std::string &out, std::string_view wtf8)
{
    out.reserve(out.size() + wtf8.size());
    std::size_t i = 0;
    while (i < wtf8.size()) {
        // Fast path for the common run of harmless ASCII.
        const auto c = static_cast<unsigned char>(wtf8[i]);
        if (c >= 0x20 && c < 0x7F && c != '&' && c != '<' && c != '>' && c != '"' && c != '\'') {
            out += char(c);
            ++i;
            continue;
        }
        appendCodePointEscaped(out, decodeAt(wtf8, i));
    }
}

std::string escapeHtml(std::string_view wtf8)
{
    std::string out;
    appendEscaped(out, wtf8);
    return out;
}

std::string escapeHtml(std::u16string_view utf16)
{
    // toWtf8 keeps a lone surrogate as its 3-byte form, which the escaper then shows as U+FFFD.
    return escapeHtml(text::toWtf8(utf16));
}

} // namespace tf::report
