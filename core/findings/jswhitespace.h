#pragma once

#include <array>

namespace tf::findings {

// The JavaScript `\s` set, which is also what trim() and trimStart() strip (spec/findings.md §9.6), written out as
// a table of its own: std::isspace, QChar::isSpace, the Unicode White_Space property and other regex engines' `\s`
// all differ from it (U+0085, U+180E, U+200B and U+001C..U+001F are NOT in it; U+FEFF is).
inline constexpr std::array<char16_t, 25> kJsWhitespace = {
    u'\u0009', u'\u000A', u'\u000B', u'\u000C', u'\u000D', u'\u0020', u'\u00A0', u'\u1680', u'\u2000',
    u'\u2001', u'\u2002', u'\u2003', u'\u2004', u'\u2005', u'\u2006', u'\u2007', u'\u2008', u'\u2009',
    u'\u200A', u'\u2028', u'\u2029', u'\u202F', u'\u205F', u'\u3000', u'\uFEFF',
};

constexpr bool isJsWhitespace(char16_t unit)
{
    if (unit > u' ' && unit < u'\u00A0') // the common case: printable ASCII is never whitespace
        return false;
    for (char16_t w : kJsWhitespace)
        if (w == unit)
            return true;
    return false;
}

// §3.2: only CR and LF start a fold; U+2028 and U+2029 are whitespace that can only extend a run.
constexpr bool isFoldTrigger(char16_t unit)
{
    return unit == u'\r' || unit == u'\n';
}

} // namespace tf::findings
