#include "ui/models/callnavigation.h"

#include "ui/models/callstatus.h"

#include <functional>

namespace tf::ui {

std::optional<std::size_t> jumpTarget(std::span<const recording::CallSummary> calls, std::size_t from, Jump jump)
{
    bool forward = true;
    std::function<bool(std::size_t)> matches;
    const auto each = [&calls](bool (*test)(const recording::CallSummary &)) {
        return [&calls, test](std::size_t i) { return test(calls[i]); };
    };
    switch (jump) {
    case Jump::PreviousMiss:
        forward = false;
        [[fallthrough]];
    case Jump::NextMiss:
        matches = each([](const recording::CallSummary &c) { return isCacheMiss(c); });
        break;
    case Jump::PreviousLedgerChange:
        forward = false;
        [[fallthrough]];
    case Jump::NextLedgerChange:
        matches = each([](const recording::CallSummary &c) { return c.ledgerChanged; });
        break;
    case Jump::PreviousDamaged:
        forward = false;
        [[fallthrough]];
    case Jump::NextDamaged:
        matches = each([](const recording::CallSummary &c) { return c.damaged || c.damagedParts > 0; });
        break;
    case Jump::PreviousTurn:
        forward = false;
        [[fallthrough]];
    case Jump::NextTurn:
        // The first call of a turn; backwards from inside a turn, its own first call comes first.
        matches = [&calls](std::size_t i) { return i == 0 || calls[i - 1].turn != calls[i].turn; };
        break;
    case Jump::PreviousProblem:
        forward = false;
        [[fallthrough]];
    case Jump::NextProblem:
        matches = each([](const recording::CallSummary &c) {
            if (!c.response || c.anyToolError())
                return true;
            for (const auto &t : c.toolResults)
                if (!t.returned)
                    return true;
            return false;
        });
        break;
    }
    if (forward) {
        for (std::size_t i = from + 1; i < calls.size(); ++i)
            if (matches(i))
                return i;
    } else {
        for (std::size_t i = std::min(from, calls.size()); i-- > 0;)
            if (matches(i))
                return i;
    }
    return std::nullopt;
}

} // namespace tf::ui
