#pragma once

#include <optional>
#include <string_view>

namespace tf::audit {

// How much a problem matters. Ordered: a lower value is more severe (Error < Warning < Info).
enum class Severity
{
    Error,
    Warning,
    Info
};
const char *severityId(Severity severity);                   // "error", "warning", "info"
std::optional<Severity> severityFromId(std::string_view id); // the inverse; nullopt for anything else
inline bool atLeast(Severity severity, Severity threshold)   // as severe as `threshold`, or more
{
    return int(severity) <= int(threshold);
}

// The audit's rules (issue 20). Their ids are part of the interface (CLI, JSON, the README), in this order: the
// order problems of one call are listed in.
enum class AuditRule
{
    RunFailed,
    RunIncomplete,
    NoResponse,
    ReceiptDamaged,
    ToolError,
    ToolNeverReturned,
    LimitHit,
    BudgetPressure,
    CacheRewriteStreak,
    TtlGap,
    Paused,
    ConflictAtAnswer,
    EvidenceCollapsed,
    ContingentAtAnswer,
    UndeclaredAtAnswer,
};
inline constexpr int kAuditRuleCount = int(AuditRule::UndeclaredAtAnswer) + 1;

const char *auditRuleId(AuditRule rule); // "run-failed", "no-response", ...
Severity auditRuleSeverity(AuditRule rule);
// One sentence: when the rule fires (the README's condition, shortened), for tooltips and the report's legend.
const char *auditRuleCondition(AuditRule rule);

} // namespace tf::audit
