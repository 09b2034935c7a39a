#pragma once

#include "run.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tf::recording::detail {

// The calls of a run rebuilt from its events alone (spec/recording.md §5.9): one per llm_start `wanted` keeps, its
// inputs found in the events around it. Read one event at a time, so that a file loaded at once and a log followed as
// it grows get their calls from the same rules; each event is looked at once however the events arrive.
class EventCallBuilder
{
public:
    using Wanted = std::function<bool(const Event &)>;
    explicit EventCallBuilder(Wanted wanted = {})
        : m_wanted(std::move(wanted))
    {
    }

    // Reads run.events from the first not read yet; the calls among them are appended to `calls` in event order
    // (their ordinal is their place in `calls`), and earlier calls there get the response that was still to come.
    void extend(const Run &run, std::vector<CallRecord> &calls);
    // Whether calls[c] may still get its response from events not read yet: it is its run's last call and its
    // llm_end is not on record.
    bool awaitsResponse(const std::vector<CallRecord> &calls, std::size_t c) const;

private:
    Wanted m_wanted;
    std::size_t m_read = 0;
    // iteration_end(k).history of the current turn, latest wins: iterations restart at 1 with every turn of a
    // conversation, and a resumed run goes on counting in the turn it was paused in.
    std::unordered_map<int, std::size_t> m_historyByIteration;
    std::size_t m_injectedFrom = 0;
    std::optional<std::size_t> m_firstTurnStart, m_lastTurnStart;
    // Calls made before any turn_start: the first one to come is theirs.
    std::vector<std::size_t> m_beforeAnyTurnStart;
    // Per run id, its last call while that call's llm_end may still come: the next llm_start of the run ends the wait.
    std::unordered_map<std::string_view, std::size_t> m_awaitingResponse;
};

} // namespace tf::recording::detail
