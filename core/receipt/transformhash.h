#pragma once

#include "core/json/value.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

// `cache.transformHash`, the fingerprint of the request a cache strategy handed back (spec/upstream-since-9.113.md
// §2; upstream transformHashOf in src/lib/time-travel/receipt.ts). Two schemes are on record:
//
//     chain-v1 (9.139+): link0 = H("agentfootprint.transform.chain.v1"); for each message i in order
//                        d_i = H(stableJson([message_i])), link_i = H(link_{i-1} ␟ d_i);
//                        head = stableJson(request without "messages") (the whole request without a messages array);
//                        value "chain-v1:" + H(link_n ␟ head)
//     legacy (bare):     H(stableJson(request))
//
// where H(c) = receiptHash(basis.runId, c) and stableJson is the sorted-key JSON (json::sortedKeyJson).
namespace tf::receipt {

inline constexpr std::string_view kChainV1Prefix = "chain-v1:";
inline constexpr std::string_view kChainV1Seed = "agentfootprint.transform.chain.v1";

enum class TransformHashScheme
{
    ChainV1, // "chain-v1:" and 16 hex
    Legacy,  // 16 hex, minted before the prefix
    Unknown  // anything else: a later scheme, or a fixture's placeholder
};
const char *transformHashSchemeId(TransformHashScheme scheme); // "chain-v1", "legacy", "unknown"
TransformHashScheme transformHashScheme(std::string_view stored);

// Every intermediate of the chain-v1 hash, so a conformance check can name the first one that differs.
struct ChainV1Trace
{
    struct Link
    {
        std::string elementJson; // stableJson([message])
        std::string digest;
        std::string link;
    };
    std::string link0;
    std::vector<Link> links;
    std::string headJson;
    std::string hash; // "chain-v1:<16 hex>"
};
ChainV1Trace chainV1Trace(std::string_view salt, const json::Value &request);
std::string chainV1TransformHash(std::string_view salt, const json::Value &request);
std::string legacyTransformHash(std::string_view salt, const json::Value &request);

} // namespace tf::receipt
