#pragma once

#include "callevents.h"
#include "eventcallbuilder.h"
#include "eventfacts.h"
#include "run.h"
#include "runstorybuilder.h"

#include <cstddef>
#include <vector>

namespace tf::recording::detail {

// The index of a run whose calls come from its events alone (an NDJSON log, a recording without a commit log;
// spec/recording.md §5.9): the events' facts, the calls, each call's events, the turns, outcome and limits. One
// mechanism for a file opened whole and for a log followed as it grows (LogFollower): each event is read once, when it
// arrives, and a snapshot is published from what was read — its cost is what was appended and copies of the calls and
// maps, not a second reading of every event.
class EventRunIndex
{
public:
    // Reads run.events from the first not read yet; run.source holds their payloads. The events read before are those
    // of earlier calls, unchanged (a followed log only grows).
    void extend(const Run &run);

    enum class Calls
    {
        All,
        // A snapshot of a log still being written: the last calls whose response is not on record yet (and the run
        // did not end after them) are left out, counted in Run::callsAwaitingResponse.
        HoldBackAwaitingResponse
    };
    // Fills `run`, whose events are those read, with everything else the index says.
    void publish(Run &run, Calls calls) const &;
    // The same for an index not needed afterwards (a file read once): its calls, turns and maps are moved into `run`.
    void publish(Run &run, Calls calls) &&;

private:
    // What both publishes do once `run` holds the calls: the responses found by their stage, the calls held back.
    void completeCalls(Run &run, Calls calls) const;
    EventFacts m_facts;
    CallKeyEvents m_keys;
    EventCallBuilder m_callBuilder;
    RunStoryBuilder m_story;
    std::vector<CallRecord> m_calls;
    // The first calls whose brackets are final, but for m_awaitingAfterNext: the next call's llm_start is on record,
    // and so is their llm_end or their run's next llm_start.
    std::size_t m_bracketed = 0;
    // Those of them whose llm_end is not in their window: a response of their stage elsewhere may be theirs.
    std::vector<std::size_t> m_bracketedWithoutResponse;
    // Those of them whose llm_end may still come (their run has not started another call): a few, one per run.
    std::vector<std::size_t> m_awaitingAfterNext;
};

} // namespace tf::recording::detail
