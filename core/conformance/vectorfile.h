#pragma once

#include "conformancereport.h"

#include "core/json/value.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace tf::conformance {

// Walks a JSONL vector file: one case object per non-blank line. A line that does not parse as exactly one object
// is a failed case ("FAIL line N: ..."); every other case goes to `runCase`, with the line it was parsed from (the
// text its containers' source offsets point into) and its number, and returns whether it passed (printing its own
// failure). The summary counts both.
// An unreadable file sets Summary::error to "<path>: cannot open: <reason>".
Summary runVectorFile(
    const std::string &path, std::ostream &out,
    const std::function<bool(const json::Value &testCase, std::string_view line, std::size_t lineNo)> &runCase);

} // namespace tf::conformance
