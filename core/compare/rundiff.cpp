#include "rundiff.h"

#include "callfingerprint.h"
#include "worddiff.h"

#include "core/recording/callview.h"

#include <algorithm>
#include <thread>

namespace tf::compare {

bool RunDiff::same() const
{
    return answersSame && std::all_of(aligned.begin(), aligned.end(), [](const AlignedCall &c) { return c.same; });
}

AlignedCall differingParts(const CallFingerprint &a, const CallFingerprint &b)
{
    AlignedCall call;
    std::vector<std::string> &parts = call.parts;
    ServedContextDiff served = diffServedContext(a.served, b.served);
    for (PartDifference &d : served.differing)
        parts.push_back(std::move(d.name));
    call.notCompared = std::move(served.notCompared);
    call.servedParts = parts.size();
    if (a.responseText != b.responseText)
        parts.emplace_back("response.text");
    if (a.toolCalls != b.toolCalls)
        parts.emplace_back("response.toolCalls");
    for (const auto &[i, j] : matchToolRuns(a.toolResults, b.toolResults))
        if (!sameResult(a.toolResults[i], b.toolResults[j]))
            parts.push_back("toolResults[" + a.toolResults[i].name + "]");
    if (a.ledger != b.ledger)
        parts.emplace_back("ledger");
    if (a.verdict != b.verdict)
        parts.emplace_back("cache.verdict");
    return call;
}

RunDiff compareRuns(const recording::Run &a, const recording::Run &b)
{
    // The two runs are independent: each is fingerprinted on its own share of the cores.
    const std::size_t cores = std::max<std::size_t>(2, recording::wholeRunWorkers());
    std::vector<CallFingerprint> printsB;
    std::thread other([&] { printsB = fingerprintCalls(b, cores / 2); });
    const std::vector<CallFingerprint> printsA = fingerprintCalls(a, cores - cores / 2);
    other.join();

    const auto keysOf = [](const std::vector<CallFingerprint> &prints) {
        std::vector<AlignmentKey> keys;
        keys.reserve(prints.size());
        for (const CallFingerprint &f : prints)
            keys.push_back({f.turn, f.signature.key()});
        return keys;
    };
    RunDiff diff;
    diff.callsA = a.calls.size();
    diff.callsB = b.calls.size();
    for (const CallFingerprint &f : printsA)
        diff.signaturesA.push_back(f.signature);
    for (const CallFingerprint &f : printsB)
        diff.signaturesB.push_back(f.signature);
    for (const AlignedPair &pair : alignCalls(keysOf(printsA), keysOf(printsB))) {
        AlignedCall call;
        if (pair.a && pair.b) {
            call = differingParts(printsA[*pair.a], printsB[*pair.b]);
            call.same = call.servedParts == 0 && call.notCompared.empty();
        }
        call.a = pair.a;
        call.b = pair.b;
        if ((!pair.a || !pair.b || call.servedParts > 0) && !diff.firstDivergence) {
            Divergence &first = diff.firstDivergence.emplace();
            first.a = pair.a;
            first.b = pair.b;
            if (pair.a && pair.b) {
                // The digests said where; the rebuilt pair says at which unit.
                PairDiff &full = diff.firstDivergencePair.emplace(comparePair(a, *pair.a, b, *pair.b));
                if (!full.served.empty()) {
                    first.part = full.served.front().name;
                    first.utf16Offset = full.served.front().utf16Offset;
                }
            }
        }
        diff.aligned.push_back(std::move(call));
    }

    diff.answerA = a.finalAnswer;
    diff.answerB = b.finalAnswer;
    diff.answersSame = diff.answerA == diff.answerB;
    if (diff.answerA && diff.answerB)
        diff.answerWords = wordDiff(*diff.answerA, *diff.answerB);
    diff.outcomeA = a.outcome;
    diff.outcomeB = b.outcome;
    return diff;
}

} // namespace tf::compare
