#pragma once

#include <charconv>
#include <cstddef>
#include <cstdlib>
#include <cstring>

namespace tf::io {

// A byte count a test run may set through the environment (the suite runs some tests again with a threshold of 0):
// the variable's value when it is a number, else `fallback`. Read once by each caller, which keeps it.
inline std::size_t sizeFromEnvironment(const char *name, std::size_t fallback)
{
    std::size_t value = fallback;
    if (const char *env = std::getenv(name); env && *env)
        std::from_chars(env, env + std::strlen(env), value);
    return value;
}

} // namespace tf::io
