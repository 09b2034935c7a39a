#pragma once

#include <cstddef>
#include <string>

namespace tf::conformance {

// Outcome of running one vector file. `error` is set (and the counts are meaningless) when the file itself could
// not be read; a case that fails to parse counts as a failed case, not as a file error.
struct Summary
{
    std::size_t passed = 0;
    std::size_t failed = 0;
    std::string error;
};

} // namespace tf::conformance
