#pragma once

#include "conformancereport.h"

#include <ostream>
#include <string>

namespace tf::conformance {

// Runs commitlog-vectors.jsonl (conformance/README.md "Commit-log fold vectors"): folds each case's `commitLog`
// from its `initialState`, compares the state after every row with `states[i]` (objects unordered, numbers by
// value) and the non-bundle rows with `skipped`. Prints one block per failed case to `out`; the caller prints the
// totals.
Summary runCommitLogVectors(const std::string &path, std::ostream &out);

} // namespace tf::conformance
