#pragma once

#include "packedformat.h"

#include <cstddef>
#include <cstdint>

namespace tf::packed {

// What the expansion of a packed recording would be, measured over the packed form.
struct PlainSize
{
    std::uint64_t bytes = 0; // UTF-8 bytes of JSON.stringify(unpackRecording(...))
    std::size_t depth = 0;   // nesting of the expansion: 0 for a scalar, 1 for [] or {}, ...
};

// Upstream's checkExpansion, with the same refusals in the same order: a reference to a value that is not there
// ("A reference names value N, …"), a value that refers to itself through any chain ("Value N refers to itself; …"),
// and a partial sum over `maxBytes` (PackedRecordingTooLargeError), each raised where the walk meets it. Every
// value reached is sized once and remembered, so the cost is the packed size however far the recording expands, and
// nothing is built. Iterative: a chain of references costs no stack.
Refusal measurePlain(const PackedParts &parts, std::uint64_t maxBytes, PlainSize &size);

// Upstream's PackedRecordingTooLargeError message.
std::string tooLargeMessage(std::uint64_t maxBytes);

} // namespace tf::packed
