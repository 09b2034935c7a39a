#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace tf::recording {

// One turn of a conversation (spec/runs.md §1): the k-th turn_start in event order, or, where a recording has no
// turn_start, the k-th run id. A resumed run continues the turn it was paused in.
struct Turn
{
    std::size_t number = 1;                 // 1-based
    std::string runId;                      // the run id the turn started under; empty when not on record
    std::optional<std::string> userPrompt;  // turn_start.userPrompt
    std::optional<std::string> finalAnswer; // turn_end.finalContent; nullopt: the turn did not end on record
    bool ended = false;                     // a turn_end is on record
    std::vector<std::size_t> calls;         // 0-based call indices, in order
};

// How the run ended (spec/runs.md §4).
enum class OutcomeStatus
{
    Completed,
    Failed,
    Paused,
    Incomplete
};
const char *outcomeStatusId(OutcomeStatus status); // "completed", "failed", "paused", "incomplete"

struct RunOutcome
{
    OutcomeStatus status = OutcomeStatus::Incomplete;
    std::optional<std::string> message; // the fatal error, the question asked, or what is last on record
    std::optional<std::size_t> call;    // 0-based: the call that failed, or whose tool asked; nullopt: the run
    std::optional<std::size_t> event;   // the event that says so
};

// A limit the run hit, or pressure it came under, as recorded (spec/runs.md §4). The two limit events of one stop
// can disagree on the action; both are kept as recorded.
struct RunLimit
{
    std::string kind;    // "budget_exhausted" | "cost.limit_hit" | "context.budget_pressure" | "wrap-up"
    std::string message; // one line from the payload, e.g. "max-iterations: limit 3, 1 pending tool call, wrapped-up"
    std::optional<std::size_t> call; // 0-based: where it happened (budget pressure: the call it came before)
    std::size_t event = 0;
};

} // namespace tf::recording
