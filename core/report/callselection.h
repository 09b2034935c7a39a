#pragma once

#include "backtrack.h"

#include "core/recording/callview.h"
#include "core/recording/runstory.h"

#include <cstddef>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace tf::report {

// How many calls a report shows in full. All: every call has its section (the HTML report's default: a browser
// scrolls and searches). Relevant: only the calls that matter (selectCalls) have a section; every other call is its
// one timeline row (the PDF's default: a reviewer reads it page by page).
enum class ReportDetail
{
    All,
    Relevant
};
const char *reportDetailId(ReportDetail detail); // "all", "relevant"

// Why a call matters, as bits: a call may matter for several reasons at once.
enum DetailReason : unsigned
{
    FirstCall = 1u << 0,
    LastCall = 1u << 1,
    NoResponse = 1u << 2,        // an llm_start with no llm_end
    ToolThrew = 1u << 3,         // a tool run for its response threw
    ToolNeverReturned = 1u << 4, // a tool run started and never ended
    Damaged = 1u << 5,           // a rebuilt part disagrees with its receipt hash
    RunStopped = 1u << 6,        // the run failed, paused or stops on record here (RunOutcome::call)
    LimitHit = 1u << 7,          // a limit or budget pressure recorded here (RunLimit::call)
    Problem = 1u << 8,           // named by a problem list handed in (CallMarks::problems)
    Bookmarked = 1u << 9,
    Noted = 1u << 10,
    Answer = 1u << 11,       // its output is the final answer (Backtrack::finalOrdinal)
    AnswerSource = 1u << 12, // a result the answer rests on entered the context here
    Divergence = 1u << 13,   // where this run went apart from a baseline (CallMarks::divergences)
};
inline constexpr unsigned kProblemReasons =
    NoResponse | ToolThrew | ToolNeverReturned | Damaged | RunStopped | LimitHit | Problem;

// What the reviewer and other analyses marked, by 0-based call ordinal. Ordinals past the run are ignored.
struct CallMarks
{
    std::set<std::size_t> bookmarks;
    std::set<std::size_t> notes;
    std::set<std::size_t> problems;    // e.g. the calls an audit found problems at
    std::set<std::size_t> divergences; // e.g. where a comparison with a baseline found the runs apart
};

// Which calls a report details, and why each one matters.
struct CallSelection
{
    ReportDetail detail = ReportDetail::All;
    std::vector<unsigned> reasons; // per call: DetailReason bits; 0: the call does not matter on its own

    std::size_t callCount() const { return reasons.size(); }
    bool detailed(std::size_t ordinal) const;
    std::vector<std::size_t> detailedCalls() const;
};

// The calls that matter: the first and the last call; every call with a problem on record (no response, a tool that
// threw or never returned, a damaged receipt part, where the run stopped or hit a limit, or one `marks.problems`
// names); the calls the reviewer bookmarked or wrote notes on; the answer's call (when the run has an answer) and the
// calls where the results it rests on (its fact sources and its contingent carriers) entered the context;
// `marks.divergences`. `calls` is
// summarizeCalls(run). With ReportDetail::All every call is detailed, and the reasons are still given.
CallSelection selectCalls(std::span<const recording::CallSummary> calls, const recording::RunOutcome &outcome,
                          const std::vector<recording::RunLimit> &limits, const Backtrack &backtrack,
                          const CallMarks &marks, ReportDetail detail);

// The reasons in words, most serious first: "no response", "a tool threw", …, "the first call".
std::vector<std::string> detailReasonNames(unsigned reasons);

} // namespace tf::report
