#pragma once

#include "callalignment.h"
#include "callfingerprint.h"
#include "pairdiff.h"

#include "core/recording/run.h"
#include "core/text/linediff.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace tf::compare {

// One row of the alignment with what differs there.
struct AlignedCall
{
    std::optional<std::size_t> a, b; // 0-based call indices; nullopt: a call the other run made and this one did not
    // Both calls are there and were served the same bytes, every part on record in both (or in neither).
    bool same = false;
    // What differs, by name: the served parts (as the receipt names them, in its order), then "response.text",
    // "response.toolCalls", "toolResults[NAME]" (same tool and arguments, another result), "ledger" and
    // "cache.verdict". Empty for a gap.
    std::vector<std::string> parts;
    std::size_t servedParts = 0; // how many of `parts` are served parts (they come first)
    // Served parts on record in one call only: nothing proves them equal or different, so the pair is not `same`,
    // and it is no divergence either.
    std::vector<std::string> notCompared;
};

// Where the runs first went apart: the first aligned pair whose served context differs, or the first call one run
// made and the other did not. A pair whose differences are only parts one recording lacks is not one.
struct Divergence
{
    std::optional<std::size_t> a, b;
    std::optional<std::string> part;        // nullopt for a gap
    std::optional<std::size_t> utf16Offset; // the first differing UTF-16 unit in that part (0: in one call only)
};

struct RunDiff
{
    std::size_t callsA = 0, callsB = 0;
    std::vector<AlignedCall> aligned;
    // Every call's signature, in call order: what a surface shows of a call beside its counterpart.
    std::vector<CallSignature> signaturesA, signaturesB;
    std::optional<Divergence> firstDivergence;
    std::optional<PairDiff> firstDivergencePair; // the pair in full, when both calls are there
    std::optional<std::string> answerA, answerB; // the final answers on record
    bool answersSame = true;
    std::vector<text::DiffLine> answerWords; // A's answer to B's, word by word (when both are on record)
    recording::RunOutcome outcomeA, outcomeB;

    // Every aligned call is there in both runs and was served the same, and the answers agree.
    bool same() const;
};

// Compares run A with run B (issue 19): fingerprints both runs' calls at once (each on half the machine's threads),
// lines the calls up by turn and signature, and rebuilds the first divergent pair in full.
RunDiff compareRuns(const recording::Run &a, const recording::Run &b);

// What differs between two fingerprinted calls (AlignedCall::parts, servedParts and notCompared; a, b and same are
// left to the caller).
AlignedCall differingParts(const CallFingerprint &a, const CallFingerprint &b);

} // namespace tf::compare
