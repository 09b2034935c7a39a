#include "core/text/counted.h"

namespace tf::text {

std::string counted(std::size_t n, std::string_view one, std::string_view many)
{
    return std::to_string(n) + " " + std::string(nounFor(n, one, many));
}

} // namespace tf::text
