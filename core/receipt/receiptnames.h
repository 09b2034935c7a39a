#pragma once

#include <string>
#include <string_view>

// Names a receipt's values take, in older and newer releases alike (spec/upstream-since-9.113.md §3).
namespace tf::receipt {

// cache.strategy: 9.138 renamed the strategies. "breakpoints" places cache_control markers (was "anthropic"),
// "automatic" leaves caching to the provider (was "openai"), "none" is the built-in pass-through (was "*"; read
// from the change note, not confirmed in a file). Both spellings are read alike.
enum class CacheStrategy
{
    Breakpoints,
    Automatic,
    None,
    Other // a name neither release wrote
};
CacheStrategy cacheStrategyOf(std::string_view name);
// The 9.138+ name of a recorded strategy; a name neither release wrote is returned as it is.
std::string currentStrategyName(std::string_view name);

// messages.requestOnly[].reason: the mechanisms that compose a line for one request only. All are handled alike
// (the text is not on record); a reason outside this list is named as unknown.
bool isKnownRequestOnlyReason(std::string_view reason);

} // namespace tf::receipt
