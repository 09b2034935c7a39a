#pragma once

#include "loaderror.h"
#include "recordingloader.h"
#include "run.h"

namespace tf::recording::detail {

// Stages of the loader, each filling part of the Run. Internal to core/recording.

// Reads the typed events (shape A, B, D, E): validates each, records run id, model, totals, final answer.
void indexEvents(Run &run, const json::Value &events, const LoadErrors &errors, const std::vector<json::PathStep> &at,
                 const LoadControl &control);

// Calls from a foldable commit log (A/B with snapshot, C), spec/recording.md §5.1–§5.2.
void buildCallsFromCommitLog(Run &run, const json::Value &commitLog, const json::Value *initialState,
                             const json::Value *subflowResults, const LoadControl &control);

// Calls from events only (A without snapshot, E), §5.9.
void buildCallsFromEvents(Run &run);

// Calls from a boundary-capture fixture (D): events plus the slot subflows' own logs, §5.9.
void buildCallsFromBoundaryCapture(Run &run, const json::Value &subflowResults, const json::Value &finalState);

// Pairs llm_start/llm_end, route and tool events with calls by runtimeStageId or iteration.
void attachEvents(Run &run);

// Run-level gaps and warnings that depend on the whole file (truncated head, several runs, ...).
void finishRun(Run &run);

} // namespace tf::recording::detail
