#pragma once

#include "problem.h"

#include "core/recording/callview.h"
#include "core/recording/run.h"
#include "core/report/backtrack.h"

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace tf::audit {

// What went wrong in a run, by rule (auditrule.h; the README gives each rule's exact condition): built from the facts
// the core already computed, the run story (outcome, limits), the call summaries (responses, tool runs, receipt
// checks, cache facts) and the answer's backtrack. Listed run-level problems first, then in call order, and within a
// call in rule order. A run where nothing went wrong has none.
//
// `calls` is summarizeCalls(run) (the same pass every call list makes); `backtrack` is backtrackAnswer(run), passed
// in by a surface that has it already.
std::vector<Problem> auditRun(const recording::Run &run, std::span<const recording::CallSummary> calls,
                              const report::Backtrack &backtrack);
std::vector<Problem> auditRun(const recording::Run &run, std::span<const recording::CallSummary> calls);

struct ProblemCounts
{
    std::size_t errors = 0, warnings = 0, infos = 0;
    std::size_t total() const { return errors + warnings + infos; }
};
ProblemCounts countProblems(const std::vector<Problem> &problems);

// The most severe problem at each call (for marking a call list); nullopt where a call has none.
std::vector<std::optional<Severity>> worstSeverityByCall(const std::vector<Problem> &problems, std::size_t callCount);

} // namespace tf::audit
