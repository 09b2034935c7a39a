#pragma once

#include "callrecord.h"
#include "event.h"
#include "gap.h"
#include "messagefacts.h"
#include "recordingshape.h"

#include "core/io/mappedfile.h"
#include "core/json/parser.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
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
struct Run
{
    std::shared_ptr<const io::MappedFile> source;
    std::unique_ptr<json::StringArena> arena;
    json::Value root;

    RecordingShape shape = RecordingShape::Recording;
    std::string path;
    std::string runId;         // event-meta form run-<ms>-<seq>, or empty when not on record
    std::string engineRunId;   // snapshot.runId (never compared with runId)
    std::string reactMode;     // "dynamic" | "dynamic-grouped" | "" (not on record)
    std::string model, provider;
    std::optional<std::string> finalAnswer;
    std::optional<double> totalInputTokens, totalOutputTokens;
    std::optional<double> durationMs;
    bool hasChart = false;
    bool hasSnapshot = false;
    FoldBasis basis = FoldBasis::EventsOnly;
    std::size_t commitCount = 0;

    RunConstants constants;
    std::vector<Event> events;
    std::map<std::string, std::size_t> unknownEventTypes; // type -> count
    std::vector<CallRecord> calls;
    std::vector<Gap> gaps;          // run-level
    std::vector<std::string> warnings;

    // Final ledger as committed at the end (state or finalState), for "ledger at the end" displays.
    std::optional<json::Value> finalLedger;
    // Reference files (C) carry the library's own per-call views; kept for cross-checks.
    std::vector<json::Value> servedViews;

    // Memo shared by every view built from this run (thread-safe).
    std::shared_ptr<MessageFactsCache> messageFacts = std::make_shared<MessageFactsCache>();

    const Event *event(std::optional<std::size_t> i) const { return i && *i < events.size() ? &events[*i] : nullptr; }
};

} // namespace tf::recording
