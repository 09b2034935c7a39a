#pragma once

#include "core/recording/callview.h"

#include <optional>
#include <span>
#include <vector>

namespace tf::report {

// Provider tokens summed over the calls that reported them (llm_end.usage). A crashed or paused run, and every turn
// of a conversation, still has usage on its calls where turn_end's totals are missing or cover the last turn only.
struct TokenTotals
{
    std::optional<double> input, output, cacheRead, cacheWrite; // nullopt: no call reported it
    std::size_t reportingCalls = 0;                             // calls that reported input or output
    std::size_t calls = 0;
    bool partial() const { return reportingCalls < calls; }
};

TokenTotals tokenTotals(std::span<const recording::CallSummary> calls);

} // namespace tf::report
