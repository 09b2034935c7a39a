#include "commands.h"

#include <algorithm>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

void printUsage(std::ostream &out)
{
    out << "usage: tracefold-cli COMMAND [ARGS]\n"
           "\n"
           "commands:\n"
           "  conform findings FILE.jsonl    run the findings conformance vectors\n"
           "  conform commitlog FILE.jsonl   run the commit-log fold conformance vectors\n"
           "  inspect FILE [--json]          the per-call summary of a recording\n"
           "  audit FILE [--json] [--fail-on warning|error]   what went wrong in the run, by rule;\n"
           "                                 exit 1 when a problem at or above the fail-on severity (error) is found\n"
           "  generate --calls N --seed S -o FILE   write a synthetic recording (see README)\n"
           "  report FILE -o OUT.html [--pdf OUT.pdf] [--detail all|relevant] [--baseline OTHER]\n"
           "                                 the reviewer's report (see README)\n"
           "  search FILE TEXT [--json] [-i] [--responses]   the calls whose served context contains TEXT;\n"
           "                                 --responses: their responses, tool call arguments and answers too\n"
           "  diff A B [--json]              where two runs of one task first went apart (exit 1: they differ)\n"
           "  follow FILE [--json] [--idle-exit S]   print each call of a run in progress as its response is\n"
           "                                 written, then the outcome (Ctrl+C or S seconds without growth ends it)\n"
           "  unpack FILE -o OUT             write the plain recording a packed one stands for\n"
           "  --version                      print the version\n";
}

// `conform KIND FILE.jsonl`: the findings or the commit-log fold vectors.
int conform(const std::vector<std::string> &args)
{
    const std::vector<std::string> rest(args.begin() + std::min<std::size_t>(1, args.size()), args.end());
    if (!args.empty() && args[0] == "findings")
        return tf::cli::conformFindings(rest);
    if (!args.empty() && args[0] == "commitlog")
        return tf::cli::conformCommitLog(rest);
    std::cerr << "usage: tracefold-cli conform findings|commitlog FILE.jsonl\n";
    return 2;
}

} // namespace

int main(int argc, char **argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        printUsage(args.empty() ? std::cerr : std::cout);
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version") {
        std::cout << "tracefold-cli " << TRACEFOLD_VERSION << '\n';
        return 0;
    }
    const std::string command = args[0];
    using Run = int (*)(const std::vector<std::string> &);
    static const std::pair<std::string_view, Run> kCommands[] = {
        {"conform", conform},        {"inspect", tf::cli::inspect},
        {"audit", tf::cli::audit},   {"generate", tf::cli::generate},
        {"report", tf::cli::report}, {"search", tf::cli::search},
        {"diff", tf::cli::diff},     {"follow", tf::cli::follow},
        {"unpack", tf::cli::unpack}};
    const auto *found =
        std::find_if(std::begin(kCommands), std::end(kCommands), [&](const auto &c) { return c.first == command; });
    if (found != std::end(kCommands)) {
        // `COMMAND --help` asks for help, not for a file named --help.
        if (args.size() == 2 && (args[1] == "--help" || args[1] == "-h")) {
            printUsage(std::cout);
            return 0;
        }
        return found->second(std::vector<std::string>(args.begin() + 1, args.end()));
    }
    std::cerr << "tracefold-cli: unknown command '" << command << "'\n";
    printUsage(std::cerr);
    return 2;
}
