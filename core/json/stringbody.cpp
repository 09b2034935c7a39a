#include "stringbody.h"

#include "../text/utf.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tf::json {

namespace {

template <bool Trusted>
bool isSpecial(unsigned char c)
{
    return c == '"' || c == '\\' || (!Trusted && (c < 0x20 || c >= 0x80));
}

// Finds the bytes that end a plain run: quotes, backslashes, control characters and non-ASCII bytes (in trusted
// text, quotes and backslashes only). String bodies are most of a recording's bytes, and JSON inside JSON has an
// escape every few bytes, so the finder remembers the 16-byte window it last classified instead of classifying
// again after each escape.
template <bool Trusted>
class SpecialFinder
{
public:
    explicit SpecialFinder(std::string_view text)
        : m_text(text)
    {
    }

    // The first special byte at or after `p`, or the text's size.
    std::size_t next(std::size_t p)
    {
        const std::size_t n = m_text.size();
#if defined(__SSE2__)
        while (true) {
            if (m_haveWindow && p >= m_window && p < m_window + 16) {
                const unsigned m = m_mask & (~0u << (p - m_window));
                if (m)
                    return m_window + std::size_t(__builtin_ctz(m));
                p = m_window + 16;
            }
            if (p + 16 > n)
                break;
            m_window = p;
            m_mask = classify(m_text.data() + p);
            m_haveWindow = true;
        }
#endif
        while (p < n && !isSpecial<Trusted>(static_cast<unsigned char>(m_text[p])))
            ++p;
        return p;
    }

private:
#if defined(__SSE2__)
    static unsigned classify(const char *at)
    {
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i *>(at));
        const __m128i quoteOrBackslash =
            _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
        if (Trusted)
            return unsigned(_mm_movemask_epi8(quoteOrBackslash));
        const __m128i hit = _mm_or_si128(quoteOrBackslash, _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x1F)), x));
        // movemask of x itself flags the bytes with the high bit set: the non-ASCII ones.
        return unsigned(_mm_movemask_epi8(hit)) | unsigned(_mm_movemask_epi8(x));
    }
    std::size_t m_window = 0;
    unsigned m_mask = 0;
    bool m_haveWindow = false;
#endif
    std::string_view m_text;
};

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// Reads four hex digits at `at`; false when there are not four. `lowercase` tells whether none was A-F.
bool readHex4(std::string_view text, std::size_t at, unsigned &value, bool &lowercase)
{
    if (at + 4 > text.size())
        return false;
    value = 0;
    lowercase = true;
    for (std::size_t i = at; i < at + 4; ++i) {
        const int d = hexValue(text[i]);
        if (d < 0)
            return false;
        if (text[i] >= 'A' && text[i] <= 'F')
            lowercase = false;
        value = (value << 4) | unsigned(d);
    }
    return true;
}

unsigned hex4(std::string_view text, std::size_t at)
{
    unsigned v = 0;
    bool lower = true;
    readHex4(text, at, v, lower);
    return v;
}

bool escapedLowSurrogateAt(std::string_view text, std::size_t at)
{
    unsigned lo = 0;
    bool lower = true;
    return at + 1 < text.size() && text[at] == '\\' && text[at + 1] == 'u' && readHex4(text, at + 2, lo, lower) &&
           lo >= 0xDC00 && lo <= 0xDFFF;
}

// Whether JSON.stringify writes code unit `u` as this `\u` escape (it escapes only control characters without a
// short form, and lone surrogates, always in lowercase).
bool stringifyEscapesUnit(unsigned u)
{
    if (u < 0x20)
        return u != '\b' && u != '\t' && u != '\n' && u != '\f' && u != '\r';
    return u >= 0xD800 && u <= 0xDFFF;
}

} // namespace

namespace {

template <bool Trusted>
StringBodyScan scanBody(std::string_view text, std::size_t start)
{
    StringBodyScan scan;
    const auto fail = [&](std::size_t at, std::string reason) {
        scan.errorOffset = at;
        scan.error = std::move(reason);
        return scan;
    };
    const std::size_t n = text.size();
    std::size_t p = start;
    SpecialFinder<Trusted> finder(text);
    while (true) {
        p = finder.next(p);
        if (p >= n)
            return fail(start - 1, "unterminated string");
        const auto c = static_cast<unsigned char>(text[p]);
        if (c == '"') {
            scan.end = p;
            return scan;
        }
        if (c >= 0x80) {
            const std::size_t len = text::utf8SequenceLengthAt(text, p);
            if (len == 0)
                return fail(p, "invalid UTF-8 in string");
            p += len;
            continue;
        }
        if (c < 0x20)
            return fail(p, "control character in string (must be escaped)");
        // A backslash.
        scan.escaped = true;
        if (p + 1 >= n)
            return fail(start - 1, "unterminated string");
        const char e = text[p + 1];
        switch (e) {
        case '"':
        case '\\':
        case 'b':
        case 'f':
        case 'n':
        case 'r':
        case 't':
            p += 2;
            continue;
        case '/':
            scan.stringifyForm = false;
            p += 2;
            continue;
        case 'u': {
            unsigned u = 0;
            bool lowercase = true;
            if (!readHex4(text, p + 2, u, lowercase)) {
                std::size_t bad = p + 2;
                if (p + 6 <= n)
                    while (hexValue(text[bad]) >= 0)
                        ++bad;
                return fail(bad, "expected four hex digits after \\u");
            }
            p += 6;
            const bool pair = u >= 0xD800 && u <= 0xDBFF && escapedLowSurrogateAt(text, p);
            if (pair) {
                p += 6; // JSON.stringify writes a pair as the character itself
                scan.stringifyForm = false;
            } else if (!lowercase || !stringifyEscapesUnit(u)) {
                scan.stringifyForm = false;
            }
            continue;
        }
        default: {
            // The escaped byte may be a line break or part of a multi-byte character: name printable ASCII only.
            char what[16];
            if (e > 0x20 && e < 0x7F)
                std::snprintf(what, sizeof what, "'\\%c'", e);
            else
                std::snprintf(what, sizeof what, "'\\' + byte 0x%02X", static_cast<unsigned char>(e));
            return fail(p, std::string("invalid escape ") + what);
        }
        }
    }
}

} // namespace

StringBodyScan scanStringBody(std::string_view text, std::size_t start, bool trusted)
{
    return trusted ? scanBody<true>(text, start) : scanBody<false>(text, start);
}

std::size_t endOfStringBody(std::string_view text, std::size_t start)
{
    SpecialFinder<true> finder(text);
    std::size_t p = start;
    for (;;) {
        p = finder.next(p);
        if (p >= text.size())
            return text.size();
        if (text[p] == '"')
            return p;
        p += 2; // a backslash and the byte it escapes (no hex digit of a \u escape is a quote or a backslash)
    }
}

namespace {

// Appends what the body decodes to, stopping after the character or escape that makes `out` grow by `maxBytes` or
// more; returns whether it reached the body's end. Backslashes are found with the parser's finder: JSON inside JSON
// has one every few bytes, and a library search from each to the next cost more than the copying.
bool decodeBody(std::string_view body, std::string &out, std::size_t maxBytes)
{
    const std::size_t n = body.size();
    const std::size_t stopAt = maxBytes > n ? std::string::npos : out.size() + maxBytes; // decoding never grows
    out.reserve(out.size() + std::min(n, maxBytes));
    SpecialFinder<true> finder(body);
    std::size_t p = 0;
    while (p < n) {
        if (stopAt != std::string::npos && out.size() >= stopAt)
            return false;
        std::size_t q = finder.next(p);
        // A quote is not from a scan that accepted the body (a file rewritten under its record): copied as it is.
        while (q < n && body[q] == '"')
            q = finder.next(q + 1);
        if (stopAt != std::string::npos && q > p && out.size() + (q - p) >= stopAt) {
            // The plain run fills what was asked for: copy it up to the end of the character that reaches the limit.
            std::size_t cut = p + (stopAt - out.size());
            while (cut < q && (static_cast<unsigned char>(body[cut]) & 0xC0) == 0x80)
                ++cut;
            out.append(body.data() + p, cut - p);
            return cut >= n;
        }
        out.append(body.data() + p, q - p);
        if (q >= n)
            return true;
        if (q + 1 >= n) { // not from a scan that accepted it (a file rewritten under its record): kept as it is
            out += '\\';
            return true;
        }
        const char e = body[q + 1];
        p = q + 2;
        switch (e) {
        case 'b':
            out += '\b';
            break;
        case 'f':
            out += '\f';
            break;
        case 'n':
            out += '\n';
            break;
        case 'r':
            out += '\r';
            break;
        case 't':
            out += '\t';
            break;
        case 'u': {
            const unsigned u = hex4(body, q + 2);
            p = q + 6;
            if (u >= 0xD800 && u <= 0xDBFF && escapedLowSurrogateAt(body, p)) {
                text::appendCodePoint(out, 0x10000 + ((u - 0xD800) << 10) + (hex4(body, p + 2) - 0xDC00));
                p += 6;
            } else {
                text::appendCodePoint(out, u);
            }
            break;
        }
        default: // '"', '\\', '/'
            out += e;
            break;
        }
    }
    return true;
}

} // namespace

void decodeStringBody(std::string_view body, std::string &out)
{
    decodeBody(body, out, std::string::npos);
}

bool decodeStringBodyPrefix(std::string_view body, std::string &out, std::size_t maxBytes)
{
    return decodeBody(body, out, maxBytes);
}

namespace {

// What decodedTextFacts needs of a body's escapes, read one escape at a time: what their bytes count (lengthU16)
// beyond what they decode to, and whether one is a surrogate's.
std::size_t escapeUnitsOneByOne(std::string_view body, bool &surrogateEscape)
{
    std::size_t beyondOne = 0;
    SpecialFinder<true> finder(body);
    const std::size_t n = body.size();
    for (std::size_t p = finder.next(0); p + 1 < n; p = finder.next(p)) {
        if (body[p] == '"') { // not from a scan that accepted it: a byte as any other
            ++p;
            continue;
        }
        if (body[p + 1] != 'u') {
            beyondOne += 1; // the backslash: the byte after it is what it decodes to
            p += 2;
            continue;
        }
        const std::size_t length = std::min<std::size_t>(6, n - p);
        if (hex4(body, p + 2) - 0xD800u <= 0x7FFu)
            surrogateEscape = true;
        beyondOne += text::lengthU16(body.substr(p, length)) - 1;
        p += length;
    }
    return beyondOne;
}

#if defined(__SSE2__)
// A bit per byte of the 64 at `at`: where the byte is `c`, or (c == 0) where it is not ASCII.
std::uint64_t byteMask(const char *at, char c)
{
    std::uint64_t mask = 0;
    for (int k = 0; k < 4; ++k) {
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i *>(at + 16 * k));
        const int bits = c ? _mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(c))) : _mm_movemask_epi8(x);
        mask |= std::uint64_t(unsigned(bits)) << (16 * k);
    }
    return mask;
}

// The same, 64 bytes at a time: the bytes a backslash escapes are found as a JSON parser finds them without reading
// from one escape to the next (the first of each run of backslashes escapes the next byte, the run's parity carried
// from block to block). Every escape then counts one unit beyond one, and a `\u` escape four more, which holds when
// the four bytes after each `u` are ASCII and no backslash: false when they are not (a body no scan accepted), or
// when they run past the body, for the caller to read it one escape at a time.
bool escapeUnitsByBlocks(std::string_view body, std::size_t &beyondOne, bool &surrogateEscape)
{
    constexpr std::uint64_t kEvenBits = 0x5555555555555555ULL;
    const std::size_t n = body.size();
    std::uint64_t escapedCarry = 0; // the next block's first byte is escaped
    std::uint64_t digitsCarry = 0;  // its first bytes are a `\u` escape's four (bits from the block before)
    std::uint64_t firstCarry = 0;   // its first byte follows a `\u`
    std::size_t escapes = 0, unicodeEscapes = 0;
    char padded[64];
    for (std::size_t at = 0; at < n; at += 64) {
        const char *block = body.data() + at;
        const std::size_t valid = std::min<std::size_t>(64, n - at);
        if (valid < 64) {
            std::memset(padded, 0, sizeof padded);
            std::memcpy(padded, block, valid);
            block = padded;
        }
        const std::uint64_t inBody = valid == 64 ? ~0ULL : (1ULL << valid) - 1;
        const std::uint64_t backslashes = byteMask(block, '\\');
        // simdjson's escape finder: sequences of backslashes starting on odd bits are flipped by the add's carry.
        const std::uint64_t backslash = backslashes & ~escapedCarry;
        const std::uint64_t followsEscape = (backslash << 1) | escapedCarry;
        const std::uint64_t oddStarts = backslash & ~kEvenBits & ~followsEscape;
        std::uint64_t evenStartSequences = 0;
        escapedCarry = __builtin_add_overflow(oddStarts, backslash, &evenStartSequences) ? 1 : 0;
        const std::uint64_t escaped = ((kEvenBits ^ (evenStartSequences << 1)) & followsEscape) & inBody;
        const std::uint64_t unicode = escaped & byteMask(block, 'u');
        // The four bytes after each escaped `u`, those past this block carried to the next.
        const std::uint64_t digitsHere =
            (unicode << 1) | (unicode << 2) | (unicode << 3) | (unicode << 4) | digitsCarry;
        const std::uint64_t firstHere = (unicode << 1) | firstCarry;
        digitsCarry = (unicode >> 63) | (unicode >> 62) | (unicode >> 61) | (unicode >> 60);
        firstCarry = unicode >> 63;
        // The other masks only where a `\u` escape reaches into the block: most blocks of a tool result have none.
        if (digitsHere && (digitsHere & (~inBody | byteMask(block, 0) | backslashes)))
            return false;
        if (firstHere && (firstHere & (byteMask(block, 'd') | byteMask(block, 'D'))))
            surrogateEscape = true; // \uD800-\uDFFF, or a \uD000-\uD7FF the caller decodes to be sure
        escapes += std::size_t(__builtin_popcountll(escaped));
        unicodeEscapes += std::size_t(__builtin_popcountll(unicode));
    }
    if (digitsCarry)
        return false; // a `\u` escape cut by the body's end
    beyondOne = escapes + 4 * unicodeEscapes;
    return true;
}
#endif

} // namespace

DecodedTextFacts decodedTextFacts(std::string_view body)
{
    // lengthU16 counts bytes one by one, so the text's length is the body's less, for each escape, what its bytes count
    // beyond what they decode to: the backslash of a short escape (the byte after it is what it decodes to), and all
    // but one unit of a `\u` escape's six bytes (a pair's two escapes decode to the pair's two units). Counting those
    // bytes, not assuming them ASCII, keeps it true of a body no scan accepted, read as decodeBody reads it: a `\u`
    // followed by anything but four hex digits is one unit in place of the six bytes from the backslash.
    DecodedTextFacts facts;
    std::size_t beyondOne = 0;
    bool surrogateEscape = false;
#if defined(__SSE2__)
    if (!escapeUnitsByBlocks(body, beyondOne, surrogateEscape)) {
        surrogateEscape = false;
        beyondOne = escapeUnitsOneByOne(body, surrogateEscape);
    }
#else
    beyondOne = escapeUnitsOneByOne(body, surrogateEscape);
#endif
    facts.lengthU16 = text::lengthU16(body) - beyondOne;
    // A surrogate written raw is refused by the scan; a body read from a file rewritten under its record may hold one.
    facts.mayHoldLoneSurrogate = surrogateEscape || text::hasLoneSurrogate(body);
    return facts;
}

} // namespace tf::json
