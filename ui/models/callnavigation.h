#pragma once

#include "core/recording/callview.h"

#include <optional>
#include <span>
#include <vector>

namespace tf::ui {

// The jumps of the calls list (Go menu): to the next or previous call that is a cache miss, where the ledger
// changed, with a damaged part, that starts a turn, or whose run went wrong (no response, a tool that threw or
// never returned). Wraps around neither end: at the last match there is no "next".
enum class Jump
{
    NextMiss,
    PreviousMiss,
    NextLedgerChange,
    PreviousLedgerChange,
    NextDamaged,
    PreviousDamaged,
    NextTurn,
    PreviousTurn,
    NextProblem,
    PreviousProblem,
};

std::optional<std::size_t> jumpTarget(std::span<const recording::CallSummary> calls, std::size_t from, Jump jump);

} // namespace tf::ui
