// Fold timings: the reference sample's 53-row log, and a synthetic 100,000-row delta log where each row appends one
// message to `history` (the shape of a long agent run). Prints figures; not a test.

#include "core/json/parser.h"
#include "core/json/writer.h"
#include "core/recording/commitlogfold.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace tf;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The synthetic log as a recording holds it: JSON text, one seed row setting 30 keys, then delta rows.
std::string syntheticLog(std::size_t rows)
{
    std::string out = R"([{"idx":0,"stage":"Initialize","stageId":"seed","runtimeStageId":"seed#0","trace":[)";
    std::string overwrite = R"("history":[])";
    out += R"({"path":"history","verb":"set"})";
    for (int k = 0; k < 30; ++k) {
        out += R"(,{"path":"key)" + std::to_string(k) + R"(","verb":"set"})";
        overwrite += R"(,"key)" + std::to_string(k) + R"(":{"n":)" + std::to_string(k) + "}";
    }
    out += R"(],"overwrite":{)" + overwrite + R"(},"updates":{},"redactedPaths":[]})";
    for (std::size_t i = 1; i < rows; ++i) {
        const std::string n = std::to_string(i);
        out += R"(,{"idx":)" + n + R"(,"stage":"CallLLM","stageId":"call-llm","runtimeStageId":"call-llm#)" + n +
               R"(","trace":[{"path":"history","verb":"append"},{"path":"iteration","verb":"set"}],)"
               R"("overwrite":{"history":[{"role":"assistant","content":"message )" +
               n + R"( with some text in it"}],"iteration":)" + n + R"(},"updates":{},"redactedPaths":[]})";
    }
    return out + "]";
}

json::Value parseOrDie(const std::string &text, json::StringArena &arena)
{
    json::ParseError error;
    json::Value v = json::parse(text, arena, error);
    if (error.failed()) {
        std::fprintf(stderr, "parse failed: %s\n", error.describe().c_str());
        std::exit(1);
    }
    return v;
}

} // namespace

int main(int argc, char **argv)
{
    // Run from the source tree, or pass the sample's path.
    const std::string samplePath =
        argc > 1 ? argv[1] : std::string("tests/data/samples/agentfootprint-reference-agent-findings.json");
    {
        std::ifstream in(samplePath, std::ios::binary);
        std::ostringstream ss;
        ss << in.rdbuf();
        const std::string text = ss.str();
        json::StringArena arena;
        const json::Value sample = parseOrDie(text, arena);
        const json::Value *log = sample.findArray("commitLog");
        if (!log) {
            std::fprintf(stderr, "%s: no commitLog\n", samplePath.c_str());
            return 1;
        }
        constexpr int kRepeats = 1000;
        const auto start = Clock::now();
        std::size_t keys = 0;
        for (int r = 0; r < kRepeats; ++r) {
            recording::CommitLogFold fold(nullptr);
            for (const json::Value &row : *log)
                fold.apply(row);
            keys += fold.state().memberCount();
        }
        std::printf("reference sample: %zu rows, %.1f us per fold (mean of %d), %zu keys at the end\n", log->size(),
                    msSince(start) * 1000.0 / kRepeats, kRepeats, keys / kRepeats);
    }
    {
        constexpr std::size_t kRows = 100000;
        const std::string text = syntheticLog(kRows);
        json::StringArena arena;
        auto start = Clock::now();
        const json::Value log = parseOrDie(text, arena);
        const double parseMs = msSince(start);

        start = Clock::now();
        recording::CommitLogFold fold(nullptr);
        for (const json::Value &row : log)
            fold.apply(row);
        const double foldMs = msSince(start);
        const std::size_t historyLength = fold.state().find("history")->size();

        // The loader's worst case: a snapshot of the whole state kept after every row.
        start = Clock::now();
        recording::CommitLogFold snapshotted(nullptr);
        std::vector<json::Value> snapshots;
        snapshots.reserve(kRows);
        for (const json::Value &row : log) {
            snapshotted.apply(row);
            snapshots.push_back(snapshotted.state());
        }
        const double snapshotMs = msSince(start);
        // From row 1 on, every append extends one array node. (Row 0's [] is the log's own node, which the first
        // fold above already extended, so the first append here copies its zero visible items once.)
        const bool sharedHistory =
            snapshots[1].find("history")->identity() == snapshots.back().find("history")->identity();

        std::printf("synthetic delta log: %zu rows (%.1f MB JSON), parse %.1f ms, fold %.1f ms (%.2f us/row), "
                    "history %zu messages\n",
                    kRows, double(text.size()) / 1e6, parseMs, foldMs, foldMs * 1000.0 / double(kRows), historyLength);
        std::printf("  with a whole-state snapshot kept after every row: %.1f ms; snapshots 1 and %zu share one "
                    "history array: %s; snapshot 500 sees %zu messages\n",
                    snapshotMs, kRows - 1, sharedHistory ? "yes" : "no", snapshots[500].find("history")->size());
    }
    return 0;
}
