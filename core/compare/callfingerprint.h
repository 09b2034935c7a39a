#pragma once

#include "callsignature.h"
#include "servedparts.h"

#include "core/recording/run.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tf::compare {

// A tool the response ran, as a comparison matches it: by tool and arguments (the arguments' JSON), with a digest
// of the result the model was served.
struct ToolResultDigest
{
    std::string name;
    std::string args;                    // JSON.stringify of the arguments
    std::optional<std::uint64_t> result; // nullopt: no result on record (never returned, not run)
    bool error = false;
};

// What one call of a run holds for comparing it with a call of another run, in digests: everything a whole-run
// comparison needs without keeping the views of either run. The pair that needs more is rebuilt (pairdiff.h).
struct CallFingerprint
{
    std::size_t turn = 0; // 0-based
    CallSignature signature;
    std::vector<ServedPart> served;            // digests only
    std::optional<std::uint64_t> responseText; // nullopt: no response on record
    std::uint64_t toolCalls = 0;               // the tool calls the response made, names and arguments
    std::vector<ToolResultDigest> toolResults;
    std::optional<std::uint64_t> ledger; // the rows' keys (ledgerRowKey) in order; nullopt: not on record
    recording::CacheVerdict verdict = recording::CacheVerdict::Unmeasured;
};

// The tool runs of a call as ToolResultDigests, and the digest of its response's tool calls: what fingerprints
// hold and what a pair comparison shows in full.
std::vector<ToolResultDigest> toolResultDigests(const recording::CallView &view);
std::uint64_t toolCallsDigest(const recording::CallView &view);
// The tool runs of two calls that ran the same tool with the same arguments, as index pairs (a, b) in A's order; each
// run of B is matched once. Runs that differ are those of a matched pair whose results or error flags differ.
std::vector<std::pair<std::size_t, std::size_t>> matchToolRuns(const std::vector<ToolResultDigest> &a,
                                                               const std::vector<ToolResultDigest> &b);
bool sameResult(const ToolResultDigest &a, const ToolResultDigest &b);

// Every call of `run`, in order, from one pass over its views (recording::visitCallViews) on up to `workers`
// threads; 0 picks the machine's cores.
std::vector<CallFingerprint> fingerprintCalls(const recording::Run &run, std::size_t workers = 0);

} // namespace tf::compare
