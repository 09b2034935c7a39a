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

} // namespace

PairDiff comparePair(const recording::Run &runA, std::size_t a, const recording::Run &runB, std::size_t b)
{
    const recording::CallView viewA = recording::buildCallView(runA, a);
    const recording::CallView viewB = recording::buildCallView(runB, b);
    PairDiff d;
    d.a = a;
    d.b = b;

    ServedPartReader readerA(ServedPartReader::Keep::Bytes), readerB(ServedPartReader::Keep::Bytes);
    const std::vector<ServedPart> partsA = readerA.read(viewA), partsB = readerB.read(viewB);
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

    d.responseOnRecordA = viewA.response.has_value();
    d.responseOnRecordB = viewB.response.has_value();
    if (viewA.response)
        d.responseTextA = viewA.response->text;
    if (viewB.response)
        d.responseTextB = viewB.response->text;
    d.responseTextOffset = firstDifferenceU16(d.responseTextA, d.responseTextB);
    d.toolCallsA = toolCallLines(viewA);
    d.toolCallsB = toolCallLines(viewB);
    d.toolCallsSame = d.toolCallsA == d.toolCallsB;

    const std::vector<ToolResultDigest> digestsA = toolResultDigests(viewA), digestsB = toolResultDigests(viewB);
    for (const auto &[i, j] : matchToolRuns(digestsA, digestsB)) {
        if (sameResult(digestsA[i], digestsB[j]))
            continue;
        const recording::ToolRun &ta = viewA.toolRuns[i], &tb = viewB.toolRuns[j];
        ToolResultDifference r{ta.name, digestsA[i].args, ta.result, tb.result, ta.error, tb.error, std::nullopt};
        if (ta.result && tb.result)
            r.utf16Offset = firstDifferenceU16(*ta.result, *tb.result);
        d.toolResults.push_back(std::move(r));
    }

    d.ledger = diffLedgers(ledgerRowsAt(viewA), ledgerRowsAt(viewB));
    d.pieceOnRecordA = viewA.piece.has_value();
    d.pieceOnRecordB = viewB.piece.has_value();
    d.pieceLines =
        findings::pieceLineDiff(viewA.piece ? &*viewA.piece : nullptr, viewB.piece ? &*viewB.piece : nullptr);
    d.verdictA = viewA.cache.verdict;
    d.verdictB = viewB.cache.verdict;
    return d;
}

} // namespace tf::compare
