#pragma once

#include "core/json/value.h"
#include "core/recording/callview.h"
#include "core/recording/run.h"

#include <span>
#include <string>
#include <vector>

namespace tf::report {

// `tracefold-cli inspect FILE`: one row per call, aligned for a terminal. Untrusted text never appears in it.
std::string inspectTable(const recording::Run &run, std::span<const recording::CallSummary> calls);

// `tracefold-cli inspect FILE --json`: the stable document the README documents (schema version 1).
json::Value inspectJson(const recording::Run &run, std::span<const recording::CallSummary> calls);
// The same document, pretty-printed as json::prettyPrint would, printed a call at a time on `workers` threads (0: one
// a core): a run of 100,000 calls is never one tree in memory. Ends with a newline.
std::string inspectJsonText(const recording::Run &run, std::span<const recording::CallSummary> calls,
                            std::size_t workers = 0);
// The same text in pieces, in order (their concatenation is inspectJsonText): a writer prints them one after the other
// instead of joining tens of megabytes first.
std::vector<std::string> inspectJsonPieces(const recording::Run &run, std::span<const recording::CallSummary> calls,
                                           std::size_t workers = 0);

// One call of inspect --json's "calls" (what `follow --json` prints per line), and the same call as one terminal line
// with inspect's cells (what `follow` prints).
json::Value inspectCallJson(const recording::CallSummary &call);
std::string inspectCallLine(const recording::CallSummary &call);

// How a run ended, as inspect --json writes it ({status, message, call}; call 1-based or null) and as one terminal
// line ("failed at call 3: …", the message made printable). Shared by the commands that report a run's outcome.
json::Value outcomeJson(const recording::RunOutcome &outcome);
std::string outcomeText(const recording::RunOutcome &outcome);

} // namespace tf::report
