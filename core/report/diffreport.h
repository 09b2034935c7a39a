#pragma once

#include "core/compare/rundiff.h"
#include "core/json/value.h"
#include "core/recording/run.h"

#include <string>

namespace tf::report {

// `tracefold-cli diff A B --json` (schema 1, documented in the README): {schema, a: {file, calls}, b: {file, calls},
// aligned: [{a, b, same, parts}], firstDivergence: null | {a, b, part, utf16Offset}, answers: {same, a, b},
// outcomes: {a, b}}; call indices are 1-based (null for a gap), outcomes as inspect --json writes them.
json::Value diffJson(const recording::Run &a, const recording::Run &b, const compare::RunDiff &diff);

// `tracefold-cli diff A B`: the first divergence with both sides around it and what else differs at that pair, the
// alignment a row per pair, the answers word by word and the outcomes. Text from the recordings is made printable
// (text::printableLine), so it can neither break a line nor drive the terminal.
std::string diffText(const recording::Run &a, const recording::Run &b, const compare::RunDiff &diff);

// What differs at one aligned pair besides its first differing part, a line each (sub-lines indented two spaces):
// the other served parts that differ, parts on record in one run only, the response, tool calls and results, ledger
// rows, the findings piece, the cache verdict; A is the first run, B the second. Printable (text::printableLine).
std::string pairText(const compare::PairDiff &pair);

} // namespace tf::report
