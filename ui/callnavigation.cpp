#include "callnavigation.h"

#include "callstatus.h"

namespace tf::ui {

std::optional<std::size_t> jumpTarget(const std::vector<recording::CallSummary> &calls, std::size_t from, Jump jump)
{
    bool forward = true;
    bool (*matches)(const recording::CallSummary &) = nullptr;
    switch (jump) {
    case Jump::PreviousMiss:
        forward = false;
        [[fallthrough]];
    case Jump::NextMiss:
        matches = [](const recording::CallSummary &c) { return isCacheMiss(c); };
        break;
    case Jump::PreviousLedgerChange:
        forward = false;
        [[fallthrough]];
    case Jump::NextLedgerChange:
        matches = [](const recording::CallSummary &c) { return c.ledgerChanged; };
        break;
    case Jump::PreviousDamaged:
        forward = false;
        [[fallthrough]];
    case Jump::NextDamaged:
        matches = [](const recording::CallSummary &c) { return c.damaged || c.damagedParts > 0; };
        break;
    }
    if (forward) {
        for (std::size_t i = from + 1; i < calls.size(); ++i)
            if (matches(calls[i]))
                return i;
    } else {
        for (std::size_t i = std::min(from, calls.size()); i-- > 0;)
            if (matches(calls[i]))
                return i;
    }
    return std::nullopt;
}

} // namespace tf::ui
