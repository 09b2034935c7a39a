#pragma once

#include "core/json/value.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

// Packed recordings (spec/upstream-since-9.113.md §1; upstream src/recorders/observability/recordingPack.ts):
//
//     {"format":"agentfootprint.recording.packed.v1","recording":<shape A with refs>,"values":[…]}
//
// `{"$af:ref": n}` stands for values[n] (values may refer to values); `{"$af:esc": {…}}` stands for the object inside,
// taken as an object of the recording's own (its members are still unpacked). The law: JSON.stringify of the
// expansion is the plain recording byte for byte.
namespace tf::packed {

inline constexpr std::string_view kFormat = "agentfootprint.recording.packed.v1";
inline constexpr std::string_view kFormatFamily = "agentfootprint.recording.packed.";
inline constexpr std::string_view kRefKey = "$af:ref";
inline constexpr std::string_view kEscapeKey = "$af:esc";
// Upstream's DEFAULT_UNPACK_MAX_BYTES: the largest plain form (UTF-8 bytes of its JSON) a packed recording may
// stand for; equal passes.
inline constexpr std::uint64_t kDefaultMaxPlainBytes = 512ull * 1024 * 1024;

// A packed format of any version: every one but v1 is refused by name, never read as a plain recording.
bool isPackedFamily(std::string_view format);

// Whether the root object's first member is a "format" naming the packed family. Upstream writes `format` first, so
// this decides before the file is parsed; a file whose `format` comes later is found by the loader's own
// classification instead.
bool formatFirstNamesPackedFamily(std::string_view text);
// Whether the root object has a top-level "format" naming the packed family, wherever it is. Walks the text without
// building values.
bool namesPackedFamily(std::string_view text);

// The reading rule of a packed node, as upstream's decode: the index a reference ({"$af:ref": n}, exactly one member)
// names, or nullptr when the node is no reference; the object an escape ({"$af:esc": {...}}, exactly one member, an
// object) stands for, or nullptr; the value an index names when it is an integer `values` holds.
const json::Value *referenceIndex(const json::Value &node);
const json::Value *escapedObject(const json::Value &node);
std::optional<std::size_t> checkedIndex(const json::Value &index, std::size_t valueCount);

// A packed recording refused: where, upstream's error name (PackedRecordingError, PackedRecordingTooLargeError; empty
// for a limit of Tracefold's own) and its message word for word.
struct Refusal
{
    std::size_t offset = 0;
    std::string message;
    std::string errorName = "PackedRecordingError";

    bool refused() const { return !message.empty(); }
};

// The parts of a root object that is a v1 packed recording.
struct PackedParts
{
    const json::Value *recording = nullptr;
    const json::Value *values = nullptr; // an array
};

// Detection, as upstream's isPackedRecording and the family check that precedes it: `parts` is set for a v1 marker
// with an array `values` and a `recording`; anything else of the family is refused. A root of another format (or
// none) is neither: plain. `root` is the value parsed from `text`, where it starts after whitespace (and a BOM).
enum class Detected
{
    Plain,
    Packed,
    Refused
};
Detected detect(std::string_view text, const json::Value &root, PackedParts &parts, Refusal &refusal);
// Where the root value of a JSON text starts: past a byte-order mark and whitespace.
std::size_t rootStart(std::string_view text);

// Text from the file inside a one-line message: escaped as JSON.stringify escapes it, so no control character can
// break the line, and cut after 120 bytes (a format upstream names is short ASCII and comes out as it is).
std::string inLine(std::string_view wtf8);

// "<file>: packed recording refused at byte N: <errorName>: <message>", the one line every front end prints (the
// name and message as Node prints the error).
std::string describe(const std::string &file, const Refusal &refusal);

} // namespace tf::packed
