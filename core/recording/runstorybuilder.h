#pragma once

#include "run.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tf::recording::detail {

// The run's story (spec/runs.md: its turns, how it ended, the limits it hit) and the tool results' index, read one
// event at a time. Loading a file reads every event once and finishes; following a growing log (LogFollower) reads
// each poll's new events and finishes a snapshot from what was read, so a poll costs what was appended plus copies
// of what the snapshot holds, not a second reading of every event.
class RunStoryBuilder
{
public:
    // Reads run.events from the first not read yet (run.source holds their payloads).
    void extend(const Run &run);
    // Fills run.turns (each with its calls), run.outcome, run.limits and the tool-call maps from what was read, and
    // each call's turn. run.events are those read; run.calls are the calls among them to be shown.
    void finish(Run &run) const &;
    // The same for a builder not needed afterwards (a file read once): what it holds is moved into `run`.
    void finish(Run &run) &&;

private:
    using ToolCallMap = std::unordered_map<std::string_view, std::size_t>;
    // Both finishes: the parts are the builder's, copied or moved.
    void finishWith(Run &run, std::vector<Turn> turns, ToolCallMap toolEnds, ToolCallMap toolStarts,
                    std::vector<RunLimit> limits) const;
    void readTurn(const Run &run, const Event &e);

    std::size_t m_read = 0;

    // The turns, their calls left to finish; the turn in force at each event.
    std::vector<Turn> m_turns;
    std::vector<std::uint32_t> m_turnAt;
    // A turn_start anywhere: turns are opened by turn_starts, else by each new run id. The first turn_start to come
    // after other events has the turns read again from the start.
    bool m_anyTurnStart = false;
    // An implicit turn (opened for events before any turn_start, such as run_configured) that no call has started in
    // yet is the one the next turn_start names.
    bool m_fresh = false;
    std::string_view m_lastRun;

    ToolCallMap m_toolEndByCallId, m_toolStartByCallId;
    std::optional<std::size_t> m_fatal, m_pause;
    std::vector<RunLimit> m_limits; // their calls are found when finishing
};

} // namespace tf::recording::detail
