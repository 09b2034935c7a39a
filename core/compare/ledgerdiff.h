#pragma once

#include "core/findings/ledgerrowview.h"
#include "core/recording/callview.h"

#include <string>
#include <vector>

namespace tf::compare {

// The ledger rows of a call as every surface shows them (findings::LedgerRowView); empty when not on record.
std::vector<findings::LedgerRowView> ledgerRowsAt(const recording::CallView &view);

// What a row says, without the ids a run issues itself (tool call ids, "declared with call_7"): its kind, tool,
// standing and detail (the fact line, assertions, what it settles). Two runs that filed the same standing on the
// same fact give the same key.
std::string ledgerRowKey(const findings::LedgerRowView &row);
// The same, as a line to read: "kind tool (standing): detail".
std::string ledgerRowLine(const findings::LedgerRowView &row);

// The rows of two ledgers that the other lacks, compared by key as multisets, each list in ledger order.
struct LedgerDifference
{
    std::vector<findings::LedgerRowView> onlyInA, onlyInB;
    bool empty() const { return onlyInA.empty() && onlyInB.empty(); }
};
LedgerDifference diffLedgers(const std::vector<findings::LedgerRowView> &a,
                             const std::vector<findings::LedgerRowView> &b);

} // namespace tf::compare
