#include "runaudit.h"

#include "core/json/jsnumber.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tf::audit {

namespace {

using recording::CallSummary;
using recording::Run;

// Appends problems rule by rule; auditRun orders them at the end.
class ProblemList
{
public:
    void add(AuditRule rule, std::optional<std::size_t> call, std::string message, std::string part = {})
    {
        m_problems.push_back({rule, auditRuleSeverity(rule), call, std::move(part), std::move(message)});
    }
    std::vector<Problem> take() &&
    {
        // Run-level first, then by call; rule order within a call (and record order within a rule) is kept.
        std::stable_sort(m_problems.begin(), m_problems.end(), [](const Problem &a, const Problem &b) {
            const auto key = [](const Problem &p) { return p.call ? *p.call + 1 : 0; };
            if (key(a) != key(b))
                return key(a) < key(b);
            return int(a.rule) < int(b.rule);
        });
        return std::move(m_problems);
    }

private:
    std::vector<Problem> m_problems;
};

std::string quoted(std::string_view s)
{
    return "\u201C" + std::string(s) + "\u201D";
}

std::string toolName(const CallSummary::ToolResultBrief &t)
{
    return (t.name.empty() ? std::string("a tool") : t.name) + " (" + t.id + ")";
}

// A gap or a TTL to a tenth of its unit: "42.5 s", "6.4 min", "1 h".
std::string minutes(double ms)
{
    const auto tenths = [](double v, const char *unit) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "%.1f", v);
        std::string s = buf;
        if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0)
            s.resize(s.size() - 2);
        return s + " " + unit;
    };
    if (ms < 60'000)
        return tenths(ms / 1000, "s");
    if (ms < 3'600'000)
        return tenths(ms / 60'000, "min");
    return tenths(ms / 3'600'000, "h");
}

std::string toolIds(const std::vector<std::string> &ids)
{
    std::string out;
    for (const std::string &id : ids)
        out += (out.empty() ? "" : ", ") + std::string("tool:") + id;
    return out;
}

// run-failed, run-incomplete, paused: how the run ended (spec/runs.md §4).
void outcomeRules(const Run &run, ProblemList &out)
{
    const recording::RunOutcome &o = run.outcome;
    switch (o.status) {
    case recording::OutcomeStatus::Failed:
        out.add(AuditRule::RunFailed, std::nullopt,
                o.message.value_or("an error.fatal event is on record without an error message"));
        break;
    case recording::OutcomeStatus::Paused:
        out.add(AuditRule::Paused, o.call,
                "the run paused for a human" + (o.message ? ": " + *o.message : std::string()));
        break;
    case recording::OutcomeStatus::Incomplete:
        // A file with no event stream (a byte-identity reference) cannot say how the run went; that is not damage.
        // Nor is a run still being written (a followed log), or one whose end is not read yet (a preview).
        if (!run.events.empty() && !run.live && !run.preview)
            out.add(AuditRule::RunIncomplete, std::nullopt,
                    "the recording stops mid-run: " + o.message.value_or("no turn ended"));
        break;
    case recording::OutcomeStatus::Completed:
        break;
    }
}

// no-response, receipt-damaged, tool-error, tool-never-returned, ttl-gap: one call at a time.
void callRules(const Run &run, std::span<const CallSummary> calls, ProblemList &out)
{
    for (const CallSummary &c : calls) {
        const recording::CallRecord &record = run.calls[c.ordinal];
        // spec/runs.md §2: an llm_start with no llm_end. Without the llm_start (no event stream) nothing is known.
        if (record.llmStartEvent && !c.response) {
            std::string message = "no response on record: the call's llm_start has no llm_end";
            if (run.outcome.status == recording::OutcomeStatus::Failed && run.outcome.call == c.ordinal)
                message += "; the run failed at this call";
            out.add(AuditRule::NoResponse, c.ordinal, std::move(message));
        }
        for (const recording::PartCheck &check : c.checks())
            if (check.badge == recording::Badge::Damaged)
                out.add(AuditRule::ReceiptDamaged, c.ordinal, check.reason, check.part);
        for (const CallSummary::ToolResultBrief &t : c.toolResults) {
            if (t.error)
                out.add(AuditRule::ToolError, c.ordinal,
                        toolName(t) + " threw; the model was served the error" +
                            (t.errorText.empty() ? std::string() : ": " + t.errorText));
            // In a run still being written the last call's tools may be running now.
            else if (!t.returned && !t.awaitingHuman && !(run.live && c.ordinal + 1 == calls.size()))
                out.add(AuditRule::ToolNeverReturned, c.ordinal,
                        toolName(t) + " started and never returned: " + t.missingReason);
        }
        if (c.pastTtl && c.gapMs)
            out.add(AuditRule::TtlGap, c.ordinal,
                    minutes(*c.gapMs) + " since the previous call, past the cache TTL of " + minutes(c.ttlMs) +
                        ": the cached prefix has likely expired");
    }
}

// limit-hit, budget-pressure: the limits the run story read from the events.
void limitRules(const Run &run, ProblemList &out)
{
    for (const recording::RunLimit &l : run.limits) {
        const bool pressure = l.kind == "context.budget_pressure";
        out.add(pressure ? AuditRule::BudgetPressure : AuditRule::LimitHit, l.call,
                l.kind + (l.message.empty() ? std::string() : ": " + l.message));
    }
}

// cache-rewrite-streak: calls that wrote the cache because the prefix could not be reused, three or more in a row.
void cacheRules(std::span<const CallSummary> calls, ProblemList &out)
{
    constexpr std::size_t kMinStreak = 3;
    const auto rewrote = [](const CallSummary &c) { return c.cacheWrite.value_or(0) > 0 && c.prefixReusable == false; };
    for (std::size_t i = 0; i < calls.size();) {
        if (!rewrote(calls[i])) {
            ++i;
            continue;
        }
        std::size_t end = i;
        double written = 0;
        while (end < calls.size() && rewrote(calls[end]))
            written += *calls[end++].cacheWrite;
        const std::size_t length = end - i;
        if (length >= kMinStreak)
            out.add(AuditRule::CacheRewriteStreak, calls[i].ordinal,
                    "calls " + std::to_string(calls[i].ordinal + 1) + "\u2013" +
                        std::to_string(calls[end - 1].ordinal + 1) + ": " + std::to_string(length) +
                        " calls in a row wrote the cache and could not reuse the prefix, " +
                        json::jsNumberToString(written) + " tokens written");
        i = end;
    }
}

// conflict-at-answer, evidence-collapsed, contingent-at-answer, undeclared-at-answer: what the answer rests on.
void answerRules(const report::Backtrack &bt, ProblemList &out)
{
    if (!bt.answer || !bt.finalOrdinal)
        return;
    const std::size_t call = *bt.finalOrdinal;
    if (!bt.conflictsAtFinal.empty()) {
        std::string subjects;
        for (const std::string &s : bt.conflictsAtFinal)
            subjects += (subjects.empty() ? "" : "; ") + s;
        const std::size_t n = bt.conflictsAtFinal.size();
        out.add(AuditRule::ConflictAtAnswer, call,
                std::to_string(n) + (n == 1 ? " conflict stands" : " conflicts stand") +
                    " unresolved in the final ledger: " + subjects);
    }
    // Eviction is only proven where the answering call's history is on record.
    if (bt.finalHistoryOnRecord)
        for (const report::BacktrackValue &v : bt.values) {
            const bool unserved =
                !v.sources.empty() && std::all_of(v.sources.begin(), v.sources.end(), [](const report::ValueSource &s) {
                    return s.ticketAtAnswer || !s.resultMessage;
                });
            if (!unserved)
                continue;
            std::string where;
            for (const report::ValueSource &s : v.sources)
                where += (where.empty() ? "" : ", ") + std::string("tool:") + s.toolCallId +
                         (s.ticketAtAnswer ? " (collapsed to a ticket)" : " (no longer in the history)");
            out.add(AuditRule::EvidenceCollapsed, call,
                    "the answer uses " + quoted(v.value) +
                        ", which rests only on results not served to it in full: " + where);
        }
    for (const report::ContingentUse &use : bt.contingent) {
        std::string carriers;
        for (const report::ContingentUse::Carrier &c : use.carriers)
            carriers += (carriers.empty() ? "" : ", ") + std::string("tool:") + c.toolCallId + " (" + c.standing + ")";
        out.add(AuditRule::ContingentAtAnswer, call,
                "the answer used " + quoted(use.value) + " only from results the model had set aside: " +
                    (carriers.empty() ? std::string("no carrier named") : carriers));
    }
    if (!bt.undeclaredAtFinal.empty()) {
        const std::size_t n = bt.undeclaredAtFinal.size();
        out.add(AuditRule::UndeclaredAtAnswer, call,
                std::to_string(n) + (n == 1 ? " result was" : " results were") +
                    " served to the answer call in full and never declared: " + toolIds(bt.undeclaredAtFinal));
    }
}

} // namespace

std::vector<Problem> auditRun(const Run &run, std::span<const CallSummary> calls, const report::Backtrack &backtrack)
{
    ProblemList out;
    outcomeRules(run, out);
    callRules(run, calls, out);
    limitRules(run, out);
    cacheRules(calls, out);
    answerRules(backtrack, out);
    return std::move(out).take();
}

std::vector<Problem> auditRun(const Run &run, std::span<const CallSummary> calls)
{
    return auditRun(run, calls, report::backtrackAnswer(run));
}

ProblemCounts countProblems(const std::vector<Problem> &problems)
{
    ProblemCounts n;
    for (const Problem &p : problems)
        ++(p.severity == Severity::Error ? n.errors : p.severity == Severity::Warning ? n.warnings : n.infos);
    return n;
}

std::vector<std::optional<Severity>> worstSeverityByCall(const std::vector<Problem> &problems, std::size_t callCount)
{
    std::vector<std::optional<Severity>> out(callCount);
    for (const Problem &p : problems)
        if (p.call && *p.call < callCount && (!out[*p.call] || atLeast(p.severity, *out[*p.call])))
            out[*p.call] = p.severity;
    return out;
}

} // namespace tf::audit
