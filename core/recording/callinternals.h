#pragma once

#include "callview.h"

namespace tf::recording::detail {

// Stage 1: what the call was served, rebuilt (§5.3-§5.7), plus its events. No receipt, no comparison. The state
// comes from `states` when given, else it is rebuilt. `fold`, when given, receives the fold of view.ledger the rebuild
// makes (empty when the ledger is not on record): it points into view.ledger's rows.
void rebuildServed(const Run &run, std::size_t index, CallView &view, CallStates *states = nullptr,
                   findings::LedgerFold *fold = nullptr);
// Part of stage 1: the response, its tool calls and the tool runs (spec/runs.md §2-§3).
void readResponse(const Run &run, const CallRecord &rec, CallView &view);
// Stage 2: receipt verification (§6.6) of a rebuilt view.
void verifyReceipt(const Run &run, CallView &view);
// Stage 3: cache facts (§7) against the previous call's rebuilt view (nullptr for the first call).
void computeCacheFacts(const Run &run, const CallView *previous, CallView &view);

// cache.transformHash of a usable receipt (spec/upstream-since-9.113.md §2): sets view.transformHashScheme and checks
// the hash against the prepared request rebuilt for the call; nullopt when the receipt carries no hash.
// `fromPlaceholder`: the rebuilt request holds a redaction placeholder.
std::optional<PartCheck> checkTransformHash(CallView &view, const json::Value &receipt, std::string_view salt,
                                            bool placeholderHashes, bool fromPlaceholder);

// Names of rebuilt tools, in request order.
std::vector<std::string> toolNames(const CallView &view);
// The receipt when it is a usable object (basis.epoch numeric); nullptr otherwise.
const json::Value *usableReceipt(const CallView &view);

} // namespace tf::recording::detail
