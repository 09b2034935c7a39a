#pragma once

#include "plainsize.h"

#include "core/io/bytesink.h"
#include "core/io/mappedfile.h"
#include "core/json/parser.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace tf::packed {

// Tracefold reads no deeper JSON (json::ParseLimits::maxDepth); an expansion nested deeper is refused before it is
// written, as its plain form would be.
inline constexpr std::size_t kMaxExpandedDepth = 512;

struct UnpackOptions
{
    std::uint64_t maxPlainBytes = kDefaultMaxPlainBytes;
    // Called as the packed text is parsed, with the byte offset; returning false cancels (the error is "cancelled").
    std::function<bool(std::size_t offset)> parseProgress;
};

// A file's text read as upstream's unpackRecording(JSON.parse(text)) reads it: parsed, detected, checked and
// measured, so the expansion can be written out afterwards as a stream. The packed form is kept as one tree (it is
// what the file holds); the expansion never is.
class Unpacked
{
public:
    // `name` stands for the file in messages. `text` must outlive the result.
    static Unpacked read(std::string_view text, const std::string &name, const UnpackOptions &options = {});

    // The one-line refusal ("<file>: ..."), or empty. "cancelled" when the parse was cancelled.
    const std::string &error() const { return m_error; }
    // A packed recording that can be expanded; false for a plain one (or an error).
    bool packed() const { return m_error.empty() && m_parts.recording; }
    const PlainSize &plainSize() const { return m_size; }
    // Writes the expansion: exactly plainSize().bytes bytes.
    bool write(io::ByteSink &sink, const std::function<bool(std::uint64_t written)> &progress = {}) const;

private:
    std::unique_ptr<json::StringArena> m_arena;
    std::shared_ptr<json::Value> m_root;
    PackedParts m_parts;
    PlainSize m_size;
    std::string m_error;
};

// Stages of expandToMapping, each reported once or more with a fraction of the whole expansion.
struct ExpandControl
{
    std::function<void(double fraction, const std::string &stage)> progress;
    std::function<bool()> cancelled;
    UnpackOptions options;
};

// The expansion of the packed recording `file` holds, as a read-only mapping named like `file`: in memory when it
// is small, else in a scratch file that has no name (io::createScratchFile), so the kernel can page it like the
// file. nullptr with `error` set (one line naming the file) when the file is refused or the expansion fails.
std::shared_ptr<const io::MappedFile> expandToMapping(const io::MappedFile &file, const ExpandControl &control,
                                                      std::string &error);

} // namespace tf::packed
