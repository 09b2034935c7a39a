// `tracefold-cli diff A B [--json]`: where two runs of one task first went apart (issue 19).
#include "cliio.h"
#include "commands.h"

#include "core/compare/rundiff.h"
#include "core/json/writer.h"
#include "core/recording/recordingloader.h"
#include "core/report/diffreport.h"

#include <iostream>

namespace tf::cli {

int diff(const std::vector<std::string> &args)
{
    const char *usage = "usage: tracefold-cli diff A B [--json]\n";
    bool asJson = false;
    std::vector<std::string> positional;
    for (const std::string &a : args) {
        if (a == "--json")
            asJson = true;
        else if (a.size() > 1 && a[0] == '-') {
            std::cerr << usage;
            return 2;
        } else
            positional.push_back(a);
    }
    if (positional.size() != 2) {
        std::cerr << usage;
        return 2;
    }
    const recording::LoadResult a = recording::loadRecording(positional[0]);
    if (!a.run) {
        errorLine(a.error);
        return 2;
    }
    const recording::LoadResult b = recording::loadRecording(positional[1]);
    if (!b.run) {
        errorLine(b.error);
        return 2;
    }
    const compare::RunDiff result = compare::compareRuns(*a.run, *b.run);
    if (asJson)
        std::cout << json::prettyPrint(report::diffJson(*a.run, *b.run, result)) << '\n';
    else
        std::cout << report::diffText(*a.run, *b.run, result);
    return result.same() ? 0 : 1;
}

} // namespace tf::cli
