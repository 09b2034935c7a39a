#pragma once

#include "run.h"

#include <atomic>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace tf::recording {

// Where a tool result entered the conversation: the first call whose served messages carry it (by the served ids,
// spec/findings.md §4.2), the message that carries it there, and whether that call was served its collapse ticket.
struct ResultEntry
{
    std::size_t ordinal = 0;
    std::optional<std::size_t> messageIndex; // position in that call's messages as sent; nullopt: not found there
    bool asTicket = false;
};

// The first call serving each of `ids`, scanning calls in order and stopping once every id is placed. Ids that no
// call serves are absent from the answer. `cancel` stops the scan early (what was placed so far is returned).
std::map<std::string, ResultEntry, std::less<>> whereResultsEntered(const Run &run, const std::set<std::string> &ids,
                                                                    const std::atomic<bool> *cancel = nullptr);

// One tool call id, followed from the call that asked for it to where its result was served.
struct ToolResultPlace
{
    std::string toolCallId;
    std::optional<std::size_t> ranAt;   // the call whose response asked for it (its tool events follow that call)
    bool resultOnRecord = false;        // a tool_end with this id is on record
    std::optional<ResultEntry> entered; // nullopt: no call was served the result (the run ended first, or a gap)
};
ToolResultPlace locateToolResult(const Run &run, std::string_view toolCallId,
                                 const std::atomic<bool> *cancel = nullptr);

} // namespace tf::recording
