#include "callinternals.h"

#include "core/json/writer.h"
#include "core/receipt/receiptnames.h"

namespace tf::recording::detail {

namespace {

const json::Value *storedHash(const json::Value *receipt, std::string_view section)
{
    const json::Value *s = receipt ? receipt->findObject(section) : nullptr;
    return s ? s->findString("hash") : nullptr;
}

bool hashedReceipt(const CallView &v)
{
    return v.receiptState == CallView::ReceiptState::Hashed && usableReceipt(v);
}

std::string schemaText(const ToolView &t)
{
    return t.schema ? json::sortedKeyJson(*t.schema) : t.description.value_or("");
}

// What moved in the tools list, in words (rebuilt comparison).
std::string toolsDifference(const CallView &prev, const CallView &cur, bool armed)
{
    if (toolNames(prev) != toolNames(cur))
        return "the tool list changed";
    for (std::size_t i = 0; i < cur.tools.size(); ++i)
        if (schemaText(prev.tools[i]) != schemaText(cur.tools[i]))
            return "the " + cur.tools[i].name + " schema changed" +
                   (cur.tools[i].schema && armed ? " (on an armed run, the offer of nameable result ids)" : "");
    return {};
}

// The rebuilt tools of two calls, compared only as far as both are on record: a call rebuilt from its events has
// the names but not the schemas, so next to a folded call only a change of names proves anything.
std::optional<bool> toolsUnchangedRebuilt(const CallView &prev, const CallView &cur, bool armed)
{
    if (!prev.toolsOnRecord || !cur.toolsOnRecord)
        return std::nullopt;
    if (toolNames(prev) != toolNames(cur))
        return false;
    if (prev.schemasOnRecord != cur.schemasOnRecord)
        return std::nullopt;
    return toolsDifference(prev, cur, armed).empty();
}

std::string systemDifference(const CallView &prev, const CallView &cur)
{
    const bool prevPiece = prev.piece.has_value(), curPiece = cur.piece.has_value();
    if (prevPiece != curPiece)
        return curPiece ? "the findings piece arrived" : "the findings piece went away";
    if (curPiece && prev.piece->text != cur.piece->text)
        return "the findings piece changed";
    if (prev.systemPieces.size() != cur.systemPieces.size())
        return "a system piece was added or removed";
    for (std::size_t i = 0; i < cur.systemPieces.size(); ++i)
        if (prev.systemPieces[i].text != cur.systemPieces[i].text)
            return "the " + cur.systemPieces[i].source + " piece changed";
    return "the system text changed";
}

} // namespace

void computeCacheFacts(const Run &run, const CallView *previous, CallView &view)
{
    CacheFacts &cache = view.cache;
    const CallRecord &rec = *view.record;
    if (rec.hasStateAt)
        if (const json::Value *markers = view.stateAt.find("cacheMarkers"))
            cache.candidates = *markers;
    cache.gateBranch = rec.cacheGateBranch;
    if (const json::Value *receipt = usableReceipt(view))
        if (const json::Value *c = receipt->findObject("cache")) {
            if (const json::Value *applied = c->find("markersApplied"))
                cache.applied = *applied;
            if (const json::Value *strategy = c->findString("strategy"))
                cache.strategy = receipt::currentStrategyName(strategy->asString());
        }
    const auto longTtl = [](const std::optional<json::Value> &markers) {
        if (!markers || !markers->isArray())
            return false;
        for (const json::Value &m : *markers)
            if (const json::Value *ttl = m.findString("ttl"); ttl && ttl->asString() == "long")
                return true;
        return false;
    };
    if (longTtl(cache.applied ? cache.applied : cache.candidates))
        cache.ttlMs = 60 * 60 * 1000;

    const Usage &u = view.usage;
    if (!u.measured())
        cache.verdict = CacheVerdict::Unmeasured;
    else if (u.cacheRead.value_or(0) > 0)
        cache.verdict = CacheVerdict::Hit;
    else if (u.cacheWrite.value_or(0) > 0)
        cache.verdict = CacheVerdict::WriteOnly;
    else
        cache.verdict = CacheVerdict::Miss;

    if (!previous) {
        cache.reason = "first call: there is no earlier prefix to reuse";
        return;
    }
    if (view.wallClockMs && previous->wallClockMs) {
        cache.gapMs = *view.wallClockMs - *previous->wallClockMs;
        cache.pastTtl = *cache.gapMs > cache.ttlMs;
    }
    // §7.3: compare the stored hashes when both receipts carry real ones; otherwise the rebuilt bytes.
    if (hashedReceipt(view) && hashedReceipt(*previous)) {
        cache.fromStoredHashes = true;
        const json::Value *cur = usableReceipt(view), *prev = usableReceipt(*previous);
        const json::Value *a = storedHash(cur, "system"), *b = storedHash(prev, "system");
        const json::Value *curBasis = cur->findObject("basis"), *prevBasis = prev->findObject("basis");
        const json::Value *curSalt = curBasis->findString("runId"), *prevSalt = prevBasis->findString("runId");
        if (a && b && curSalt && prevSalt && curSalt->asString() == prevSalt->asString())
            cache.systemUnchanged = a->asString() == b->asString();
        const json::Value *curTools = cur->findObject("tools"), *prevTools = prev->findObject("tools");
        if (curTools && prevTools) {
            const json::Value *n1 = curTools->find("names"), *n2 = prevTools->find("names");
            const json::Value *h1 = curTools->find("schemaHashes"), *h2 = prevTools->find("schemaHashes");
            if (n1 && n2 && h1 && h2)
                cache.toolsUnchanged = json::deepEqual(*n1, *n2) && json::deepEqual(*h1, *h2);
        }
    } else {
        if (view.systemOnRecord && previous->systemOnRecord)
            cache.systemUnchanged = view.systemText == previous->systemText;
        cache.toolsUnchanged = toolsUnchangedRebuilt(*previous, view, run.constants.armed);
    }
    if (cache.systemUnchanged && cache.toolsUnchanged)
        cache.prefixReusable = *cache.systemUnchanged && *cache.toolsUnchanged;
    else if (cache.systemUnchanged == false || cache.toolsUnchanged == false)
        cache.prefixReusable = false;

    const std::string basis = cache.fromStoredHashes ? "stored receipt hashes" : "rebuilt bytes";
    if (cache.prefixReusable == true) {
        cache.reason = "tools and system block unchanged (" + basis + "): the prefix could be served from cache";
        if (cache.pastTtl)
            cache.reason += ", but the gap exceeds the cache TTL";
    } else if (cache.toolsUnchanged == false) {
        cache.reason = "tools changed: " +
                       (cache.fromStoredHashes ? std::string("a schema hash or the name list moved")
                                               : toolsDifference(*previous, view, run.constants.armed)) +
                       "; everything after the tools is rewritten";
        if (cache.systemUnchanged == false)
            cache.reason += "; the system block changed too (" + systemDifference(*previous, view) + ")";
    } else if (cache.systemUnchanged == false) {
        cache.reason = "system block changed (" + systemDifference(*previous, view) + ")";
    } else {
        cache.reason = "cannot say: the tools or the system text of one of the two calls are not on record";
    }
}

} // namespace tf::recording::detail
