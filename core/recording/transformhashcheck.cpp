#include "callinternals.h"

#include "core/receipt/transformhash.h"

#include <algorithm>

namespace tf::recording::detail {

namespace {

// The request handed to the provider port after the cache strategy, as far as the record holds it: upstream's
// LLMRequest {systemPrompt, messages, tools, model, the dials that were set, cacheMarkers} with the markers the
// receipt says were applied. nullopt, with `why`, when a part of it is not on record.
std::optional<json::Value> rebuiltPreparedRequest(const CallView &view, const json::Value &receipt, std::string &why)
{
    const json::Value *basis = receipt.findObject("basis");
    const json::Value *model = basis ? basis->findString("model") : nullptr;
    const json::Value *messages = receipt.findObject("messages");
    const json::Value *requestOnly = messages ? messages->findArray("requestOnly") : nullptr;
    if (!view.systemOnRecord)
        why = "the system text is not on record";
    else if (!view.conversationOnRecord)
        why = "the conversation is not on record";
    else if (requestOnly && requestOnly->size() > 0)
        why = "the request carried request-only lines whose text is not on record";
    else if (std::any_of(view.tools.begin(), view.tools.end(), [](const ToolView &t) { return !t.schema; }))
        why = "a tool schema is not on record";
    else if (!model)
        why = "the receipt names no model";
    if (!why.empty())
        return std::nullopt;
    json::Value request = json::Value::object();
    if (!view.systemText.empty())
        request.set("systemPrompt", json::Value::string(view.systemText));
    request.set("messages", view.asSent);
    if (!view.tools.empty()) {
        json::Value tools = json::Value::array();
        for (const ToolView &t : view.tools)
            tools.push_back(*t.schema);
        request.set("tools", tools);
    }
    request.set("model", *model);
    if (const json::Value *params = receipt.findObject("params")) {
        for (const char *dial : {"temperature", "maxTokens", "stop", "toolChoice"})
            if (const json::Value *v = params->find(dial))
                request.set(dial, *v);
        if (const json::Value *budget = params->find("thinkingBudget")) {
            json::Value thinking = json::Value::object();
            thinking.set("budget", *budget);
            request.set("thinking", thinking);
        }
    }
    const json::Value *cache = receipt.findObject("cache");
    if (const json::Value *applied = cache ? cache->findArray("markersApplied") : nullptr; applied && applied->size())
        request.set("cacheMarkers", *applied);
    return request;
}

} // namespace

std::optional<PartCheck> checkTransformHash(CallView &view, const json::Value &receipt, std::string_view salt,
                                            bool placeholderHashes, bool fromPlaceholder)
{
    const json::Value *cache = receipt.findObject("cache");
    const json::Value *stored = cache ? cache->findString("transformHash") : nullptr;
    if (!stored)
        return std::nullopt; // null: the strategy changed nothing; absent: an older receipt
    const receipt::TransformHashScheme scheme = receipt::transformHashScheme(stored->asString());
    view.transformHashScheme = scheme;
    const std::string name = receipt::transformHashSchemeId(scheme);
    const std::string part = "cache.transformHash";
    if (placeholderHashes)
        return PartCheck{part, Badge::Reconstructed, "scheme " + name + "; hashes are placeholders"};
    if (scheme == receipt::TransformHashScheme::Unknown)
        return PartCheck{part, Badge::NotOnRecord, "a scheme this version does not read; it cannot be recomputed"};
    std::string why;
    const std::optional<json::Value> request = rebuiltPreparedRequest(view, receipt, why);
    if (!request)
        return PartCheck{part, Badge::NotOnRecord, "scheme " + name + "; cannot be recomputed: " + why};
    const std::string rebuilt = scheme == receipt::TransformHashScheme::ChainV1
                                    ? receipt::chainV1TransformHash(salt, *request)
                                    : receipt::legacyTransformHash(salt, *request);
    if (rebuilt == stored->asString())
        return PartCheck{part, Badge::Verified, "scheme " + name + "; the rebuilt prepared request reproduces it"};
    if (fromPlaceholder)
        return PartCheck{part, Badge::Redacted,
                         "scheme " + name + "; the rebuilt request holds values the redaction policy kept out"};
    // The strategy's own rewrite (what it did to the messages, markers it placed) is not on record, so a request
    // rebuilt from the log differing from it says nothing against the recording.
    return PartCheck{part, Badge::NotOnRecord,
                     "scheme " + name +
                         "; the request rebuilt from the record does not reproduce it, and the request the cache "
                         "strategy handed back is not on record"};
}

} // namespace tf::recording::detail
