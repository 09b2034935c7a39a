#pragma once

#include "value.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tf::json {

class StringEnds;
class ArrayReadAhead;

// 1024, or the value of the environment variable TRACEFOLD_DEFER_ESCAPED_STRING_BYTES: the test suite runs the
// conformance vectors and sample recordings a second time with 0, so every escaped string takes the deferred path.
std::size_t defaultDeferEscapedStringBytes();

struct ParseLimits
{
    // Deeper nesting is refused, not recursed into: a hostile file must not overflow the stack.
    std::size_t maxDepth = 512;
    // Called about every `progressIntervalBytes` with the current byte offset; returning false cancels the parse
    // (the error then reads "cancelled"). Lets a loader off the GUI thread report progress and stop promptly.
    std::function<bool(std::size_t offset)> progress;
    std::size_t progressIntervalBytes = 4u << 20;
    // A string value whose literal holds escapes and is at least this many bytes long is kept undecoded, as a view
    // of its body (Value::deferredString): tool results are JSON inside JSON, full of `\"`, and copying them would
    // double a recording's memory. Member names are always decoded. SIZE_MAX decodes everything.
    std::size_t deferEscapedStringBytes = defaultDeferEscapedStringBytes();
    // Values that need no arena: short strings (up to kCopiedStringBytes, and escaped ones below
    // deferEscapedStringBytes, decoded) are copied into blocks the strings share (SharedStringWriter), longer ones
    // are views into the text or deferred. A value parsed this way may outlive the arena and be parsed again later
    // from the same text, alike; only its long strings read the text again.
    bool selfContained = false;
    // The text was parsed before with these limits (a recorded span parsed again): raw string bytes are not
    // validated again. Never set it for text that has not been.
    bool trusted = false;
    // Where the long strings of the text end, recorded as this parse validates them, for the parses of its spans
    // again (parseAgain and the rest take it). Not with `trusted`.
    StringEnds *recordStringEnds = nullptr;
    // Streamed arrays: an array reached through member names only from the root (no array on the way) whose path
    // `streamArrayAt` accepts is not built. Each item is parsed and validated as usual, handed to `onStreamedItem`
    // with the byte offsets where the item starts and ends, and dropped; the array reads as empty. A recording's
    // event list and commit log are read this way, so the whole file is never one tree in memory. Returning false
    // from `onStreamedItem` stops the parse (the error then reads "stopped").
    std::function<bool(const std::vector<std::string> &path)> streamArrayAt;
    std::function<bool(Value item, std::size_t begin, std::size_t end)> onStreamedItem;
    // How deep the items of the streamed array at a path are built, asked once per streamed array: containers nested
    // that many levels or more inside an item (0: the item itself) are validated as usual but handed over empty,
    // with their type and offset kept, and their strings and numbers are not read. A loader that needs a few
    // fields of each item, or only where it is, skips building the rest. Unset: items are built whole.
    std::function<std::size_t(const std::vector<std::string> &path)> streamedItemDepth;
    // Containers at this depth or deeper (the value parsed is at depth 0) are validated but read as empty, with
    // their type and offset kept, and nothing inside them is read: for a reader that wants a few members of a value
    // whose bulk is below them. SIZE_MAX builds everything.
    std::size_t skimContainersFrom = SIZE_MAX;
    // Paths deeper than this are not offered to streamArrayAt.
    std::size_t streamPathDepth = 8;
    // Streamed arrays read on another thread while this parse reads what comes before them: a streamed array this
    // one reaches is asked for there first (ArrayReadAhead::take), and stepped over when it was read.
    ArrayReadAhead *readAhead = nullptr;
    // Whether a ParseError gets its line and column, which costs a scan of the text up to the error. A re-parse
    // (parseAgain) drops its error: a file truncated under a pass makes every re-parse fail, and scanning up to each
    // failure made the pass quadratic in the file's size (minutes for a 1.5 MB log under ASan).
    bool locateErrors = true;
};

struct ParseError
{
    std::size_t offset = 0; // byte offset into the text
    std::size_t line = 0;   // 1-based
    std::size_t column = 0; // 1-based, in code points
    std::string reason;

    bool failed() const { return !reason.empty(); }
    // "invalid JSON at byte N (line L, column C): reason"
    std::string describe() const;
};

// A reader of a streamed array that runs ahead of the parse of its document, on a thread of its own: what it reads of
// the array's items goes where the parse's onStreamedItem would have sent them, so the parse only steps over it.
class ArrayReadAhead
{
public:
    virtual ~ArrayReadAhead() = default;
    // Asked by the parse when it reaches a streamed array at `begin`, `depth` containers deep, whose items it reads
    // `itemDepth` deep (SIZE_MAX: whole): when that array was read ahead alike, waits for the reading to end, adds
    // the string ends recorded in it to `ends` (when given) and returns where the array ends (just past its ']').
    // Nothing otherwise (another array, or one whose reading failed: the parse reads it itself, and finds the same
    // failure).
    virtual std::optional<std::size_t> take(std::size_t begin, std::size_t depth, std::size_t itemDepth,
                                            StringEnds *ends) = 0;
};

// Owns the decoded copies of short strings that held escapes, and the copies of short unescaped ones; other strings
// are views into the source text, so the source must outlive the values as well.
class StringArena
{
public:
    // Copies a string into blocks the arena owns.
    std::string_view copy(std::string_view s);
    // Takes over the blocks of another arena: what was copied into it stays where it is, owned by this one.
    void adopt(StringArena &&other);

private:
    std::vector<std::unique_ptr<char[]>> m_blocks;
    std::size_t m_blockFree = 0;
    char *m_blockNext = nullptr;
};

// Unescaped strings up to this many bytes are copied out of the source text. The fields a fold and every view read
// (kinds, ids, paths, roles) are short and scattered over the whole file: left as views, reading one row faults in
// a page — and the kernel maps its neighbours too — so a pass over a ledger of thousands of rows would bring most
// of a gigabyte file back into resident memory. Copied, they cost a few bytes each. 256 rather than 64: a ledger's
// prose fields (a ruled-out row's `line`, an open row's `settles`) are mostly 65-256 bytes, and every call's piece
// quotes them; as views, each faulted a dropped page of the file back in (a tenth of a 1.5 GB run's call views).
inline constexpr std::size_t kCopiedStringBytes = 256;

// Parses one JSON value starting at `offset` (leading whitespace skipped). JavaScript's JSON.parse semantics:
// lone surrogate escapes are kept (WTF-8), numbers become doubles, objects take JavaScript property order with a
// duplicated key keeping its first position and its last value. Raw bytes must be valid UTF-8.
// On success `end` is the offset just past the value.
Value parse(std::string_view text, StringArena &arena, ParseError &error, std::size_t offset = 0,
            std::size_t *end = nullptr, const ParseLimits &limits = {});

// Parses the value at `offset` of text that was parsed before with the same limits (a span recorded from an earlier
// pass, Value::sourceOffset): selfContained, so no arena is needed. Returns null if the text does not parse there.
// `ends`, when the parse that validated the text recorded it, lets the parse step over the long strings.
Value parseAgain(std::string_view text, std::size_t offset, std::size_t *end = nullptr,
                 const StringEnds *ends = nullptr);
// The same, with containers below `depth` levels read as empty (ParseLimits::skimContainersFrom): depth 1 gives an
// object's members, with those that are arrays or objects empty.
Value parseAgainShallow(std::string_view text, std::size_t offset, std::size_t depth, const StringEnds *ends = nullptr);
// Where the value at `offset` of text parsed before ends (just past it), read without building it; npos when the
// text does not parse there.
std::size_t endOfValueAgain(std::string_view text, std::size_t offset, const StringEnds *ends = nullptr);

// Parses the array at `offset` of `text`, `depth` containers deep in its document, as a parse of the whole document
// with these limits reads a streamed array there: each item built `itemDepth` deep (SIZE_MAX: whole) and handed to
// limits.onStreamedItem, the long strings' ends recorded in limits.recordStringEnds, copies (unless selfContained)
// in `arena`. For an ArrayReadAhead. On success `end` is the offset just past the array; the error is the one the
// whole parse would meet in the array.
bool parseStreamedArray(std::string_view text, std::size_t offset, std::size_t depth, std::size_t itemDepth,
                        StringArena &arena, const ParseLimits &limits, ParseError &error, std::size_t &end);

// Line and column (1-based; column in code points) of a byte offset.
void lineColumnAt(std::string_view text, std::size_t offset, std::size_t &line, std::size_t &column);

// The whitespace JSON allows between tokens.
inline bool isJsonSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

} // namespace tf::json
