#include "gap.h"

#include <algorithm>

namespace tf::recording {

bool Gap::covers(const std::string &field) const
{
    return std::find(fields.begin(), fields.end(), field) != fields.end();
}

const char *gapKindName(Gap::Kind kind)
{
    switch (kind) {
    case Gap::Kind::Excuse:
        return "excuse";
    case Gap::Kind::Missing:
        return "missing";
    case Gap::Kind::Caveat:
        return "caveat";
    case Gap::Kind::Note:
        return "note";
    }
    return "note";
}

Gap noFoldBaseGap()
{
    return {"no-fold-base",
            Gap::Kind::Excuse,
            {"system.hash", "system.chars", "system.pieces", "messages.count", "messages.entries",
             "messages.requestOnly", "tools.schemaHashes", "tools.names", "tools.forced", "tools.withheld", "epoch"},
            "",
            "The commit log carries no initialState, so values seeded before the log began cannot be proven; the "
            "rebuild may be shorter than what went out."};
}

Gap noConversationGap()
{
    return {"no-conversation-on-record",
            Gap::Kind::Excuse,
            {"messages.count", "messages.entries", "messages.requestOnly"},
            "",
            "Neither history nor messagesInjections was committed at this call, so the messages are not on record."};
}

Gap earlierRunGap()
{
    return {"earlier-run",
            Gap::Kind::Excuse,
            {"tools.names", "tools.forced", "tools.schemaHashes", "messages.requestOnly", "findingsLedger"},
            "",
            "The snapshot covers the last run only; this call of an earlier run (a previous turn, or the paused half "
            "of a resumed run) is rebuilt from its events, so its tool schemas, ledger and request-only lines are not "
            "on record."};
}

Gap noRunLogGap()
{
    return {"no-run-log",
            Gap::Kind::Excuse,
            {"tools.names", "tools.forced", "tools.schemaHashes", "messages.requestOnly"},
            "",
            "There is no run-level commit log, so run constants (forced tool, request-only lines) are not on record."};
}

Gap noReceiptGap(const std::string &cause)
{
    return {"no-receipt-on-chart",
            Gap::Kind::Missing,
            {"basis.model", "basis.provider", "basis.runId", "basis.epoch", "params", "cache.transform",
             "cache.transformHash", "cache.markersApplied", "cache.strategy", "omittedForAttention",
             "requestMeasurement"},
            cause,
            cause == "receipt-shape-rejected"
                ? "The receipt key holds something that is not a receipt (no numeric basis.epoch)."
                : "No receipt was committed for this call, so nothing here is witnessed by a hash."};
}

Gap cacheTransformGap()
{
    return {"cache-transform",
            Gap::Kind::Caveat,
            {"cache.transform", "cache.transformHash", "cache.markersApplied", "cache.strategy", "system.hash",
             "system.chars", "system.pieces", "messages.count", "messages.entries", "messages.requestOnly",
             "tools.names", "tools.schemaHashes", "tools.forced", "tools.withheld"},
            "",
            "What reached the provider may differ from the fields below, and nothing on this view would show it. "
            "Where another gap on this view covers one of them, that gap is the stronger claim."};
}

Gap providerDefaultsGap()
{
    return {"provider-defaults",
            Gap::Kind::Caveat,
            {"params"},
            "",
            "A dial absent below was not recorded; that is not the same as the model running without one. A receipt "
            "describes the request as this library last saw it. Whatever handled it after that could have changed "
            "it, and nothing on the receipt would show that."};
}

Gap forcedToolSchemaGap()
{
    return {"forced-tool-schema",
            Gap::Kind::Excuse,
            {"tools.schemaHashes"},
            "",
            "The forced answer tool's schema body is not on record."};
}

} // namespace tf::recording
