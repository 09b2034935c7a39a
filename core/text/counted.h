#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tf::text {

// The noun that agrees with a count: "1 call", "80 calls". The caller names both forms, so "1 entry" / "2 entries"
// needs no spelling rule. (The GUI's "%n call(s)" strings go through ui::EnglishPlurals, over tr().)
constexpr std::string_view nounFor(std::size_t n, std::string_view one, std::string_view many)
{
    return n == 1 ? one : many;
}

// "80 calls", the digits as std::to_string writes them (the HTML report groups them: report::counted).
std::string counted(std::size_t n, std::string_view one, std::string_view many);

} // namespace tf::text
