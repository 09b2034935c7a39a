#pragma once

#include "gap.h"

#include "core/json/value.h"

#include <string_view>

// Redacted runs (spec/upstream-since-9.113.md §4, agentfootprint 9.140). A run served under a redaction policy
// carries the recorder row {"id":"agentfootprint.redaction", …} in snapshot.recorders; only then is a value that is
// exactly REDACTED or [REDACTED] a placeholder the policy put there. Without the row those strings are text.
namespace tf::recording {

inline constexpr std::string_view kRedactionRecorderId = "agentfootprint.redaction";

// Whether snapshot.recorders (any JSON value) lists the redaction row.
bool listsRedactionRecorder(const json::Value &recorders);
bool isRedactionPlaceholder(const json::Value &v);
// Whether any string value at any depth (member names aside) is a placeholder.
bool holdsRedactionPlaceholder(const json::Value &v);

// The run-level note a redacted run carries (inspect --json "gaps", the summary bar's chips).
Gap redactedRunGap();

} // namespace tf::recording
