#include "builders.h"
#include "subflowscan.h"

#include <unordered_map>

namespace tf::recording::detail {

// §1.6, §5.9: a boundary capture has no foldable run log (its `commits` are a cursor), but each slot subflow kept
// its own log. Fold each and give the call of the iteration it seeded the pieces it composed.
void buildCallsFromBoundaryCapture(Run &run, const json::Value &subflowResults, const json::Value &finalState)
{
    buildCallsFromEvents(run);
    run.basis = FoldBasis::SubflowLogs;
    std::unordered_map<int, json::Value> stateByIteration;
    std::unordered_map<int, std::string> branchByIteration;
    for (const SubflowExecution &e : subflowExecutions(subflowResults)) {
        const bool systemPrompt = mountIs(e.mount, "sf-system-prompt");
        const bool messages = mountIs(e.mount, "sf-messages");
        const bool tools = mountIs(e.mount, "sf-tools");
        const bool cache = mountIs(e.mount, "sf-cache");
        if (!(systemPrompt || messages || tools || cache))
            continue;
        const FoldedSubflow folded = foldSubflow(e);
        if (!folded.iteration)
            continue;
        json::Value &state = stateByIteration[*folded.iteration];
        if (!state.isObject()) {
            state = json::Value::object();
            state.set("iteration", json::Value::number(*folded.iteration));
        }
        const auto copy = [&](const json::Value &from, std::string_view fromKey, std::string_view toKey) {
            if (const json::Value *v = from.find(fromKey))
                state.set(toKey, *v);
        };
        if (systemPrompt) {
            copy(folded.finalState, "systemPromptInjections", "systemPromptInjections");
        } else if (messages) {
            // The input mapping seeds `messages`: the committed history at that point, with toolCalls.
            copy(folded.inputState, "messages", "history");
            copy(folded.finalState, "messagesInjections", "messagesInjections");
        } else if (tools) {
            copy(folded.finalState, "toolSchemas", "toolSchemas");
            copy(folded.finalState, "dynamicToolSchemas", "dynamicToolSchemas");
        } else if (cache) {
            copy(folded.finalState, "cacheMarkers", "cacheMarkers");
            if (e.tree)
                if (auto branch = cacheGateBranch(*e.tree))
                    branchByIteration.emplace(*folded.iteration, *branch);
        }
    }
    for (CallRecord &call : run.calls) {
        call.basis = FoldBasis::SubflowLogs;
        call.logName = "subflows";
        if (auto it = stateByIteration.find(call.epoch); it != stateByIteration.end()) {
            call.keptState = it->second;
            call.hasStateAt = true;
        }
        if (auto it = branchByIteration.find(call.epoch); it != branchByIteration.end())
            call.cacheGateBranch = it->second;
    }
    for (std::string_view key : {"findingsServe", "findingsAnswerAsk", "forcedOutputToolName"}) {
        if (const json::Value *v = finalState.findString(key)) {
            std::optional<std::string> &slot = key == "findingsServe"       ? run.constants.findingsServe
                                               : key == "findingsAnswerAsk" ? run.constants.findingsAnswerAsk
                                                                            : run.constants.forcedOutputToolName;
            slot = v->decodedString();
        }
    }
    run.constants.toolWantsByName = finalState.contains("toolWantsByName");
    run.constants.armed = run.constants.findingsServe.has_value();
    if (const json::Value *ledger = finalState.findArray("findingsLedger"))
        run.finalLedgerOffset = ledger->sourceOffset();
    if (!run.finalAnswer && run.events.empty()) // spec/runs.md §4, as for commit logs
        if (const json::Value *answer = finalState.findString("llmLatestContent"))
            run.finalAnswer = answer->decodedString();
}

} // namespace tf::recording::detail
