#pragma once

#include "conformancereport.h"

#include <ostream>
#include <string>

namespace tf::conformance {

// Runs every case of a findings vector file (shared/conformance/README.md: kinds piece, collapse, served-ids,
// offered-ids, conflict-keys) against core/findings. Prints one block per failed case to `out`: its name, kind and
// line, the field that differs, the first differing UTF-16 offset and an escaped window of expected and actual text
// around it. The caller prints the "N passed, M failed" summary line.
Summary runFindingsVectors(const std::string &path, std::ostream &out);

} // namespace tf::conformance
