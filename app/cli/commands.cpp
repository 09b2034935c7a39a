#include "commands.h"

#include "core/conformance/commitlogconformance.h"
#include "core/conformance/conformancereport.h"
#include "core/conformance/findingsconformance.h"
#include "core/json/writer.h"
#include "core/recording/recordingloader.h"
#include "core/report/inspectreport.h"

#include <iostream>

namespace tf::cli {

namespace {

int runConformance(const std::vector<std::string> &args, const char *what,
                   conformance::Summary (*run)(const std::string &, std::ostream &))
{
    if (args.size() != 1) {
        std::cerr << "usage: tracefold-cli conform " << what << " FILE.jsonl\n";
        return 2;
    }
    const conformance::Summary summary = run(args[0], std::cout);
    if (!summary.error.empty()) {
        std::cerr << summary.error << '\n';
        return 2;
    }
    std::cout << summary.passed << " passed, " << summary.failed << " failed\n";
    return summary.failed == 0 ? 0 : 1;
}

} // namespace

int conformFindings(const std::vector<std::string> &args)
{
    return runConformance(args, "findings", &conformance::runFindingsVectors);
}

int conformCommitLog(const std::vector<std::string> &args)
{
    return runConformance(args, "commitlog", &conformance::runCommitLogVectors);
}

int inspect(const std::vector<std::string> &args)
{
    bool asJson = false;
    std::string path;
    for (const std::string &a : args) {
        if (a == "--json")
            asJson = true;
        else if (path.empty())
            path = a;
        else {
            std::cerr << "usage: tracefold-cli inspect FILE [--json]\n";
            return 2;
        }
    }
    if (path.empty()) {
        std::cerr << "usage: tracefold-cli inspect FILE [--json]\n";
        return 2;
    }
    const recording::LoadResult loaded = recording::loadRecording(path);
    if (!loaded.run) {
        std::cerr << loaded.error << '\n';
        return 2;
    }
    const auto calls = recording::summarizeCalls(*loaded.run);
    if (asJson)
        std::cout << json::prettyPrint(report::inspectJson(*loaded.run, calls)) << '\n';
    else
        std::cout << report::inspectTable(*loaded.run, calls);
    return 0;
}

} // namespace tf::cli
