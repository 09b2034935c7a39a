#include "receipthash.h"

#include "core/text/utf.h"

#include <array>
#include <cstdint>

namespace tf::receipt {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

// The WTF-8 form of a surrogate code point: ED A0..BF xx. High halves are ED A0..AF, low halves ED B0..BF.
bool surrogateAt(std::string_view s, std::size_t i)
{
    return i + 2 < s.size() && static_cast<unsigned char>(s[i]) == 0xED &&
           (static_cast<unsigned char>(s[i + 1]) & 0xE0) == 0xA0;
}

char32_t surrogateValue(std::string_view s, std::size_t i)
{
    return 0xD000 | (char32_t(static_cast<unsigned char>(s[i + 1]) & 0x3F) << 6) |
           char32_t(static_cast<unsigned char>(s[i + 2]) & 0x3F);
}

} // namespace

void updateUtf8Lossy(crypto::Sha256 &hasher, std::string_view s)
{
    // Text is almost always free of surrogates: hash maximal clean runs straight from the caller's buffer.
    std::size_t runStart = 0;
    std::size_t i = 0;
    while (i < s.size()) {
        if (static_cast<unsigned char>(s[i]) != 0xED || !surrogateAt(s, i)) {
            ++i;
            continue;
        }
        hasher.update(s.substr(runStart, i - runStart));
        const char32_t unit = surrogateValue(s, i);
        if (unit <= 0xDBFF && surrogateAt(s, i + 3) && surrogateValue(s, i + 3) >= 0xDC00) {
            // Two halves written separately still form one character once the text is seen as UTF-16.
            std::string pair;
            text::appendCodePoint(pair, 0x10000 + ((unit - 0xD800) << 10) + (surrogateValue(s, i + 3) - 0xDC00));
            hasher.update(pair);
            i += 6;
        } else {
            hasher.update(kReplacement);
            i += 3;
        }
        runStart = i;
    }
    hasher.update(s.substr(runStart));
}

void updateUtf8Lossy(crypto::Sha256 &hasher, std::u16string_view u)
{
    // Encode through a small buffer: a long piece never needs a second full-size copy.
    std::array<char, 4096> buffer;
    std::size_t fill = 0;
    auto put = [&](char32_t cp) {
        if (fill + 4 > buffer.size()) {
            hasher.update(buffer.data(), fill);
            fill = 0;
        }
        if (cp < 0x80) {
            buffer[fill++] = char(cp);
        } else if (cp < 0x800) {
            buffer[fill++] = char(0xC0 | (cp >> 6));
            buffer[fill++] = char(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            buffer[fill++] = char(0xE0 | (cp >> 12));
            buffer[fill++] = char(0x80 | ((cp >> 6) & 0x3F));
            buffer[fill++] = char(0x80 | (cp & 0x3F));
        } else {
            buffer[fill++] = char(0xF0 | (cp >> 18));
            buffer[fill++] = char(0x80 | ((cp >> 12) & 0x3F));
            buffer[fill++] = char(0x80 | ((cp >> 6) & 0x3F));
            buffer[fill++] = char(0x80 | (cp & 0x3F));
        }
    };
    for (std::size_t i = 0; i < u.size(); ++i) {
        const char16_t c = u[i];
        if (text::isHighSurrogate(c) && i + 1 < u.size() && text::isLowSurrogate(u[i + 1])) {
            put(0x10000 + ((char32_t(c) - 0xD800) << 10) + (char32_t(u[i + 1]) - 0xDC00));
            ++i;
        } else if (text::isHighSurrogate(c) || text::isLowSurrogate(c)) {
            put(0xFFFD);
        } else {
            put(c);
        }
    }
    hasher.update(buffer.data(), fill);
}

std::string truncatedHex(const crypto::Sha256::Digest &digest)
{
    return crypto::Sha256::hex(std::string_view(reinterpret_cast<const char *>(digest.data()), kReceiptHashLength / 2));
}

std::string receiptHash(std::string_view saltWtf8, std::string_view contentWtf8)
{
    // The separator stands between salt and content, so no surrogate pair can form across the join: hashing the
    // three parts one after the other equals hashing their concatenation.
    crypto::Sha256 hasher;
    updateUtf8Lossy(hasher, saltWtf8);
    hasher.update(kUnitSeparator);
    updateUtf8Lossy(hasher, contentWtf8);
    return truncatedHex(hasher.finish());
}

std::string receiptHash(std::string_view saltWtf8, std::u16string_view content)
{
    crypto::Sha256 hasher;
    updateUtf8Lossy(hasher, saltWtf8);
    hasher.update(kUnitSeparator);
    updateUtf8Lossy(hasher, content);
    return truncatedHex(hasher.finish());
}

bool isReceiptHashShaped(std::string_view s)
{
    if (s.size() != kReceiptHashLength)
        return false;
    for (const char c : s) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    }
    return true;
}

} // namespace tf::receipt
