#pragma once

#include "callrecord.h"
#include "event.h"
#include "eventlist.h"
#include "gap.h"
#include "messagefacts.h"
#include "recordingshape.h"
#include "runstory.h"
#include "statejournal.h"

#include "core/io/mappedfile.h"
#include "core/json/parser.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tf::recording {

// Run constants read through the last bundle of the run-level log (spec/recording.md §5.2).
struct RunConstants
{
    std::optional<std::string> findingsServe;     // "ledger-and-facts" | "ledger-only"
    std::optional<std::string> findingsAnswerAsk; // only "quote-facts" is ever written
    std::optional<std::string> forcedOutputToolName;
    bool toolWantsByName = false;
    bool armed = false; // findingsServe at seed, or a _findings property in the schemas
};

// One loaded recording: immutable after the loader returns, shared by the CLI, the GUI models and the reports.
// Every string view and borrowed Value inside points into `source` or `arena`, which the Run owns.
//
// The Run keeps no parse tree of the file. What every list needs is kept small (events, calls); what one call's view
// needs (an event's payload, the state at a call, the receipt after it) is parsed again from the mapped file on
// demand, so memory stays a fraction of the file however many small values a run holds. Each accessor returns a
// fresh value that the caller owns.
struct Run
{
    std::shared_ptr<const io::MappedFile> source;
    // Shared by the snapshots of a followed log, which keep the strings of the events read before them.
    std::shared_ptr<json::StringArena> arena;
    // Where the long strings of `source` end, as the load's parse found them (null for a run not loaded from one
    // document: a followed log's snapshots, previews): every parse of a span of the file again (payloads, states,
    // rows, messages) steps over them with it.
    std::shared_ptr<const json::StringEnds> stringEnds;
    // The file as opened when it holds a packed recording (spec/upstream-since-9.113.md §1); `source` is then its
    // expansion, the plain recording byte for byte. Null for a plain file.
    std::shared_ptr<const io::MappedFile> packedFile;

    RecordingShape shape = RecordingShape::Recording;
    std::string path;
    std::string runId;               // event-meta form run-<ms>-<seq> of the first run, or empty when not on record
    std::vector<std::string> runIds; // every run's id in first-seen order, pause/resume's consumer scope left out
    std::string snapshotRunId;       // the run the snapshot's commit log covers (the last one); empty: none
    std::string engineRunId;         // snapshot.runId (never compared with runId)
    std::string reactMode;           // "dynamic" | "dynamic-grouped" | "" (not on record)
    std::string model, provider;
    std::optional<std::string> finalAnswer; // the last turn_end's finalContent; nullopt: no turn ended on record
    std::optional<double> totalInputTokens, totalOutputTokens;
    std::optional<double> durationMs;
    bool hasChart = false;
    bool hasSnapshot = false;
    // snapshot.recorders lists agentfootprint.redaction: REDACTED / [REDACTED] are placeholders (redaction.h).
    bool servedUnderRedaction = false;
    FoldBasis basis = FoldBasis::EventsOnly;
    std::size_t commitCount = 0;

    RunConstants constants;
    EventList events;
    std::map<std::string, std::size_t> unknownEventTypes; // type -> count
    std::vector<CallRecord> calls;
    std::vector<Gap> gaps; // run-level
    // spec/runs.md: every turn (at least one when there are calls), how the run ended, the limits it hit.
    std::vector<Turn> turns;
    RunOutcome outcome;
    std::vector<RunLimit> limits;
    std::vector<std::string> warnings;
    // A snapshot of a log still being written (recording::LogFollower): the calls whose llm_start is on record but not
    // yet their response, left out of `calls` until it is.
    bool live = false;
    // The first calls of a large file, read ahead of its whole index (recording::previewRun): what follows them is
    // not read yet, so nothing is said of how the run ended.
    bool preview = false;
    // The load read the later of the file's two big lists on a second thread (detail::ListReadAhead): what it read
    // is the same either way; its tests and benches tell from this that it did.
    bool listReadAhead = false;
    std::size_t callsAwaitingResponse = 0;

    // Reference files (C) carry the library's own per-call views; kept for cross-checks.
    std::vector<json::Value> servedViews;
    // One journal per folded commit log (the run log, or each sf-llm-call#n log); CallRecord::journal points here.
    std::vector<std::unique_ptr<const StateJournal>> journals;
    // Where the final ledger is: the snapshot's sharedState (or a capture's finalState) member in the file, else the
    // run log's journal at its end.
    std::uint64_t finalLedgerOffset = json::kNoSource;
    const StateJournal *finalLedgerJournal = nullptr;

    // toolCallId -> index of its tool_end / tool_start event (the last one when an id repeats).
    std::unordered_map<std::string_view, std::size_t> toolEndByCallId, toolStartByCallId;

    // Memo shared by every view built from this run (thread-safe).
    std::shared_ptr<MessageFactsCache> messageFacts = std::make_shared<MessageFactsCache>();

    const Event *event(std::optional<std::size_t> i) const { return i && *i < events.size() ? &events[*i] : nullptr; }

    // The event's payload and meta objects ({} when it has none), parsed again from the file.
    json::Value payload(const Event &e) const;
    json::Value meta(const Event &e) const;
    // The payload with its members that are arrays or objects read as empty (json::parseAgainShallow): for a
    // reader of its scalars, where the bulk (a history) is below them.
    json::Value payloadMembers(const Event &e) const;
    // The state at the call (§5.2; {} for an events-only call) and the receipt its own bundle committed.
    json::Value stateAt(const CallRecord &call) const;
    std::optional<json::Value> receiptAfter(const CallRecord &call) const;
    // The tool calls the call's own bundle committed (llmLatestToolCalls), when it did.
    std::optional<json::Value> toolCallsAfter(const CallRecord &call) const;
    // The tool_end of a tool call id anywhere in the run (the result the model was served), or its tool_start.
    const Event *toolEnd(std::string_view toolCallId) const;
    const Event *toolStart(std::string_view toolCallId) const;
    // The findings ledger at the call when it is an array (notes on ledger rows name rows of it).
    std::optional<json::Value> ledgerAt(const CallRecord &call) const;
    // iteration_end(k-1).history of an events-only call (§5.9), when on record.
    std::optional<json::Value> eventHistory(const CallRecord &call) const;
    // The ledger as committed at the end, for "ledger at the end" displays; nullopt when never written.
    std::optional<json::Value> finalLedger() const;

    // Every checkpoint of every journal's long chains (StateJournal::buildCheckpoints), made in one replay per chain
    // once the run is indexed, rather than by a viewer's first jumps into each stretch of a chain: those replayed up
    // to a whole chain, the slowest switches of a 1.5 GB run (docs/performance.md, twelfth session).
    void buildCheckpoints() const;

    // Empty while the file the run was read from is as it was opened; otherwise the one-line reason
    // (io::MappedFile::changedOnDisk). Whatever was read from a changed file may be wrong: every front end asks once
    // its answer is built and before it shows it, and drops the answer when this is not empty.
    std::string changedOnDisk() const;
    // The cheap half of that check (an atomic load per file): whether a read met pages that vanished.
    bool pagesVanished() const;
};

} // namespace tf::recording
