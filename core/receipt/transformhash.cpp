#include "transformhash.h"

#include "receipthash.h"

#include "core/json/writer.h"

namespace tf::receipt {

const char *transformHashSchemeId(TransformHashScheme scheme)
{
    switch (scheme) {
    case TransformHashScheme::ChainV1:
        return "chain-v1";
    case TransformHashScheme::Legacy:
        return "legacy";
    case TransformHashScheme::Unknown:
        break;
    }
    return "unknown";
}

TransformHashScheme transformHashScheme(std::string_view stored)
{
    if (stored.substr(0, kChainV1Prefix.size()) == kChainV1Prefix &&
        isReceiptHashShaped(stored.substr(kChainV1Prefix.size())))
        return TransformHashScheme::ChainV1;
    return isReceiptHashShaped(stored) ? TransformHashScheme::Legacy : TransformHashScheme::Unknown;
}

ChainV1Trace chainV1Trace(std::string_view salt, const json::Value &request)
{
    ChainV1Trace trace;
    trace.link0 = receiptHash(salt, kChainV1Seed);
    std::string link = trace.link0;
    // Links only for an object whose messages is an array; the head is then the request without them.
    const json::Value *messages = request.isObject() ? request.findArray("messages") : nullptr;
    if (messages) {
        for (const json::Value &message : *messages) {
            ChainV1Trace::Link l;
            l.elementJson = "[";
            json::appendSortedKeyJson(l.elementJson, message);
            l.elementJson += ']';
            l.digest = receiptHash(salt, l.elementJson);
            l.link = receiptHash(salt, link + std::string(kUnitSeparator) + l.digest);
            link = l.link;
            trace.links.push_back(std::move(l));
        }
        json::Value head = request;
        head.erase("messages");
        trace.headJson = json::sortedKeyJson(head);
    } else {
        trace.headJson = json::sortedKeyJson(request);
    }
    trace.hash = std::string(kChainV1Prefix) + receiptHash(salt, link + std::string(kUnitSeparator) + trace.headJson);
    return trace;
}

std::string chainV1TransformHash(std::string_view salt, const json::Value &request)
{
    return chainV1Trace(salt, request).hash;
}

std::string legacyTransformHash(std::string_view salt, const json::Value &request)
{
    return receiptHash(salt, json::sortedKeyJson(request));
}

} // namespace tf::receipt
