#pragma once

#include <string>
#include <string_view>

namespace tf::report {

// The one HTML escaper of the reports. Every piece of untrusted text (anything read from a recording, a sidecar or
// a command line) goes through it, in element content and in the one attribute that may carry such text (`title`,
// always double-quoted). Nothing untrusted is ever placed in a URL, an id, a class or any other attribute.
//
// Input is WTF-8 (core strings may hold a lone surrogate); bytes that are not even WTF-8 are tolerated. Output is
// strict UTF-8 with:
//   & < > " '                      -> &amp; &lt; &gt; &quot; &#39;
//   a lone surrogate, a bad byte   -> U+FFFD
//   C0 controls but TAB LF CR, DEL -> their Control Pictures (U+2400 + c, U+2421): NUL shows as a visible mark,
//                                     which matters for the NUL-joined assertion keys
//   U+2028, U+2029                 -> &#x2028; &#x2029; (the same characters, kept out of the raw source)
//   bidi embeddings, overrides and isolates (U+202A..U+202E, U+2066..U+2069)
//                                  -> the visible text "<U+202E>" (escaped), so a result cannot reorder the
//                                     report's lines on screen
void appendEscaped(std::string &out, std::string_view wtf8);
std::string escapeHtml(std::string_view wtf8);
std::string escapeHtml(std::u16string_view utf16);

} // namespace tf::report
