#pragma once

// The commit-log fold: rebuilds the state of a footprintjs run after each commit, exactly as footprintjs 9.24.0's
// `stateAt` does (conformance/README.md "Commit-log fold vectors" is normative; spec/recording.md §3.3-§3.6).

#include "core/json/value.h"

#include <cstddef>
#include <string_view>
#include <vector>

namespace tf::recording {

// Is this row a bundle (README step 1)? An object whose `runtimeStageId` is a string and `trace` an array, with
// `overwrite` and `updates` each absent or an object. Anything else is skipped by the fold and keeps its index.
bool isCommitBundle(const json::Value &row);

// Split a trace path on U+001F. A dot is an ordinary character, and "" is one empty segment.
std::vector<std::string_view> splitStatePath(std::string_view path);

// `constructor`, `prototype` and `__proto__` are refused as path segments everywhere (reads give "missing",
// writes and deletes through them do nothing). As data keys inside values they are ordinary.
bool isRefusedSegment(std::string_view segment);

// A trace path of more segments is not applied (the entry changes nothing and is counted, see refusedPathCount()):
// writing it would build a state deeper than any JSON Tracefold reads (ParseLimits::maxDepth), and a hostile path of
// a million segments would overflow the stack of whatever walks or frees that state.
inline constexpr std::size_t kMaxPathSegments = 512;

// Reads the value at `segments` (an array is entered by canonical decimal index). Returns nullptr for missing:
// a parent that is not an object or array, a member that is not there, or a refused segment.
const json::Value *readStatePath(const json::Value &root, const std::vector<std::string_view> &segments);

// One entry of a bundle's trace: its path (U+001F-separated) and its verb as written ("" when it has none).
struct TraceEntry
{
    std::string_view path;
    std::string_view verb;
};

// The trace entries of a bundle in order; an entry without a string path is left out (it changes nothing).
std::vector<TraceEntry> traceEntries(const json::Value &bundle);

class CommitLogFold
{
public:
    // nullptr or a non-object base starts the fold from {} (the "log-only" basis, spec §3.8).
    explicit CommitLogFold(const json::Value *initialState);

    // Applies one row; returns false (state unchanged) when the row is not a bundle. The cost is about the size of
    // what the row writes: the state's nodes are shared copy-on-write, so nothing else is copied.
    bool apply(const json::Value &row);

    // Applies the entries of one bundle whose overwrite and updates trees are these (nullptr: absent), as apply()
    // does with a bundle's trace. Entries read and write only below their own first segment, so a bundle may also
    // be applied one root key at a time (StateJournal rebuilds a key so), each key's entries as one row.
    void applyEntries(const std::vector<TraceEntry> &entries, const json::Value *overwrite, const json::Value *updates);

    // Resumes from a state rebuilt elsewhere (a StateJournal), as if the fold had reached it.
    void resetState(json::Value state) { m_state = std::move(state); }

    // Cheap to copy (shared nodes): callers snapshot it per step. A copy never sees later rows.
    const json::Value &state() const { return m_state; }

    // Trace entries applied as a merge whose verb was not set/append/merge/delete (a viewer may flag the row).
    std::size_t unknownVerbCount() const { return m_unknownVerbs; }
    // Trace entries not applied because their path has more than kMaxPathSegments segments.
    std::size_t refusedPathCount() const { return m_refusedPaths; }

private:
    json::Value m_state;
    std::size_t m_unknownVerbs = 0;
    std::size_t m_refusedPaths = 0;
};

} // namespace tf::recording
