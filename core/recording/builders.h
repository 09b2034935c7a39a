#pragma once

#include "loaderror.h"
#include "recordingloader.h"
#include "run.h"

#include <cstdint>
#include <string>
#include <unordered_set>

namespace tf::recording::detail {

// Stages of the loader, each filling part of the Run. Internal to core/recording.

// A member path as the loader names it (the lists it streams, detail::ListReadAhead's): the names from the root
// joined with '/'.
template <class Names>
std::string joinedPath(const Names &names)
{
    std::string out;
    for (const auto &name : names)
        out.append(out.empty() ? "" : "/").append(name);
    return out;
}

// The items of an event list as the parser hands them over one at a time (the list is never built whole): what the
// Run keeps of each, and the first item that is not an event, to be reported if the file turns out to be one whose
// events are read.
class EventCollector
{
public:
    explicit EventCollector(Run &run)
        : m_arena(*run.arena)
    {
    }
    // Keeps its strings in `arena` instead of the run's (a list read on another thread, detail::ListReadAhead).
    explicit EventCollector(json::StringArena &arena)
        : m_arena(arena)
    {
    }
    // `raw` was parsed from the run's file (its containers carry their offsets) and may be dropped afterwards.
    void add(const json::Value &raw);
    // Adds what `later` collected, as if its items had come here after these (a list read on another thread; a
    // second list at the same path, which the parse streams too); the arena its strings are in must be made to live as
    // long as this one's (json::StringArena::adopt).
    void append(EventCollector &&later);

    EventList events;
    std::optional<std::size_t> firstBadIndex;
    json::Value firstBad;

private:
    std::string_view keep(std::string_view s, bool intern);

    json::StringArena &m_arena;
    std::size_t m_count = 0;
    std::unordered_set<std::string_view> m_interned;
};

// Takes the collected events as the run's (shape A, B, D, E): refuses the list at its first bad item, keeps only the
// run asked for by id (LoadControl::runId). What they say of the run is read by readEventFacts or indexEventRun.
void indexEvents(Run &run, EventCollector &collected, const LoadErrors &errors, const std::vector<json::PathStep> &at,
                 const LoadControl &control);

// The run ids, mode, model, totals and final answer the events say (EventFacts), for a run whose calls come from
// elsewhere than its events alone.
void readEventFacts(Run &run);

// The rows of one commit log: the items of an array in memory, or those of an array the parser streamed, read
// again from the file one at a time.
class LogRows
{
public:
    static LogRows inMemory(const json::Value &array);
    // `ends`: where the text's long strings end (Run::stringEnds), or null.
    static LogRows streamed(std::string_view text, std::vector<std::uint64_t> offsets,
                            const json::StringEnds *ends = nullptr);
    std::size_t size() const { return m_array ? m_array->size() : m_offsets.size(); }
    json::Value at(std::size_t i) const;
    // Row i as the loader's fold reads it: the values the row writes are built one level deep (each state key's value
    // and its items; anything below reads as empty, its offset kept). That fold only says which keys the state holds
    // and their scalars, and a StateJournal rebuilds anything deeper from the text; building the rest (a windowed
    // history rewritten at every call) was most of a load's time. Rows in memory are whole.
    json::Value foldRowAt(std::size_t i) const;
    // Where row i begins in the text (0 for rows in memory).
    std::size_t offsetOf(std::size_t i) const { return m_array ? 0 : std::size_t(m_offsets[i]); }

private:
    const json::Value *m_array = nullptr;
    std::string_view m_text;
    std::vector<std::uint64_t> m_offsets;
    const json::StringEnds *m_ends = nullptr;
};

// Calls from a foldable commit log (A/B with snapshot, C), spec/recording.md §5.1–§5.2.
void buildCallsFromCommitLog(Run &run, const LogRows &commitLog, const json::Value *initialState,
                             const json::Value *subflowResults, const LoadControl &control);

// Calls from events only (A without snapshot, E), §5.9.
void buildCallsFromEvents(Run &run);

// After buildCallsFromCommitLog: the calls of the runs the snapshot does not cover, from their events, and every
// call in event order (spec/runs.md §1).
void addCallsOfOtherRuns(Run &run);

// A call the snapshot gave (no run id of its own) belongs to the last run (spec/runs.md §1). Returns that run id.
std::string_view assignSnapshotRun(Run &run);

// Turns, the outcome, the limits hit, each call's turn, and the tool-result index (spec/runs.md); after attachEvents.
void buildRunStory(Run &run);

// Calls from a boundary-capture fixture (D): events plus the slot subflows' own logs, §5.9.
void buildCallsFromBoundaryCapture(Run &run, const json::Value &subflowResults, const json::Value &finalState);

// Pairs llm_start/llm_end, route and tool events with calls by runtimeStageId or iteration.
void attachEvents(Run &run);

// The run's story (buildRunStory), then checkRun.
void finishRun(Run &run);
// Run-level gaps and warnings that depend on the whole file (truncated head, several runs, ...), and the calls that
// share an epoch.
void checkRun(Run &run);

// Everything a run whose calls come from its events alone holds besides the events (EventRunIndex): the events'
// facts, the calls, their events, the story, the checks.
void indexEventRun(Run &run);

} // namespace tf::recording::detail
