#pragma once

#include "core/json/parser.h"
#include "core/json/value.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace tf::recording::detail {

// One line of an NDJSON event log (spec/recording.md §1.2 step 4, §1.7), read by the one rule that the loader and the
// log follower share.
struct NdjsonLine
{
    enum class Kind
    {
        Blank, // whitespace only: skipped
        Event, // `value` is an event object
        Bad,   // `problem` says what is wrong, at byte `problemOffset` of the text
    };
    Kind kind = Kind::Blank;
    bool parseFailed = false; // the line is not JSON at all (a torn last line is)
    json::Value value;
    std::string problem;
    std::size_t problemOffset = 0;
};

// Reads the line of `text` that runs from `pos` up to `eol` (the offset of its '\n', or the end of the text); a '\r'
// before the newline is not part of it. The value is parsed within the line only, so it never runs into the next.
NdjsonLine readNdjsonLine(std::string_view text, std::size_t pos, std::size_t eol, json::StringArena &arena);

// "<file>:<line>:<column>: expected one JSON event object (<problem>)" — §1.7, no space after the name.
std::string ndjsonLineError(const std::string &path, std::size_t lineNo, std::string_view text, std::size_t pos,
                            std::size_t eol, const NdjsonLine &line);

} // namespace tf::recording::detail
