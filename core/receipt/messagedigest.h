#pragma once

#include "core/json/value.h"

#include <string>
#include <string_view>

// What a receipt hashes for a message and for a tool schema (spec/recording.md §6.3). Each function returns the
// digest input as WTF-8; pass it to receiptHash() with the run's salt.
namespace tf::receipt {

// Separators of the message digest input.
inline constexpr std::string_view kFieldSeparator = "\x1E";     // U+001E between the six message fields
inline constexpr std::string_view kCallSeparator = "\x1C";      // U+001C between tool calls
inline constexpr std::string_view kCallFieldSeparator = "\x1D"; // U+001D between the four fields of a call
inline constexpr std::string_view kUnserializable = "\x1F<unserializable>";

// messageDigestInput(m) = role ␞ content ␞ toolCallId ␞ toolName ␞ toolCalls ␞ thinkingBlocks, where toolCalls is
// the calls joined by ␜, each call id ␝ name ␝ sortedKeyJson(args) ␝ sortedKeyJson(providerMeta) (or ""), and
// thinkingBlocks is its sorted-key JSON, or "" when absent or an empty array.
//
// Beyond the spec, for damaged recordings (the function never fails):
// - a text field (role, content, toolCallId, toolName, a call's id and name) that is present but not a string
//   contributes its sorted-key JSON (`null`, `5`, `true`, `{"a":1}`); for numbers and booleans that equals
//   JavaScript's String(); for the rest the hash will almost surely disagree with the receipt, so the row is
//   reported Damaged, which is what a recording with such a message is;
// - `toolCalls` present but not an array contributes its sorted-key JSON in the calls field; a call that is not
//   an object reads like JavaScript property access on a primitive: every member absent, so "␝␝␟<unserializable>␝";
// - `thinkingBlocks` that is null counts as absent (a JavaScript length test would skip it too); any other
//   non-array value contributes its sorted-key JSON;
// - a message that is not an object has every member absent, so its input is the five separators alone.
// `providerMeta` present with any value, null included, contributes its sorted-key JSON.
std::string messageDigestInput(const json::Value &message);

// A request-only line (spec/recording.md §6.3) is hashed as the message {role, content: text}.
std::string requestOnlyDigestInput(std::string_view roleWtf8, std::string_view textWtf8);

// The sorted-key JSON (spec/recording.md §6.4) of the schema object as committed, every member included.
std::string schemaDigestInput(const json::Value &schema);

} // namespace tf::receipt
