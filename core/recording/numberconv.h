#pragma once

#include <cmath>
#include <cstddef>
#include <optional>

namespace tf::recording {

// Recorded numbers are doubles from an untrusted file. Converting NaN, an infinity or an out-of-range value to an
// integer type is undefined behaviour in C++, so every epoch, iteration and count goes through these.

// A finite value within int range, truncated toward zero like the plain cast; nullopt otherwise.
inline std::optional<int> toInt(double d)
{
    if (!std::isfinite(d) || d <= -2147483649.0 || d >= 2147483648.0)
        return std::nullopt;
    return int(d);
}

// A non-negative finite value up to 2^53, truncated toward zero; nullopt otherwise (a negative count is no count).
inline std::optional<std::size_t> toCount(double d)
{
    if (!std::isfinite(d) || d < 0 || d > 9007199254740992.0)
        return std::nullopt;
    return std::size_t(d);
}

} // namespace tf::recording
