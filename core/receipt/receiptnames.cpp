#include "receiptnames.h"

#include <array>

namespace tf::receipt {

CacheStrategy cacheStrategyOf(std::string_view name)
{
    if (name == "breakpoints" || name == "anthropic")
        return CacheStrategy::Breakpoints;
    if (name == "automatic" || name == "openai")
        return CacheStrategy::Automatic;
    if (name == "none" || name == "*")
        return CacheStrategy::None;
    return CacheStrategy::Other;
}

std::string currentStrategyName(std::string_view name)
{
    switch (cacheStrategyOf(name)) {
    case CacheStrategy::Breakpoints:
        return "breakpoints";
    case CacheStrategy::Automatic:
        return "automatic";
    case CacheStrategy::None:
        return "none";
    case CacheStrategy::Other:
        break;
    }
    return std::string(name);
}

bool isKnownRequestOnlyReason(std::string_view reason)
{
    // staged-refs-nudge (9.113); time-window-line and evidence-conclusion (later, spec/upstream-since-9.113.md §3).
    static constexpr std::array<std::string_view, 3> kKnown = {"staged-refs-nudge", "time-window-line",
                                                               "evidence-conclusion"};
    for (const std::string_view known : kKnown)
        if (reason == known)
            return true;
    return false;
}

} // namespace tf::receipt
