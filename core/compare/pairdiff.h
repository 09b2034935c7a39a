#pragma once

#include "ledgerdiff.h"
#include "servedcontextdiff.h"

#include "core/recording/run.h"
#include "core/text/linediff.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace tf::compare {

// A tool run with the same tool and arguments in both calls whose results differ.
struct ToolResultDifference
{
    std::string name;
    std::string args;                // JSON.stringify of the arguments
    std::optional<std::string> a, b; // the results the model was served; nullopt: not on record
    bool errorA = false, errorB = false;
    std::optional<std::size_t> utf16Offset; // where the results first differ, when both are on record
};

// Everything that differs between call `a` of one run and call `b` of another, rebuilt from both runs: what each
// was served (the parts that differ, with the first differing UTF-16 offset in each), what each answered, the tools
// it ran, its ledger and findings piece, its cache verdict. Text is WTF-8 from the recordings, never escaped here.
struct PairDiff
{
    std::size_t a = 0, b = 0;             // 0-based call indices
    bool callInA = true, callInB = true;  // false: that run made no call here (compareWithNoCall)
    std::vector<PartDifference> served;   // the parts that differ
    std::vector<std::string> notCompared; // on record in one call only
    // The bytes of the first differing part on each side (empty when that side lacks it), for a surface that shows
    // where the two went apart.
    std::string firstPartA, firstPartB;
    // The bytes of every differing part on each side, one entry per entry of `served` (empty: that side lacks it).
    struct PartBytes
    {
        std::string a, b;
    };
    std::vector<PartBytes> servedBytes;

    bool responseOnRecordA = false, responseOnRecordB = false;
    std::string responseTextA, responseTextB;
    std::optional<std::size_t> responseTextOffset;   // nullopt: the texts are equal
    std::vector<std::string> toolCallsA, toolCallsB; // "name args-JSON", in the response's order
    bool toolCallsSame = true;
    std::vector<ToolResultDifference> toolResults;

    LedgerDifference ledger;
    bool pieceOnRecordA = false, pieceOnRecordB = false;
    std::vector<text::DiffLine> pieceLines; // A's findings piece to B's, line by line
    recording::CacheVerdict verdictA = recording::CacheVerdict::Unmeasured;
    recording::CacheVerdict verdictB = recording::CacheVerdict::Unmeasured;

    bool servedSame() const { return served.empty() && notCompared.empty(); }
};

PairDiff comparePair(const recording::Run &runA, std::size_t a, const recording::Run &runB, std::size_t b);
// A call one run made beside the gap in the other (an aligned row with one call): everything the call was sent,
// answered and filed is in its run only. `callIsA`: the call is run A's.
PairDiff compareWithNoCall(const recording::Run &run, std::size_t call, bool callIsA);

} // namespace tf::compare
