#pragma once

#include "auditrule.h"

#include <cstddef>
#include <optional>
#include <string>

namespace tf::audit {

// One thing the audit can tell from the record, and the call it points at.
struct Problem
{
    AuditRule rule = AuditRule::RunFailed;
    Severity severity = Severity::Error; // auditRuleSeverity(rule)
    std::optional<std::size_t> call;     // 0-based; nullopt: the run as a whole
    std::string part;                    // the receipt part ("messages[2]"); empty when the rule names none
    // One line, WTF-8. It quotes the recording (an error text, a tool name, a value), so it is untrusted: escape it
    // in every export, print it with text::printableLine, never let Qt read it as rich text.
    std::string message;

    bool operator==(const Problem &) const = default;
};

} // namespace tf::audit
