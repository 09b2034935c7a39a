#pragma once

#include "callview.h"
#include "run.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace tf::recording {

namespace detail {
class EventCollector;
}

// Follows a recording while it is being written, as `tail -F` follows a log (README "Following a run in progress").
//
// An NDJSON event log (the library's fileObservability sink appends batches of lines) is read incrementally: each
// poll reads only what was appended since the last one, up to its last complete line (a torn last line waits for
// its newline), copies those lines into a scratch file the snapshots map, and indexes the new events. The path is
// followed across a rotation: renamed away with a fresh file in its place (the sink's maxBytes), or truncated in
// place (logrotate's copytruncate, a re-run writing `> run.ndjson`); what was read is kept and reading goes on in the
// new file. A recording written whole (a JSON document the sink rewrites atomically) is read again whenever the path
// names another version of it.
//
// The events are indexed as they arrive by the index a log opened whole goes through (detail::EventRunIndex), so each
// event is read once however many polls follow. Every poll that read something returns a new immutable Run — a
// snapshot; earlier snapshots stay valid and hold the events read before them together with it (EventList), not each
// a copy — and the calls' summaries, reusing those of the calls that cannot have changed. A call appears once its
// response is on record (Run::callsAwaitingResponse counts the others) unless the run has ended or the poll is the
// final one.
class LogFollower
{
public:
    explicit LogFollower(std::string path);
    ~LogFollower();
    LogFollower(const LogFollower &) = delete;
    LogFollower &operator=(const LogFollower &) = delete;

    struct Update
    {
        // A new snapshot and its summaries (one per call of the run, in `summaries`); null when nothing changed since
        // the last poll.
        std::shared_ptr<const Run> run;
        std::shared_ptr<const std::vector<CallSummary>> summaries;
        std::span<const CallSummary> calls;
        // The first calls whose summaries are those of the previous update's calls, unchanged.
        std::size_t unchangedCalls = 0;
        // What happened to the file, one line each ("… was rotated …", "… was truncated …", "… was rewritten …").
        std::vector<std::string> notices;
        // One line naming the file, the position and what was expected: following stopped (a line that is not an
        // event), or, for a recording written whole, the version on disk could not be read (yet).
        std::string error;
        // Wall time of the poll's parts that grow with the whole log rather than with what was appended: publishing the
        // snapshot from the index (detail::EventRunIndex reads each event once, when it arrives; the snapshot copies
        // its calls, turns and tool maps) and the settled calls' summaries carried over to it (the new events' reading
        // and the new calls' index are not counted). 0 when none was.
        double rebuildMs = 0;
    };

    // How long to wait after a poll before the next one: `floorMs`, or kPollCostRatio times what the poll's part that
    // grows with the log cost (rebuildMs) when that is longer. A snapshot copies the calls and summaries read so far,
    // so on a very long log polling at a fixed pace would keep a core busy; paced this way, that part takes at most
    // about a fifth of one however long the log grows, and a short log is still looked at every `floorMs`. The new
    // calls' index comes on top.
    static constexpr double kPollCostRatio = 4;
    static constexpr int nextPollDelayMs(int floorMs, double lastRebuildMs)
    {
        const double paced = kPollCostRatio * lastRebuildMs;
        return paced > double(floorMs) ? int(paced + 0.5) : floorMs;
    }

    // Reads what changed since the last poll. `final`: the last poll (the user stops following, or the CLI's idle
    // time ran out): calls still waiting for their response are shown as they are. The new calls are indexed as a
    // file being opened is (indexCalls, the calls of the last update kept): `indexing`, when given, sees the index
    // grow, and returning false from it abandons the poll (nothing is published; the next poll publishes what this
    // one read, unless this one found following stopped).
    Update poll(bool final = false, const CallIndexProgress &indexing = {});

    // Whether the file turned out to be an NDJSON event log (read incrementally) rather than a recording read whole;
    // false until the first line is complete.
    bool isEventLog() const;
    // Following stopped for good: a line that is not an event (the error was reported once).
    bool stopped() const;
    // Bytes of the followed file read so far, across rotations (a recording read whole: its size).
    std::uint64_t bytesRead() const;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace tf::recording
