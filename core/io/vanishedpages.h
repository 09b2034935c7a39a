#pragma once

#include <cstddef>

// A file mapped read-only can lose bytes under the reader: truncated in place (logrotate's copytruncate, an agent
// re-run writing `> run.ndjson`), the pages past the new end raise SIGBUS on the next read, which kills the process.
// Registered mappings are guarded instead: a process-wide SIGBUS handler maps anonymous zero pages over the vanished
// range of the mapping the fault lies in and marks that mapping; the read then sees zeros, which no parser accepts
// as a recording, and the caller asks MappedFile::changedOnDisk before it trusts what it read. Reads stay plain
// memory reads: the guard costs nothing until a page vanishes.
//
// The handler is installed once, on the first registration, and chains to the handler it replaced (a sanitizer's,
// a test runner's crash reporter, or the default action) for every fault that is not a registered mapping's.
namespace tf::io::vanishedpages {

// How many mappings can be guarded at once (a fixed table, so the handler reads it without locks or allocation).
inline constexpr std::size_t kMaxGuarded = 1024;

// Guards [begin, begin + length). Returns the slot to pass to the other calls, or -1 when the table is full.
// Thread-safe.
int guard(const void *begin, std::size_t length);
// Stops guarding; must happen before the mapping is unmapped. Thread-safe.
void release(int slot);
// Whether a read of the slot's mapping faulted on a vanished page (and now reads zeros there). An atomic load.
bool vanished(int slot);

} // namespace tf::io::vanishedpages
