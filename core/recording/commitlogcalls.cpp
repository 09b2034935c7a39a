#include "builders.h"
#include "commitlogfold.h"
#include "numberconv.h"
#include "subflowscan.h"

#include <cmath>
#include <unordered_map>
#include <unordered_set>

namespace tf::recording::detail {

namespace {

bool isCallBundle(const json::Value &row)
{
    const json::Value *stageId = row.findString("stageId");
    return stageId && mountIs(stageId->asString(), "call-llm");
}

bool tracesRoot(const json::Value &row, std::string_view root)
{
    const json::Value *trace = row.findArray("trace");
    if (!trace)
        return false;
    for (const json::Value &entry : *trace) {
        const json::Value *path = entry.findString("path");
        if (!path)
            continue;
        const std::string_view p = path->asString();
        if (p.substr(0, p.find('\x1f')) == root)
            return true;
    }
    return false;
}

// Walks one epoch log (the run log, or one sf-llm-call#n inner log) and records each call (§5.1 steps 2-4).
void collectCalls(Run &run, const json::Value &log, const json::Value *initialState, const std::string &logName,
                  FoldBasis basis, bool onlyFirstCall, const LoadControl &control, json::Value *finalState)
{
    CommitLogFold fold(initialState);
    std::unordered_set<std::string_view> seenCallStages;
    const std::size_t n = log.size();
    for (std::size_t i = 0; i < n; ++i) {
        const json::Value &row = log.at(i);
        const bool bundle = isCommitBundle(row);
        const json::Value *stage = bundle ? row.findString("runtimeStageId") : nullptr;
        const bool call = bundle && isCallBundle(row) && stage && seenCallStages.insert(stage->asString()).second &&
                          !(onlyFirstCall && seenCallStages.size() > 1);
        if (!call) {
            fold.apply(row);
        } else {
            CallRecord rec;
            rec.ordinal = run.calls.size();
            rec.callRuntimeStageId = stage->decodedString();
            rec.logName = logName;
            rec.bundleIndex = i;
            rec.basis = basis;
            rec.stateAt = fold.state(); // the "at the call" read point (§5.2): before the call's own bundle
            rec.hasStateAt = true;
            fold.apply(row);
            // Only a receipt this bundle committed belongs to this call; a delta log would otherwise carry the
            // previous call's receipt forward.
            if (tracesRoot(row, "receipt")) {
                if (const json::Value *receipt = fold.state().find("receipt"))
                    rec.receiptAfter = *receipt;
            }
            const json::Value *iteration = fold.state().findNumber("iteration");
            if (const std::optional<int> epoch = iteration ? toInt(iteration->asNumber()) : std::nullopt) {
                rec.epoch = *epoch;
            } else {
                rec.epoch = int(run.calls.size()) + 1;
                rec.epochByPosition = true;
            }
            run.calls.push_back(std::move(rec));
        }
        if ((i & 1023) == 0) {
            control.report(0.75 + 0.2 * double(i) / double(n ? n : 1), "Folding commit log");
            if (control.cancelled())
                throw LoadFailure("cancelled");
        }
    }
    if (finalState)
        *finalState = fold.state();
}

std::optional<std::string> stringAt(const json::Value &state, std::string_view key)
{
    if (const json::Value *v = state.findString(key))
        return v->decodedString();
    return std::nullopt;
}

bool schemasCarryFindings(const json::Value &state)
{
    const json::Value *schemas = state.findArray("dynamicToolSchemas");
    if (!schemas)
        return false;
    for (const json::Value &schema : *schemas)
        if (const json::Value *input = schema.findObject("inputSchema"))
            if (const json::Value *props = input->findObject("properties"); props && props->contains("_findings"))
                return true;
    return false;
}

} // namespace

void buildCallsFromCommitLog(Run &run, const json::Value &commitLog, const json::Value *initialState,
                             const json::Value *subflowResults, const LoadControl &control)
{
    run.basis = initialState ? FoldBasis::InitialPlusLog : FoldBasis::LogOnly;
    run.commitCount = commitLog.size();

    std::vector<SubflowExecution> executions;
    if (subflowResults)
        executions = subflowExecutions(*subflowResults);
    std::vector<const SubflowExecution *> grouped;
    for (const SubflowExecution &e : executions)
        if (mountIs(e.mount, "sf-llm-call"))
            grouped.push_back(&e);

    json::Value finalState;
    if (grouped.empty()) {
        if (run.reactMode.empty())
            run.reactMode = "dynamic";
        collectCalls(run, commitLog, initialState, "run", run.basis, false, control, &finalState);
    } else {
        // §3.7: dynamic-grouped. The run log still gives the run constants.
        run.reactMode = "dynamic-grouped";
        CommitLogFold runFold(initialState);
        for (const json::Value &row : commitLog)
            runFold.apply(row);
        finalState = runFold.state();
        for (const SubflowExecution *e : grouped) {
            if (!e->tree)
                continue;
            const json::Value *inner = e->tree->findArray("history");
            if (!inner)
                continue;
            const json::Value *innerBase = e->tree->findObject("initialState");
            collectCalls(run, *inner, innerBase, e->key, innerBase ? FoldBasis::InitialPlusLog : FoldBasis::LogOnly,
                         true, control, nullptr);
        }
    }

    run.constants.findingsServe = stringAt(finalState, "findingsServe");
    run.constants.findingsAnswerAsk = stringAt(finalState, "findingsAnswerAsk");
    run.constants.forcedOutputToolName = stringAt(finalState, "forcedOutputToolName");
    run.constants.toolWantsByName = finalState.contains("toolWantsByName");
    run.constants.armed = run.constants.findingsServe.has_value() || schemasCarryFindings(finalState);
    if (const json::Value *ledger = finalState.findArray("findingsLedger"))
        run.finalLedger = *ledger;
    if (!run.finalAnswer) {
        if (auto answer = stringAt(finalState, "finalContent"))
            run.finalAnswer = answer;
        else if (auto latest = stringAt(finalState, "llmLatestContent"))
            run.finalAnswer = latest;
    }

    // The cache gate's branch lives only in the sf-cache#n trees (§7.1); match them by the iteration they seeded.
    std::unordered_map<int, std::string> branchByIteration;
    for (const SubflowExecution &e : executions) {
        if (!mountIs(e.mount, "sf-cache") || !e.tree)
            continue;
        const FoldedSubflow folded = foldSubflow(e);
        if (folded.iteration)
            if (auto branch = cacheGateBranch(*e.tree))
                branchByIteration.emplace(*folded.iteration, *branch);
    }
    for (CallRecord &call : run.calls)
        if (auto it = branchByIteration.find(call.epoch); it != branchByIteration.end())
            call.cacheGateBranch = it->second;
}

} // namespace tf::recording::detail
