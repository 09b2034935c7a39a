#pragma once

#include "packedformat.h"

#include "core/io/bytesink.h"

#include <cstdint>
#include <functional>

namespace tf::packed {

// Streams JSON.stringify(unpackRecording(packed)) to `sink` in pieces of about a mebibyte, with the core writer's
// rules (core/json/writer.h), so each byte is what JavaScript would write. A pooled value is written at every place
// that refers to it; nothing of the expansion is kept. The parts must have passed measurePlain (no dangling or
// circular reference, nesting bounded: this recurses once per level of the expansion). `progress` gets the bytes
// written so far and returns false to cancel. Returns false when the sink failed or progress cancelled.
bool writeExpansion(const PackedParts &parts, io::ByteSink &sink,
                    const std::function<bool(std::uint64_t)> &progress = {});

} // namespace tf::packed
