#include "builders.h"
#include "commitlogfold.h"
#include "core/io/passedpages.h"
#include "core/json/parser.h"
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

// Walks one epoch log (the run log, or one sf-llm-call#n inner log) and records each call (§5.1 steps 2-4). The log
// is folded once, through a StateJournal that the calls keep for rebuilding their state later; returns it.
const StateJournal &collectCalls(Run &run, const LogRows &log, const json::Value *initialState,
                                 const std::string &logName, FoldBasis basis, bool onlyFirstCall,
                                 const LoadControl &control, json::Value *finalState)
{
    auto journal =
        std::make_unique<StateJournal>(run.source->bytes(), initialState, run.source.get(), run.stringEnds.get());
    std::unordered_set<std::string> seenCallStages;
    const std::size_t n = log.size();
    io::PassedPages passed(run.source.get());
    for (std::size_t i = 0; i < n; ++i) {
        const json::Value row = log.foldRowAt(i);
        const bool bundle = isCommitBundle(row);
        const json::Value *stage = bundle ? row.findString("runtimeStageId") : nullptr;
        const bool call = bundle && isCallBundle(row) && stage &&
                          seenCallStages.insert(std::string(stage->asString())).second &&
                          !(onlyFirstCall && seenCallStages.size() > 1);
        journal->apply(i, row);
        if (call) {
            CallRecord rec;
            rec.ordinal = run.calls.size();
            rec.callRuntimeStageId = stage->decodedString();
            rec.logName = logName;
            rec.bundleIndex = i; // the "at the call" read point (§5.2) is the state before this bundle
            rec.basis = basis;
            rec.hasStateAt = true;
            rec.journal = journal.get();
            // Only a receipt this bundle committed belongs to this call; a delta log would otherwise carry the
            // previous call's receipt forward.
            rec.receiptCommitted = tracesRoot(row, "receipt") && journal->fold().state().contains("receipt");
            rec.toolCallsCommitted = tracesRoot(row, "llmLatestToolCalls");
            const json::Value *iteration = journal->fold().state().findNumber("iteration");
            if (const std::optional<int> epoch = iteration ? toInt(iteration->asNumber()) : std::nullopt) {
                rec.epoch = *epoch;
            } else {
                rec.epoch = int(run.calls.size()) + 1;
                rec.epochByPosition = true;
            }
            run.calls.push_back(std::move(rec));
        }
        // Each row is read from the mapping once, in file order: let its pages go behind the fold (rows that rewrite
        // a windowed history are megabytes each).
        passed.at(log.offsetOf(i));
        if ((i & 1023) == 0) {
            control.report(0.75 + 0.2 * double(i) / double(n ? n : 1), "Folding commit log");
            if (control.cancelled())
                throw LoadFailure("cancelled");
        }
    }
    if (finalState)
        *finalState = journal->fold().state();
    journal->finish();
    run.journals.push_back(std::move(journal));
    return *run.journals.back();
}

std::optional<std::string> stringAt(const json::Value &state, std::string_view key)
{
    if (const json::Value *v = state.findString(key))
        return v->decodedString();
    return std::nullopt;
}

// The final state's tool schemas, rebuilt whole (the live fold read them shallow: LogRows::foldRowAt).
bool schemasCarryFindings(const StateJournal &journal)
{
    const std::optional<json::Value> schemas = journal.memberBefore(SIZE_MAX, "dynamicToolSchemas");
    if (!schemas || !schemas->isArray())
        return false;
    for (const json::Value &schema : *schemas)
        if (const json::Value *input = schema.findObject("inputSchema"))
            if (const json::Value *props = input->findObject("properties"); props && props->contains("_findings"))
                return true;
    return false;
}

} // namespace

LogRows LogRows::inMemory(const json::Value &array)
{
    LogRows rows;
    rows.m_array = &array;
    return rows;
}

LogRows LogRows::streamed(std::string_view text, std::vector<std::uint64_t> offsets, const json::StringEnds *ends)
{
    LogRows rows;
    rows.m_text = text;
    rows.m_offsets = std::move(offsets);
    rows.m_ends = ends;
    return rows;
}

json::Value LogRows::at(std::size_t i) const
{
    return m_array ? m_array->at(i) : json::parseAgain(m_text, std::size_t(m_offsets[i]), nullptr, m_ends);
}

json::Value LogRows::foldRowAt(std::size_t i) const
{
    // Row (0), its overwrite and updates (1), a key's value (2), its items (3): containers from depth 3 read empty.
    return m_array ? m_array->at(i) : json::parseAgainShallow(m_text, std::size_t(m_offsets[i]), 3, m_ends);
}

void buildCallsFromCommitLog(Run &run, const LogRows &commitLog, const json::Value *initialState,
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

    json::Value finalState; // as the live fold left it: which keys, and their scalars (LogRows::foldRowAt)
    if (grouped.empty()) {
        if (run.reactMode.empty())
            run.reactMode = "dynamic";
        run.finalLedgerJournal =
            &collectCalls(run, commitLog, initialState, "run", run.basis, false, control, &finalState);
    } else {
        // §3.7: dynamic-grouped. The run log still gives the run constants.
        run.reactMode = "dynamic-grouped";
        auto runJournal =
            std::make_unique<StateJournal>(run.source->bytes(), initialState, run.source.get(), run.stringEnds.get());
        for (std::size_t i = 0; i < commitLog.size(); ++i)
            runJournal->apply(i, commitLog.foldRowAt(i));
        finalState = runJournal->fold().state();
        runJournal->finish();
        run.finalLedgerJournal = runJournal.get();
        run.journals.push_back(std::move(runJournal));
        for (const SubflowExecution *e : grouped) {
            if (!e->tree)
                continue;
            const json::Value *inner = e->tree->findArray("history");
            if (!inner)
                continue;
            const json::Value *innerBase = e->tree->findObject("initialState");
            collectCalls(run, LogRows::inMemory(*inner), innerBase, e->key,
                         innerBase ? FoldBasis::InitialPlusLog : FoldBasis::LogOnly, true, control, nullptr);
        }
    }

    run.constants.findingsServe = stringAt(finalState, "findingsServe");
    run.constants.findingsAnswerAsk = stringAt(finalState, "findingsAnswerAsk");
    run.constants.forcedOutputToolName = stringAt(finalState, "forcedOutputToolName");
    run.constants.toolWantsByName = finalState.contains("toolWantsByName");
    run.constants.armed = run.constants.findingsServe.has_value() || schemasCarryFindings(*run.finalLedgerJournal);
    // spec/runs.md §4: with events on record, only a turn_end gives the answer (the seed commits an empty
    // finalContent that a crashed run never overwrites); a file without events has only the state to go by.
    if (!run.finalAnswer && run.events.empty()) {
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
        // A run holds one such tree per iteration, together as large as its history: let them go as they are read.
        run.source->trimResidentPages(io::kPassResidentBytes);
    }
    for (CallRecord &call : run.calls)
        if (auto it = branchByIteration.find(call.epoch); it != branchByIteration.end())
            call.cacheGateBranch = it->second;
}

} // namespace tf::recording::detail
