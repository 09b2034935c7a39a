#include "pairdiff.h"

#include "callfingerprint.h"

#include "core/findings/piecediff.h"
#include "core/json/writer.h"
#include "core/recording/callview.h"

namespace tf::compare {

namespace {

std::vector<std::string> toolCallLines(const recording::CallView &view)
{
    std::vector<std::string> out;
    if (view.response)
        for (const recording::ToolCallRequest &c : view.response->toolCalls)
            out.push_back(c.name + " " + json::stringify(c.args));
    return out;
}

const std::string *bytesOf(const std::vector<ServedPart> &parts, const std::string &name)
{
    for (const ServedPart &p : parts)
        if (p.name == name && p.bytes)
            return &*p.bytes;
    return nullptr;
}

// Two calls compared; a missing call (nullptr) is compared as a call that was sent, answered and filed nothing.
PairDiff compareViews(const recording::CallView *viewA, const recording::CallView *viewB)
{
    static const recording::CallView none{};
    const auto &vA = viewA ? *viewA : none;
    const auto &vB = viewB ? *viewB : none;
    PairDiff d;
    d.callInA = viewA != nullptr;
    d.callInB = viewB != nullptr;

    ServedPartReader readerA(ServedPartReader::Keep::Bytes), readerB(ServedPartReader::Keep::Bytes);
    const std::vector<ServedPart> partsA = viewA ? readerA.read(vA) : std::vector<ServedPart>(),
                                  partsB = viewB ? readerB.read(vB) : std::vector<ServedPart>();
    ServedContextDiff served = diffServedContext(partsA, partsB);
    d.served = std::move(served.differing);
    d.notCompared = std::move(served.notCompared);
    for (const PartDifference &part : d.served) {
        PairDiff::PartBytes &bytes = d.servedBytes.emplace_back();
        if (const std::string *a = bytesOf(partsA, part.name))
            bytes.a = *a;
        if (const std::string *b = bytesOf(partsB, part.name))
            bytes.b = *b;
    }
    if (!d.servedBytes.empty()) {
        d.firstPartA = d.servedBytes.front().a;
        d.firstPartB = d.servedBytes.front().b;
    }

    d.responseOnRecordA = vA.response.has_value();
    d.responseOnRecordB = vB.response.has_value();
    if (vA.response)
        d.responseTextA = vA.response->text;
    if (vB.response)
        d.responseTextB = vB.response->text;
    d.responseTextOffset = firstDifferenceU16(d.responseTextA, d.responseTextB);
    d.toolCallsA = toolCallLines(vA);
    d.toolCallsB = toolCallLines(vB);
    d.toolCallsSame = d.toolCallsA == d.toolCallsB;

    const std::vector<ToolResultDigest> digestsA = toolResultDigests(vA), digestsB = toolResultDigests(vB);
    for (const auto &[i, j] : matchToolRuns(digestsA, digestsB)) {
        if (sameResult(digestsA[i], digestsB[j]))
            continue;
        const recording::ToolRun &ta = vA.toolRuns[i], &tb = vB.toolRuns[j];
        ToolResultDifference r{ta.name, digestsA[i].args, ta.result, tb.result, ta.error, tb.error, std::nullopt};
        if (ta.result && tb.result)
            r.utf16Offset = firstDifferenceU16(*ta.result, *tb.result);
        d.toolResults.push_back(std::move(r));
    }

    d.ledger = diffLedgers(ledgerRowsAt(vA), ledgerRowsAt(vB));
    d.pieceOnRecordA = vA.piece.has_value();
    d.pieceOnRecordB = vB.piece.has_value();
    d.pieceLines = findings::pieceLineDiff(vA.piece ? &*vA.piece : nullptr, vB.piece ? &*vB.piece : nullptr);
    d.verdictA = vA.cache.verdict;
    d.verdictB = vB.cache.verdict;
    return d;
}

} // namespace

PairDiff comparePair(const recording::Run &runA, std::size_t a, const recording::Run &runB, std::size_t b)
{
    const recording::CallView viewA = recording::buildCallView(runA, a);
    const recording::CallView viewB = recording::buildCallView(runB, b);
    PairDiff d = compareViews(&viewA, &viewB);
    d.a = a;
    d.b = b;
    return d;
}

PairDiff compareWithNoCall(const recording::Run &run, std::size_t call, bool callIsA)
{
    const recording::CallView view = recording::buildCallView(run, call);
    PairDiff d = callIsA ? compareViews(&view, nullptr) : compareViews(nullptr, &view);
    (callIsA ? d.a : d.b) = call;
    return d;
}

} // namespace tf::compare
