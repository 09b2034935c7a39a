#pragma once

#include "callview.h"

#include <map>

namespace tf::recording::detail {

// Where a whole-run pass gets the state at each call and the receipt after it, for calls taken in increasing
// order: a StateJournal::Cursor per log parses each row once. (A single view rebuilds its state: Run::stateAt.)
class CallStateReader
{
public:
    explicit CallStateReader(const Run &run)
        : m_run(run)
    {
    }
    void read(const CallRecord &call, CallView &view);

private:
    const Run &m_run;
    std::map<const StateJournal *, StateJournal::Cursor> m_cursors;
};

// Stage 1: what the call was served, rebuilt (§5.3-§5.7), plus its events. No receipt, no comparison. The state
// comes from `states` when given, else it is rebuilt.
void rebuildServed(const Run &run, std::size_t index, CallView &view, CallStateReader *states = nullptr);
// Stage 2: receipt verification (§6.6) of a rebuilt view.
void verifyReceipt(const Run &run, CallView &view);
// Stage 3: cache facts (§7) against the previous call's rebuilt view (nullptr for the first call).
void computeCacheFacts(const Run &run, const CallView *previous, CallView &view);

// Names of rebuilt tools, in request order.
std::vector<std::string> toolNames(const CallView &view);
// The receipt when it is a usable object (basis.epoch numeric); nullptr otherwise.
const json::Value *usableReceipt(const CallView &view);

} // namespace tf::recording::detail
