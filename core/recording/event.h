#pragma once

#include "core/json/value.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tf::recording {

// One typed event {type, payload, meta} (spec/recording.md §2): what every rule reads of it on each call, kept; the
// payload and meta stay in the file and are parsed again when a view asks (Run::payload, Run::meta), so that a
// recording of a hundred thousand events is not a hundred thousand trees in memory. Views borrow from the run.
struct Event
{
    std::size_t index = 0; // position in the file's event list
    std::string_view type;
    std::string_view runtimeStageId;
    std::string_view runId;
    std::optional<double> wallClockMs;
    std::optional<double> runOffsetMs;
    std::optional<int> payloadIteration; // payload.iteration when it is a number
    // Tool events: payload.toolCallId, and whether payload.error is true (the tool threw). Read while the list
    // streams, so that marking a failed result anywhere in a run never parses a tool_end again.
    std::string_view toolCallId;
    bool payloadError = false;
    // tool_end: payload.modelResult is present, so the model was served a stripped result rather than the tool's own
    // (ToolResultFacts). Read here for the same reason: a call's Wire asks it of every result in its history.
    bool payloadHasModelResult = false;
    // iteration_end: payload.iterIndex when it is a number, and whether payload.history is an array (§5.9). Read
    // while the list streams too: finding each call's history must not parse every iteration's history again, which
    // a followed log would do on every update.
    std::optional<int> payloadIterIndex;
    bool payloadHasHistory = false;
    // route_decided: payload.chosen is "wrap-up" (a limit the run hit, spec/runs.md). Read here too: the run's story is
    // rebuilt at every poll of a followed log, and a route is decided at every call.
    bool payloadChoseWrapUp = false;
    // Where the payload and meta objects are in the run's file; json::kNoSource when the event has none.
    std::uint64_t payloadOffset = json::kNoSource;
    std::uint64_t metaOffset = json::kNoSource;

    std::optional<int> iteration() const { return payloadIteration; }
    // The event belongs to a run: it carries a run id, and not the consumer scope's (pause and resume).
    bool hasOwnRunId() const;
};

namespace eventtype {
inline constexpr std::string_view RunConfigured = "agentfootprint.agent.run_configured";
inline constexpr std::string_view TurnStart = "agentfootprint.agent.turn_start";
inline constexpr std::string_view TurnEnd = "agentfootprint.agent.turn_end";
inline constexpr std::string_view IterationStart = "agentfootprint.agent.iteration_start";
inline constexpr std::string_view IterationEnd = "agentfootprint.agent.iteration_end";
inline constexpr std::string_view RouteDecided = "agentfootprint.agent.route_decided";
inline constexpr std::string_view LlmStart = "agentfootprint.stream.llm_start";
inline constexpr std::string_view LlmEnd = "agentfootprint.stream.llm_end";
inline constexpr std::string_view Token = "agentfootprint.stream.token";
inline constexpr std::string_view ToolStart = "agentfootprint.stream.tool_start";
inline constexpr std::string_view ToolProgress = "agentfootprint.stream.tool_progress";
inline constexpr std::string_view ToolEnd = "agentfootprint.stream.tool_end";
inline constexpr std::string_view ContextInjected = "agentfootprint.context.injected";
inline constexpr std::string_view ContextEvaluated = "agentfootprint.context.evaluated";
inline constexpr std::string_view SlotComposed = "agentfootprint.context.slot_composed";
inline constexpr std::string_view ErrorFatal = "agentfootprint.error.fatal";
inline constexpr std::string_view PauseRequest = "agentfootprint.pause.request";
inline constexpr std::string_view PauseResume = "agentfootprint.pause.resume";
inline constexpr std::string_view BudgetExhausted = "agentfootprint.agent.budget_exhausted";
inline constexpr std::string_view CostLimitHit = "agentfootprint.cost.limit_hit";
inline constexpr std::string_view BudgetPressure = "agentfootprint.context.budget_pressure";
// Added after 9.113 (spec/upstream-since-9.113.md §5). No rule reads them yet; views show them raw, by name.
inline constexpr std::string_view ArtifactsHandOverFailed = "agentfootprint.artifacts.hand_over_failed"; // 9.115
inline constexpr std::string_view FindingsArgument = "agentfootprint.findings.argument";                 // 9.122
inline constexpr std::string_view AnswerAssessed = "agentfootprint.answer.assessed";                     // 9.124
inline constexpr std::string_view FindingsPeriod = "agentfootprint.findings.period";                     // 9.125
// Deprecated in 9.116; older recordings still hold it.
inline constexpr std::string_view RiskFlagged = "agentfootprint.risk.flagged";
inline bool isNewerType(std::string_view type)
{
    return type == ArtifactsHandOverFailed || type == FindingsArgument || type == AnswerAssessed ||
           type == FindingsPeriod || type == RiskFlagged;
}
} // namespace eventtype

// Pause and resume events carry this run id and belong to no run (spec/runs.md §1).
inline constexpr std::string_view kConsumerScopeRunId = "consumer-scope";

inline bool Event::hasOwnRunId() const
{
    return !runId.empty() && runId != kConsumerScopeRunId;
}

} // namespace tf::recording
