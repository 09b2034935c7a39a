#pragma once

#include "value.h"

#include <string>
#include <string_view>

namespace tf::json {

// JSON.stringify's string escaper (spec/findings.md §9.1) over WTF-8 input: a lone surrogate becomes `\udxxx`.
void appendJsString(std::string &out, std::string_view wtf8);
std::string jsQuoted(std::string_view wtf8);
// The length in bytes of what appendJsString writes for `wtf8`, without writing it: a packed recording is sized
// before it is expanded, and the two must agree byte for byte.
std::size_t jsStringLength(std::string_view wtf8);
// The same in UTF-16 code units and UTF-8 bytes (a receipt's slot sizes), still without writing it.
struct JsStringSize
{
    std::size_t utf16Units = 0;
    std::size_t utf8Bytes = 0;
};
JsStringSize jsStringSize(std::string_view wtf8);
// The same for a string value as appendStringify writes it (a deferred string in JSON.stringify's form is not
// decoded).
std::size_t stringifiedLength(const Value &stringValue);

// JSON.stringify(v) with no whitespace, members in the value's own (JavaScript property) order. Output is WTF-8
// only in the sense that it is pure UTF-8: lone surrogates are escaped.
void appendStringify(std::string &out, const Value &v);
std::string stringify(const Value &v);

// JSON.stringify of a copy with keys sorted by UTF-16 code unit at every depth (spec/recording.md §6.4); index
// keys still come first, in numeric order, because a JavaScript object lists them so.
void appendSortedKeyJson(std::string &out, const Value &v);
std::string sortedKeyJson(const Value &v);

// Indented rendering for people (two spaces), same escaping. Not used for any byte comparison. `depth` is the
// nesting level the value is written at (its inner lines are indented one level more), so a long document can be
// written a part at a time, alike.
std::string prettyPrint(const Value &v, int indent = 2, int depth = 0);
void appendPrettyPrint(std::string &out, const Value &v, int indent = 2, int depth = 0);

// Structural equality: objects as unordered maps, numbers by value (0 == -0), strings byte for byte.
bool deepEqual(const Value &a, const Value &b);

// Orders two WTF-8 strings as JavaScript compares strings: by UTF-16 code unit.
bool lessUtf16(std::string_view a, std::string_view b);

} // namespace tf::json
