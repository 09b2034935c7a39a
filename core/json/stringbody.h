#pragma once

#include <cstddef>
#include <string>
#include <string_view>

// The body of a JSON string literal: the bytes between its quotes, escapes still written out. The parser scans a
// body once (validating it and judging its form); a string value whose body held escapes may keep the body and
// decode it only when asked (Value::deferredString), so the bulk of a recording — tool results, JSON inside JSON —
// stays in the mapped file instead of being copied.
namespace tf::json {

struct StringBodyScan
{
    std::size_t end = 0;  // offset of the closing quote
    bool escaped = false; // the body holds at least one escape
    // The body is exactly what JSON.stringify would write for the decoded text (only `\"`, `\\`, `\b\f\n\r\t`,
    // lowercase `\u00xx` for other control characters and lowercase `\udxxx` for lone surrogates), so a writer may
    // copy it instead of decoding and escaping again.
    bool stringifyForm = true;
    std::size_t errorOffset = 0; // set with a non-empty error
    std::string error;
};

// Scans the body starting at `start` (just past the opening quote) up to its closing quote: strict UTF-8, valid
// escapes, no raw control characters. `trusted` text was scanned before (a span parsed again): its raw bytes are
// not checked again, only its quotes and escapes are read, which is most of the work on non-ASCII text.
StringBodyScan scanStringBody(std::string_view text, std::size_t start, bool trusted = false);

// The offset of the closing quote of the body starting at `start` (just past the opening quote), or the text's size
// when it has none. Only quotes and backslashes are read and nothing is checked: it steps over strings whose
// validity is the parser's business (json::skimMembers crossing a file to its parts), with the parser's finder,
// which classifies 16 bytes at a time and keeps them across the escapes of JSON inside JSON.
std::size_t endOfStringBody(std::string_view text, std::size_t start);

// Appends the decoded WTF-8 text of a body that scanStringBody accepted. An escaped high surrogate followed by an
// escaped low one is one character; any other surrogate escape stays a lone unit.
void decodeStringBody(std::string_view body, std::string &out);
// The same, stopping at the end of the character or escape that makes `out` grow by `maxBytes` or more: a preview of
// a long text without decoding it all. Returns whether the whole body was decoded.
bool decodeStringBodyPrefix(std::string_view body, std::string &out, std::size_t maxBytes);

// What a body decodes to, without decoding it: a length and whether a lone surrogate is possible, for the views that
// list dozens of tool results of tens of kilobytes each.
struct DecodedTextFacts
{
    std::size_t lengthU16 = 0; // UTF-16 units of the decoded text
    // The body escapes a surrogate (a pair or a lone one: only decoding tells), or holds one raw (a body no scan
    // accepted); false: the decoded text holds no lone surrogate.
    bool mayHoldLoneSurrogate = false;
};
DecodedTextFacts decodedTextFacts(std::string_view body);

} // namespace tf::json
