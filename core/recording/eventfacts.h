#pragma once

#include "run.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace tf::recording::detail {

// What the events say of the run as a whole — its run ids, mode, model and provider, the final answer and totals,
// the event types no rule reads — read one event at a time, for a file loaded at once and for a log followed as it
// grows alike.
class EventFacts
{
public:
    // Reads run.events from the first not read yet (run.source holds their payloads).
    void extend(const Run &run);
    // Sets what was read on `run`; a run id, model or provider it already names is kept.
    void apply(Run &run) const;

private:
    std::size_t m_read = 0;
    std::vector<std::string> m_runIds;                 // first-seen order
    std::unordered_set<std::string_view> m_seenRunIds; // a log with a run id per event must not cost n^2
    std::map<std::string, std::size_t> m_unknownEventTypes;
    std::string m_reactMode, m_model, m_provider;
    bool m_turnEnded = false;
    std::optional<std::string> m_finalAnswer;
    std::optional<double> m_totalInputTokens, m_totalOutputTokens, m_durationMs;
};

} // namespace tf::recording::detail
