#pragma once

#include "problem.h"

#include "core/json/value.h"
#include "core/recording/run.h"

#include <string>
#include <vector>

namespace tf::audit {

// `tracefold-cli audit FILE`: one line per problem, as a compiler prints diagnostics
// (`FILE: call 3: error: … [no-response]`), then the counts. Recording text is printed with text::printableLine.
std::string auditText(const recording::Run &run, const std::vector<Problem> &problems);

// `tracefold-cli audit FILE --json` (schema 1): {schema, file, problems: [{rule, severity, call, part?, message}]},
// `call` 1-based or null for the run.
json::Value auditJson(const recording::Run &run, const std::vector<Problem> &problems);

} // namespace tf::audit
