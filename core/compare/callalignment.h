#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace tf::compare {

// One row of two runs lined up: a call of A beside a call of B, or a call one run made and the other did not.
struct AlignedPair
{
    std::optional<std::size_t> a; // 0-based call index in run A; nullopt: a gap in A
    std::optional<std::size_t> b;
    bool operator==(const AlignedPair &) const = default;
};

// A call as the alignment sees it: its turn (0-based) and its signature key (CallSignature::key).
struct AlignmentKey
{
    std::size_t turn = 0;
    std::string signature;
};

// Lines up the calls of two runs, given in call order: turn k of A against turn k of B (a turn one run lacks is all
// gaps), and within a turn the longest common subsequence of signatures (text::diffLines). Between two matched
// calls, a stretch with as many unmatched calls in A as in B is paired in order (the same step, gone another way);
// otherwise its calls are gaps, A's first.
std::vector<AlignedPair> alignCalls(const std::vector<AlignmentKey> &a, const std::vector<AlignmentKey> &b);

} // namespace tf::compare
