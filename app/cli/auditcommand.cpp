// `tracefold-cli audit`: what went wrong in a run, by rule, for a terminal or a CI job.
#include "cliio.h"
#include "commands.h"

#include "core/audit/auditreport.h"
#include "core/audit/runaudit.h"
#include "core/json/writer.h"
#include "core/recording/recordingloader.h"

#include <iostream>

namespace tf::cli {

int audit(const std::vector<std::string> &args)
{
    const char *usage = "usage: tracefold-cli audit FILE [--json] [--fail-on warning|error]\n";
    bool asJson = false;
    audit::Severity failOn = audit::Severity::Error;
    std::string path;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (a == "--json") {
            asJson = true;
        } else if (a == "--fail-on" && i + 1 < args.size()) {
            const std::optional<audit::Severity> s = audit::severityFromId(args[++i]);
            if (!s || *s == audit::Severity::Info) {
                std::cerr << usage;
                return 2;
            }
            failOn = *s;
        } else if (path.empty() && !a.empty() && a.front() != '-') {
            path = a;
        } else {
            std::cerr << usage;
            return 2;
        }
    }
    if (path.empty()) {
        std::cerr << usage;
        return 2;
    }
    const recording::LoadResult loaded = recording::loadRecording(path);
    if (!loaded.run) {
        errorLine(loaded.error);
        return 2;
    }
    const recording::Run &run = *loaded.run;
    const std::vector<audit::Problem> problems = audit::auditRun(run, recording::summarizeCalls(run));
    if (asJson)
        std::cout << json::prettyPrint(audit::auditJson(run, problems)) << '\n';
    else
        std::cout << audit::auditText(run, problems);
    for (const audit::Problem &p : problems)
        if (audit::atLeast(p.severity, failOn))
            return 1;
    return 0;
}

} // namespace tf::cli
