#pragma once

#include "callview.h"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tf::recording {

// One stretch of wall-clock time on the run timeline: a turn, an iteration, an LLM call's latency, a tool run, or
// the time a run stood paused. Times are milliseconds since the run's first timestamped event (meta.wallClockMs).
struct TimelineSpan
{
    double startMs = 0, endMs = 0;
    // False when no event on record says when it ended (a call with no llm_end, a tool with no tool_end, a turn with
    // no turn_end, a pause never resumed): it is then drawn to the last timestamped event that still belongs to it,
    // which is not a measured end.
    bool endOnRecord = true;
    std::optional<std::size_t> call;                 // 0-based; nullopt for turns and pauses
    std::size_t turn = 0;                            // 0-based index into Run::turns
    std::optional<int> iteration;                    // llm_start.iteration, when a number
    std::string_view toolId;                         // tool runs; borrowed from the run, as Event's are
    std::string toolName;                            // tool runs
    std::size_t lane = 0;                            // tool runs: the row among overlapping (parallel) tools
    bool error = false;                              // a tool that threw (tool_end.error); a call the run failed at
    CacheVerdict verdict = CacheVerdict::Unmeasured; // calls: the provider's cache verdict (CallSummary)
    // The largest end of this span and every span before it in its list: lists are ordered by start, and this
    // makes "which spans reach into [from, to]" a binary search however the spans overlap (spansIn).
    double maxEndMs = 0;
};

// A moment on the timeline: where a pause was asked or resumed, a limit hit, the run failed.
struct TimelineMarker
{
    enum class Kind
    {
        Pause,
        Resume,
        Limit,
        Failure
    };
    Kind kind = Kind::Limit;
    double atMs = 0;
    std::optional<std::size_t> call; // 0-based: the call it belongs to, when one does
    std::string label;               // one line, from the record ("max-iterations: limit 3, ...")
};
const char *timelineMarkerKindId(TimelineMarker::Kind kind); // "pause", "resume", "limit", "failure"

// The run on its wall-clock axis (the Timeline dock; spec/recording.md §2 meta.wallClockMs). Only what is on record
// is placed: an event without a timestamp places nothing, and is counted instead so the view can say so.
struct TimelineView
{
    bool timed = false;           // some event carries meta.wallClockMs
    double originWallClockMs = 0; // the first timestamp on record; every time below is relative to it
    double endMs = 0;             // the last timestamp on record
    std::vector<TimelineSpan> turns, iterations, calls, tools, pauses; // each ordered by start
    std::vector<TimelineMarker> markers;                               // ordered by time
    std::size_t toolLanes = 0;    // rows the tool runs need (parallel tools overlap)
    std::size_t untimedCalls = 0; // calls whose llm_start has no timestamp: not placed
    std::size_t untimedTools = 0; // tool runs whose tool_start has no timestamp: not placed
    std::size_t openSpans = 0;    // spans whose end is not on record (TimelineSpan::endOnRecord)
};

// `summaries` (summarizeCalls) give the calls' cache verdicts and the tools' names; empty: verdicts unmeasured and
// tools unnamed. Linear in the run's events.
TimelineView timelineView(const Run &run, std::span<const CallSummary> summaries);

// The half-open index range [first, last) of `spans` that may reach into [fromMs, toMs]: everything outside it
// certainly does not (spans wholly inside one pixel are the painter's business).
std::pair<std::size_t, std::size_t> spansIn(const std::vector<TimelineSpan> &spans, double fromMs, double toMs);

// The span of `spans` nearest `atMs` within `slackMs` (one covering it when any; the later one on a tie).
std::optional<std::size_t> spanAt(const std::vector<TimelineSpan> &spans, double atMs, double slackMs = 0);

} // namespace tf::recording
