#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace tf::json {

// Where the members of a document's first levels begin, found without parsing it: strings are stepped over with
// memchr, containers by their brackets, nothing is validated or built (the full parse does that). A 390 MB recording
// is crossed in about 0.3 s where parsing it takes seconds, so a reader can go straight to its event list and commit
// log while the whole file is still being indexed.
//
// Calls `found(path, offset)` for each member value reached through objects only, at most `maxDepth` members deep
// (the path holds the member names from the root, as written, escapes undecoded; its views are valid during the call
// only), with the offset of the value's first byte; stops when `found` returns false or the root value ends.
// `rootOffset` is the root's '{'. `passed(offset)`, when given, is called every 2 MB of text crossed (a mapped file's
// reader lets go of the pages behind it, io::PassedPages: a skim must not make a gigabyte file resident); returning
// false stops the skim (its reader no longer wants it: a thread is asked to end).
void skimMembers(std::string_view text, std::size_t rootOffset, std::size_t maxDepth,
                 const std::function<bool(const std::vector<std::string_view> &path, std::size_t offset)> &found,
                 const std::function<bool(std::size_t offset)> &passed = {});

// The same skim of a file of `size` bytes read through a buffer, kSkimChunkBytes at a time with pread, instead of
// through a mapping of it. On a virtual machine, mapping a file's cached pages in costs several times copying them
// out (the 1.5 GB bench file, 2026-12-06: every page of a mapping touched 0.78-0.96 s, the file read 0.27 s), and
// nothing of the file becomes resident in the process. A member name longer than a chunk ends the skim there (no
// recording has one).
inline constexpr std::size_t kSkimChunkBytes = 1u << 20;
void skimMembersOfFile(int fd, std::size_t size, std::size_t rootOffset, std::size_t maxDepth,
                       const std::function<bool(const std::vector<std::string_view> &path, std::size_t offset)> &found,
                       std::size_t chunkBytes = kSkimChunkBytes,
                       const std::function<bool(std::size_t offset)> &passed = {});

} // namespace tf::json
