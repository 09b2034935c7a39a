#pragma once

#include "run.h"

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace tf::recording {

// Progress and cancellation for a load running off the GUI thread (plain callbacks; no Qt in core).
struct LoadControl
{
    // fraction in [0, 1] and a short message ("Parsing", "Folding commit log", ...). Called from the loading thread.
    std::function<void(double fraction, const std::string &message)> progress;
    const std::atomic<bool> *cancel = nullptr;
    // NDJSON files can hold several runs; empty picks the first.
    std::string runId;
    // Files of at least this many bytes have the later of their two big lists (events, commit log) read on a second
    // thread while the parse reads the rest; unset: 8 MB, or the environment's TRACEFOLD_READ_AHEAD_BYTES.
    std::optional<std::size_t> readAheadFromBytes;

    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
    void report(double fraction, const std::string &message) const
    {
        if (progress)
            progress(fraction, message);
    }
};

struct LoadResult
{
    std::shared_ptr<const Run> run;
    // One line naming the file, the position and what was expected (spec/recording.md §1.8). Empty on success.
    std::string error;
    bool cancelled = false;
    // The file changed on disk while it was read (io::MappedFile::changedOnDisk): `error` says how.
    bool changedOnDisk = false;
};

// A recording with more LLM calls is refused (README "Limits on hostile input").
inline constexpr std::size_t kMaxCalls = 100'000;

// Opens `path` read-only, detects its shape (§1.2) and builds the call index. Never writes to the file.
LoadResult loadRecording(const std::string &path, const LoadControl &control = {});
// The same over bytes already in memory; `name` stands for the file in messages.
LoadResult loadRecordingFromBytes(std::string bytes, const std::string &name, const LoadControl &control = {});

} // namespace tf::recording
