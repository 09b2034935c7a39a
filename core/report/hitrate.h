#pragma once

#include "core/recording/callview.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tf::report {

// spec/recording.md §7.5: over measured calls only; unknown (with the reason) rather than a made-up 0%.
struct HitRate
{
    std::optional<double> rate;
    std::size_t measured = 0;
    std::size_t unmeasured = 0;
    std::string reason; // why unknown, when it is
};

HitRate hitRate(std::span<const recording::CallSummary> calls);

} // namespace tf::report
