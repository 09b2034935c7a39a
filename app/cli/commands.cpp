#include "commands.h"
#include "cliio.h"

#include "core/conformance/commitlogconformance.h"
#include "core/conformance/conformancereport.h"
#include "core/conformance/findingsconformance.h"
#include "core/generate/recordinggenerator.h"
#include "core/json/writer.h"
#include "core/recording/recordingloader.h"
#include "core/report/inspectreport.h"

#include <charconv>
#include <cstdio>
#include <fstream>
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
        else if (path.empty() && !a.starts_with('-')) // an unknown option is not a file (./-name is)
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
        errorLine(loaded.error);
        return 2;
    }
    const auto calls = recording::summarizeCalls(*loaded.run);
    // Built in full before a byte is printed: the strings in it are read from the file, which may change meanwhile.
    const std::vector<std::string> document =
        asJson ? report::inspectJsonPieces(*loaded.run, calls) : std::vector{report::inspectTable(*loaded.run, calls)};
    if (changedWhileRead(*loaded.run))
        return 2;
    for (const std::string &piece : document)
        std::cout.write(piece.data(), std::streamsize(piece.size()));
    return 0;
}

namespace {

bool parseNumber(const std::string &text, unsigned long long &out)
{
    const char *end = text.data() + text.size();
    return !text.empty() && std::from_chars(text.data(), end, out).ptr == end;
}

} // namespace

int generate(const std::vector<std::string> &args)
{
    const char *usage = "usage: tracefold-cli generate --calls N --seed S -o FILE [--result-bytes B]\n"
                        "       [--no-iteration-history] [--history-window W] [--turn-calls T]\n"
                        "       [--damage message|piece|schema --damage-call K]\n";
    generate::GeneratorOptions options;
    std::string output;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        const bool hasValue = i + 1 < args.size();
        unsigned long long value = 0;
        if ((a == "--calls" || a == "--seed" || a == "--result-bytes" || a == "--damage-call" ||
             a == "--history-window" || a == "--turn-calls") &&
            hasValue && parseNumber(args[i + 1], value)) {
            ++i;
            if (a == "--calls")
                options.calls = int(std::min<unsigned long long>(value, 10'000'000));
            else if (a == "--seed")
                options.seed = value;
            else if (a == "--result-bytes")
                options.resultBytes = std::size_t(value);
            else if (a == "--history-window")
                options.historyWindow = std::size_t(value);
            else if (a == "--turn-calls")
                options.turnCalls = int(std::min<unsigned long long>(value, 1'000'000));
            else
                options.damage.call = int(value);
        } else if (a == "--damage" && hasValue) {
            const std::string &kind = args[++i];
            if (kind == "message")
                options.damage.kind = generate::Damage::Kind::MessageByte;
            else if (kind == "piece")
                options.damage.kind = generate::Damage::Kind::PieceRow;
            else if (kind == "schema")
                options.damage.kind = generate::Damage::Kind::SchemaByte;
            else {
                std::cerr << usage;
                return 2;
            }
        } else if (a == "--no-iteration-history") {
            options.historyInIterationEnd = false;
        } else if ((a == "-o" || a == "--output") && hasValue) {
            output = args[++i];
        } else {
            std::cerr << usage;
            return 2;
        }
    }
    if (output.empty() || options.calls < 1) {
        std::cerr << usage;
        return 2;
    }
    // Written beside the target and renamed, so a reader never sees half a recording.
    const std::string temporary = output + ".partial";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out) {
            std::cerr << output << ": cannot write\n";
            return 2;
        }
        generate::writeRecording(out, options);
        out.flush();
        if (!out) {
            std::cerr << output << ": write failed\n";
            std::remove(temporary.c_str());
            return 2;
        }
    }
    if (std::rename(temporary.c_str(), output.c_str()) != 0) {
        std::cerr << output << ": cannot rename the written file into place\n";
        return 2;
    }
    return 0;
}

} // namespace tf::cli
