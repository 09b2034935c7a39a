#include "auditrule.h"

namespace tf::audit {

const char *severityId(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return "error";
    case Severity::Warning:
        return "warning";
    case Severity::Info:
        return "info";
    }
    return "info";
}

std::optional<Severity> severityFromId(std::string_view id)
{
    for (Severity s : {Severity::Error, Severity::Warning, Severity::Info})
        if (id == severityId(s))
            return s;
    return std::nullopt;
}

namespace {

struct RuleInfo
{
    const char *id;
    Severity severity;
    const char *condition;
};

// Indexed by AuditRule.
constexpr RuleInfo kRules[kAuditRuleCount] = {
    {"run-failed", Severity::Error, "An agentfootprint.error.fatal event is on record: the run failed."},
    {"run-incomplete", Severity::Warning,
     "Events are on record, but no fatal error, no pause and no turn_end of the last turn: the recording stops "
     "mid-run."},
    {"no-response", Severity::Error, "The call's llm_start is on record and no llm_end is: it has no response."},
    {"receipt-damaged", Severity::Error,
     "A part rebuilt for the call does not match what its receipt hashed (verification status damaged)."},
    {"tool-error", Severity::Warning,
     "A tool the call's response asked for threw (tool_end.error); the model was "
     "served the error text."},
    {"tool-never-returned", Severity::Warning,
     "A tool the call's response asked for started and has no tool_end, and is not the tool a paused run waits on."},
    {"limit-hit", Severity::Warning,
     "A budget_exhausted or cost.limit_hit event, or a route_decided that chose wrap-up, is on record at the call."},
    {"budget-pressure", Severity::Warning,
     "A context.budget_pressure event is on record before the call it was composed for."},
    {"cache-rewrite-streak", Severity::Warning,
     "Three or more consecutive calls each wrote the cache (cacheWrite > 0) and could not reuse the prefix."},
    {"ttl-gap", Severity::Info,
     "The wall clock since the previous call exceeds the cache TTL (5 min; 1 h for a "
     "long marker)."},
    {"paused", Severity::Info, "The run ended paused for a human (a pause.request with no later pause.resume)."},
    {"conflict-at-answer", Severity::Warning,
     "The answer is on record and the final ledger's fold holds a conflict (two fact results disagree)."},
    {"evidence-collapsed", Severity::Warning,
     "A fact value the answer uses rests only on results the answer call was served as collapse tickets, or no "
     "longer held in its history."},
    {"contingent-at-answer", Severity::Warning,
     "A contingent row declared on the answer: the model used a value only from results it had set aside."},
    {"undeclared-at-answer", Severity::Info,
     "On an armed run, results were served in full to the answer call that no standing of the ledger names."},
};

const RuleInfo &info(AuditRule rule)
{
    const int i = int(rule);
    return kRules[i >= 0 && i < kAuditRuleCount ? i : 0];
}

} // namespace

const char *auditRuleId(AuditRule rule)
{
    return info(rule).id;
}

Severity auditRuleSeverity(AuditRule rule)
{
    return info(rule).severity;
}

const char *auditRuleCondition(AuditRule rule)
{
    return info(rule).condition;
}

} // namespace tf::audit
