// tracefold-bench: the performance figures of docs/performance.md, measured side by side in one run.
//
//   tracefold-bench [--workdir DIR] [--calls 1300,5000] [--runs 3] [--sizes 100,1000] [--switch-calls 100000]
//                   [--cli PATH] [--no-node] [--quick] [--diff-only] [--follow-calls N]
//
// First the many-call runs (issue 18): for each call count a run of that many calls with a sliding history
// (`generate --calls C --seed 7 --history-window 40 --turn-calls 50`), and on it, --runs times alternately, Node's
// JSON.parse and `tracefold-cli inspect --json`: wall and CPU (user + sys) time of each, their ratio, and peak RSS.
// The machine may be shared: the ranges over the runs are printed, and CPU time says what the work cost whatever
// else ran. Then for each size (MB) it generates a recording of a few huge tool results (deterministic, reused when
// already in DIR), then times, on the same
// warm file: a plain read of the file (the floor), Node's JSON.parse (what agentfootprint and its web viewer run
// on), and `tracefold-cli inspect --json` (Tracefold's whole index: load, fold, rebuild and verify every call).
// Peak resident memory of each child comes from wait4(). Then it loads a run of --switch-calls calls and times
// switching to random calls (the core per-call view), then the findings pieces composed per second, and finally
// `tracefold-cli diff A B` against `inspect` of both on two ~100 MB runs of 1,300 calls (--diff-only: only that).
// Following (--follow-calls N, 0 to skip): a run of N calls written as the library's event log sink writes it, four
// fifths on disk when following starts, then 20 lines at a time; each poll's wall time, and the part of it that
// grows with the whole log (publishing the snapshot: LogFollower::Update::rebuildMs), which paces the next poll.
// Nothing here passes or fails; it prints a table.

#include "core/findings/findingspiece.h"
#include "core/generate/recordinggenerator.h"
#include "core/json/parser.h"
#include "core/json/writer.h"
#include "core/recording/callview.h"
#include "core/recording/logfollower.h"
#include "core/recording/recordingloader.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

struct ChildResult
{
    double wallMs = 0;
    double cpuMs = 0; // user + sys, every thread
    long maxRssKb = 0;
    int status = -1;
};

double ms(const timeval &t)
{
    return double(t.tv_sec) * 1e3 + double(t.tv_usec) / 1e3;
}

// Runs argv with stdout to /dev/null; wall time and the child's peak RSS.
ChildResult runChild(const std::vector<std::string> &argv)
{
    ChildResult r;
    const auto t0 = Clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        const int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 1);
        std::vector<char *> args;
        for (const std::string &a : argv)
            args.push_back(const_cast<char *>(a.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
        _exit(127);
    }
    int status = 0;
    struct rusage usage {};
    wait4(pid, &status, 0, &usage);
    r.wallMs = msSince(t0);
    r.cpuMs = ms(usage.ru_utime) + ms(usage.ru_stime);
    r.maxRssKb = usage.ru_maxrss;
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

ChildResult bestOf(int runs, const std::vector<std::string> &argv)
{
    ChildResult best;
    for (int i = 0; i < runs; ++i) {
        const ChildResult r = runChild(argv);
        if (i == 0 || r.wallMs < best.wallMs)
            best = r;
    }
    return best;
}

double plainReadMs(const std::string &path)
{
    double best = 1e30;
    std::vector<char> buffer(1 << 20);
    for (int i = 0; i < 3; ++i) {
        const auto t0 = Clock::now();
        const int fd = open(path.c_str(), O_RDONLY);
        while (read(fd, buffer.data(), buffer.size()) > 0) {
        }
        close(fd);
        best = std::min(best, msSince(t0));
    }
    return best;
}

std::size_t fileSize(const std::string &path)
{
    struct stat st {};
    return stat(path.c_str(), &st) == 0 ? std::size_t(st.st_size) : 0;
}

// Grows the run until the file reaches the target size; results of ~60 KB keep the call count realistic.
std::string ensureRecording(const std::string &dir, std::size_t targetMb)
{
    const std::string path = dir + "/bench-" + std::to_string(targetMb) + "mb.json";
    if (fileSize(path) > 0)
        return path;
    tf::generate::GeneratorOptions options;
    options.seed = 1000 + targetMb;
    options.resultBytes = 60000;
    options.historyInIterationEnd = false;
    options.historyWindow = 48;
    // About 1.2 MB per call at these settings (each eviction rewrites the 48-message window); generated once.
    options.calls = int(std::max<std::size_t>(4, targetMb * 1000 / 1200));
    std::ofstream out(path, std::ios::binary);
    tf::generate::writeRecording(out, options);
    return path;
}

// A run long in calls rather than in bytes: small results, no history in the iteration events, a short window.
tf::generate::GeneratorOptions longRunOptions(int calls, std::uint64_t seed, std::size_t resultBytes, int window,
                                              int turnCalls)
{
    tf::generate::GeneratorOptions options;
    options.seed = seed;
    options.calls = calls;
    options.resultBytes = resultBytes;
    options.historyInIterationEnd = false;
    options.historyWindow = std::size_t(window);
    options.turnCalls = turnCalls;
    return options;
}

std::string ensureLongRun(const std::string &dir, int calls)
{
    const std::string path = dir + "/bench-" + std::to_string(calls) + "calls.json";
    if (fileSize(path) > 0)
        return path;
    const auto options = longRunOptions(calls, 77, 300, 8, 25);
    std::ofstream out(path, std::ios::binary);
    tf::generate::writeRecording(out, options);
    return path;
}

// The runs `diff` is timed on: `generate --calls 1300 --seed S --history-window 40 --turn-calls 50`, about 100 MB,
// optionally with one tool result's byte changed at call `damageCall` (an edited copy of the same run).
std::string ensureDiffRun(const std::string &dir, std::uint64_t seed, int damageCall)
{
    const std::string path = dir + "/diff-seed" + std::to_string(seed) +
                             (damageCall ? "-edited" + std::to_string(damageCall) : std::string()) + ".json";
    if (fileSize(path) > 0)
        return path;
    tf::generate::GeneratorOptions options;
    options.calls = 1300;
    options.seed = seed;
    options.historyWindow = 40;
    options.turnCalls = 50;
    if (damageCall) {
        options.damage.kind = tf::generate::Damage::Kind::MessageByte;
        options.damage.call = damageCall;
    }
    std::ofstream out(path, std::ios::binary);
    tf::generate::writeRecording(out, options);
    return path;
}

// The many-call runs of issue 18: `generate --calls C --seed 7 --history-window 40 --turn-calls 50`.
std::string ensureManyCallRun(const std::string &dir, int calls)
{
    const std::string path = dir + "/calls" + std::to_string(calls) + "-seed7-window40.json";
    if (fileSize(path) > 0)
        return path;
    tf::generate::GeneratorOptions options;
    options.calls = calls;
    options.seed = 7;
    options.historyWindow = 40;
    options.turnCalls = 50;
    std::ofstream out(path, std::ios::binary);
    tf::generate::writeRecording(out, options);
    return path;
}

struct Range
{
    double low = 0, high = 0;
    bool any = false;
    void add(double v)
    {
        low = any ? std::min(low, v) : v;
        high = any ? std::max(high, v) : v;
        any = true;
    }
};

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const std::size_t i = std::min(v.size() - 1, std::size_t(p * double(v.size() - 1) + 0.5));
    return v[i];
}

std::string fmt(double v, int decimals = 1)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string fmtRange(const Range &r, int decimals = 0)
{
    if (!r.any)
        return "-";
    const std::string low = fmt(r.low, decimals), high = fmt(r.high, decimals);
    return low == high ? low : low + "–" + high;
}

const std::vector<std::string> kNodeParse = {"node", "--max-old-space-size=16000", "-e",
                                             "JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8'))"};

// A run of `calls` calls as an NDJSON event log (one event a line, as the fileObservability sink writes them): small
// results and a short history, so that the log is long in events rather than in bytes.
std::string ensureEventLog(const std::string &dir, int calls)
{
    const std::string path = dir + "/follow-" + std::to_string(calls) + "calls.ndjson";
    if (fileSize(path) > 0)
        return path;
    const std::string document = tf::generate::generateRecording(longRunOptions(calls, 7, 400, 12, 50));
    tf::json::StringArena arena;
    tf::json::ParseError error;
    const tf::json::Value root = tf::json::parse(document, arena, error);
    const tf::json::Value *events = error.failed() ? nullptr : root.findArray("events");
    std::ofstream out(path, std::ios::binary);
    for (std::size_t i = 0; events && i < events->size(); ++i)
        out << tf::json::stringify(events->at(i)) << '\n';
    return path;
}

void followTable(const std::string &workdir, int calls)
{
    const std::string source = ensureEventLog(workdir, calls);
    std::ifstream in(source, std::ios::binary);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        lines.push_back(line + '\n');
    const std::string path = workdir + "/followed.ndjson";
    const std::size_t onDiskAtStart = lines.size() * 4 / 5;
    std::size_t written = onDiskAtStart;
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        for (std::size_t i = 0; i < written; ++i)
            out << lines[i];
    }
    tf::recording::LogFollower follower(path);
    auto t0 = Clock::now();
    const auto first = follower.poll();
    const double firstMs = msSince(t0);
    std::vector<double> pollMs, rebuildMs, delayMs;
    constexpr std::size_t kLinesPerAppend = 20;
    while (written < lines.size()) {
        {
            std::ofstream out(path, std::ios::binary | std::ios::app);
            for (std::size_t end = std::min(lines.size(), written + kLinesPerAppend); written < end; ++written)
                out << lines[written];
        }
        t0 = Clock::now();
        const auto u = follower.poll();
        if (!u.run)
            continue; // a batch of lines with no event in it
        pollMs.push_back(msSince(t0));
        rebuildMs.push_back(u.rebuildMs);
        delayMs.push_back(tf::recording::LogFollower::nextPollDelayMs(100, u.rebuildMs));
        if (pollMs.size() >= 100)
            break;
    }
    const auto last = follower.poll(true);
    std::cout
        << "\n| following | lines on disk at start | first poll ms | calls | polls (20 lines each) | poll p50 ms | "
           "poll max ms | rebuild p50 ms | rebuild max ms | next poll after p50 ms | lines at the end |\n"
           "|---|---|---|---|---|---|---|---|---|---|---|\n"
        << "| " << source.substr(source.rfind('/') + 1) << " | " << onDiskAtStart << " | " << fmt(firstMs, 0) << " | "
        << (first.run ? first.calls.size() : 0) << " | " << pollMs.size() << " | " << fmt(percentile(pollMs, 0.5))
        << " | " << fmt(pollMs.empty() ? 0 : *std::max_element(pollMs.begin(), pollMs.end())) << " | "
        << fmt(percentile(rebuildMs, 0.5)) << " | "
        << fmt(rebuildMs.empty() ? 0 : *std::max_element(rebuildMs.begin(), rebuildMs.end())) << " | "
        << fmt(percentile(delayMs, 0.5), 0) << " | " << written << " |" << std::endl;
    if (!last.error.empty())
        std::cerr << last.error << '\n';
}

// inspect --json against Node's JSON.parse on the many-call runs, alternating, `runs` times each.
void manyCallTable(const std::string &workdir, const std::vector<int> &callCounts, int runs, bool node,
                   const std::string &cli)
{
    std::cout << "| run | size MB | node JSON.parse wall ms | node CPU ms | inspect --json wall ms | inspect CPU ms | "
                 "inspect / node, wall | inspect / node, CPU | inspect peak RSS MB | RSS / file |\n"
                 "|---|---|---|---|---|---|---|---|---|---|\n";
    for (int calls : callCounts) {
        const std::string path = ensureManyCallRun(workdir, calls);
        const double sizeMb = double(fileSize(path)) / 1e6;
        plainReadMs(path); // warm the page cache for both
        Range nodeWall, nodeCpu, wall, cpu, ratioWall, ratioCpu, rss;
        bool failed = false;
        for (int i = 0; i < runs; ++i) {
            std::vector<std::string> nodeArgs = kNodeParse;
            nodeArgs.push_back(path);
            const ChildResult n = node ? runChild(nodeArgs) : ChildResult{};
            const ChildResult t = runChild({cli, "inspect", "--json", path});
            failed = failed || t.status != 0;
            wall.add(t.wallMs);
            cpu.add(t.cpuMs);
            rss.add(double(t.maxRssKb) / 1024.0);
            if (node && n.status == 0) {
                nodeWall.add(n.wallMs);
                nodeCpu.add(n.cpuMs);
                ratioWall.add(t.wallMs / n.wallMs);
                ratioCpu.add(t.cpuMs / n.cpuMs);
            }
        }
        Range rssPerFile;
        rssPerFile.add(rss.low / (sizeMb / 1.048576));
        rssPerFile.add(rss.high / (sizeMb / 1.048576));
        std::cout << "| " << calls << " calls | " << fmt(sizeMb) << " | " << fmtRange(nodeWall) << " | "
                  << fmtRange(nodeCpu) << " | " << fmtRange(wall) << (failed ? " (failed)" : "") << " | "
                  << fmtRange(cpu) << " | **" << fmtRange(ratioWall, 2) << "** | " << fmtRange(ratioCpu, 2) << " | "
                  << fmtRange(rss) << " | " << fmtRange(rssPerFile, 2) << " |" << std::endl;
    }
    std::cout << "\n";
}

} // namespace

int main(int argc, char **argv)
{
    std::string workdir = "/tmp/tracefold-bench";
    std::vector<std::size_t> sizes = {100, 1000};
    std::vector<int> callCounts = {1300, 5000};
    int runs = 3;
    int switchCalls = 100000;
    bool quick = false;
    std::string switchFile; // time the core per-call view on this file instead of the generated long run
    bool node = true;
    bool diffOnly = false;
    int followCalls = 15000;
    std::string cli;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--workdir" && i + 1 < argc) {
            workdir = argv[++i];
        } else if (a == "--sizes" && i + 1 < argc) {
            sizes.clear();
            std::stringstream ss(argv[++i]);
            std::string item;
            while (std::getline(ss, item, ','))
                sizes.push_back(std::stoul(item));
        } else if (a == "--calls" && i + 1 < argc) {
            callCounts.clear();
            std::stringstream ss(argv[++i]);
            std::string item;
            while (std::getline(ss, item, ','))
                callCounts.push_back(std::stoi(item));
        } else if (a == "--switch-file" && i + 1 < argc) {
            switchFile = argv[++i];
        } else if (a == "--runs" && i + 1 < argc) {
            runs = std::max(1, std::stoi(argv[++i]));
        } else if (a == "--switch-calls" && i + 1 < argc) {
            switchCalls = std::stoi(argv[++i]);
        } else if (a == "--cli" && i + 1 < argc) {
            cli = argv[++i];
        } else if (a == "--follow-calls" && i + 1 < argc) {
            followCalls = std::stoi(argv[++i]);
        } else if (a == "--no-node") {
            node = false;
        } else if (a == "--diff-only") {
            diffOnly = true;
        } else if (a == "--quick") {
            sizes = {20};
            callCounts = {300};
            runs = 1;
            switchCalls = 2000;
            followCalls = 1000;
            quick = true;
        } else {
            std::cerr << "usage: tracefold-bench [--workdir DIR] [--calls 1300,5000] [--runs N] [--sizes 100,1000] "
                         "[--switch-calls N] [--switch-file FILE] [--cli PATH] [--no-node] [--quick] [--diff-only] "
                         "[--follow-calls N]\n";
            return 2;
        }
    }
    if (cli.empty()) {
        // The CLI is built beside the benchmarks: build/tests/bench/../../app/tracefold-cli.
        char self[4096] = {};
        const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        std::string dir = n > 0 ? std::string(self, std::size_t(n)) : std::string(".");
        dir = dir.substr(0, dir.rfind('/'));
        cli = dir + "/../../app/tracefold-cli";
    }
    mkdir(workdir.c_str(), 0755);
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    std::cout << "# tracefold-bench on " << host << ", " << sysconf(_SC_NPROCESSORS_ONLN) << " cores\n\n";

    if (!diffOnly && !callCounts.empty())
        manyCallTable(workdir, callCounts, runs, node, cli);

    if (!diffOnly) {
        std::cout << "| file | size MB | plain read ms | node JSON.parse ms | node peak RSS MB | tracefold index ms | "
                     "index / node | tracefold peak RSS MB | RSS / file |\n|---|---|---|---|---|---|---|---|---|\n";
        for (std::size_t mb : sizes) {
            const std::string path = ensureRecording(workdir, mb);
            const double sizeMb = double(fileSize(path)) / 1e6;
            const double readMs = plainReadMs(path);
            ChildResult nodeRun;
            if (node)
                nodeRun = bestOf(2, {"node", "--max-old-space-size=16000", "-e",
                                     "JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8'))", path});
            const ChildResult index = bestOf(2, {cli, "inspect", "--json", path});
            std::cout << "| " << path.substr(path.rfind('/') + 1) << " | " << fmt(sizeMb) << " | " << fmt(readMs) << " | "
                      << (!node ? "-" : nodeRun.status == 0 ? fmt(nodeRun.wallMs, 0) : "fails (exit " + std::to_string(nodeRun.status) + ")")
                      << " | " << (node ? fmt(nodeRun.maxRssKb / 1024.0, 0) : "-")
                      << " | " << fmt(index.wallMs, 0) << (index.status == 0 ? "" : " (failed)") << " | "
                      << (node && nodeRun.status == 0 ? fmt(index.wallMs / nodeRun.wallMs, 2) : "-") << " | "
                      << fmt(index.maxRssKb / 1024.0, 0)
                      << " | " << fmt(index.maxRssKb / 1024.0 / (sizeMb / 1.048576), 2) << " |" << std::endl;
        }

        {
            const std::string path = switchFile.empty() ? ensureLongRun(workdir, switchCalls) : switchFile;
            auto t0 = Clock::now();
            const auto loaded = tf::recording::loadRecording(path);
            const double loadMs = msSince(t0);
            if (!loaded.run) {
                std::cerr << loaded.error << '\n';
                return 1;
            }
            const auto &run = *loaded.run;
            // What the window does once a run is indexed (RunLoader), so that these are the views its switches build.
            t0 = Clock::now();
            run.buildCheckpoints();
            const double checkpointsMs = msSince(t0);
            std::mt19937_64 rng(5);
            std::vector<double> times;
            for (int i = 0; i < 2000; ++i) {
                const std::size_t call = std::size_t(rng() % run.calls.size());
                const auto s0 = Clock::now();
                const auto view = tf::recording::buildCallView(run, call);
                times.push_back(msSince(s0));
                if (view.epoch == 0)
                    std::cerr << "";
            }
            std::cout << "\n| switch run | calls | file MB | load ms | checkpoints ms | core view p50 ms | core view p99 ms | "
                         "max ms |\n|---|---|---|---|---|---|---|---|\n"
                      << "| " << path.substr(path.rfind('/') + 1) << " | " << run.calls.size() << " | "
                      << fmt(double(fileSize(path)) / 1e6) << " | " << fmt(loadMs, 0) << " | " << fmt(checkpointsMs, 0)
                      << " | " << fmt(percentile(times, 0.5), 3) << " | " << fmt(percentile(times, 0.99), 3) << " | "
                      << fmt(*std::max_element(times.begin(), times.end()), 3) << " |\n";
        }

        {
            // A 2,000-row ledger with every row kind, from the generator's own run (deterministic).
            tf::generate::GeneratorOptions options;
            options.calls = 700;
            options.seed = 9;
            options.resultBytes = 100;
            options.historyInIterationEnd = false;
            const auto loaded = tf::recording::loadRecordingFromBytes(tf::generate::generateRecording(options), "ledger");
            const auto ledger = *loaded.run->finalLedger();
            std::vector<std::string> served;
            for (std::size_t i = 0; i < 200; ++i)
                served.push_back("call_" + std::to_string(i));
            const auto t0 = Clock::now();
            int pieces = 0;
            std::size_t bytes = 0;
            while (msSince(t0) < 2000) {
                const auto piece = tf::findings::composeFindingsPiece(&ledger, served, tf::findings::AnswerAsk::None);
                bytes += piece ? piece->text.size() : 0;
                ++pieces;
            }
            const double seconds = msSince(t0) / 1000;
            std::cout << "\n| findings pieces | ledger rows | pieces/s | ms/piece |\n|---|---|---|---|\n| composed | "
                      << ledger.size() << " | " << fmt(pieces / seconds, 0) << " | " << fmt(1000 * seconds / pieces, 3)
                      << " |\n";
            if (bytes == 0)
                std::cerr << "no piece\n";
        }
    }

    if (!diffOnly && followCalls > 0)
        followTable(workdir, followCalls);

    if (!quick) { // a smoke run leaves the three 100 MB runs of the comparison out (--diff-only times them alone)
        // diff exits 1 when the runs differ, which every pair here but the run against itself does.
        const std::string a = ensureDiffRun(workdir, 7, 0);
        const std::string edited = ensureDiffRun(workdir, 7, 650);
        const std::string other = ensureDiffRun(workdir, 8, 0);
        const auto name = [](const std::string &p) { return p.substr(p.rfind('/') + 1); };
        std::cout << "\n| diff A B | A MB | B MB | inspect A ms | inspect B ms | diff ms | diff / (inspect A + B) | "
                     "diff peak RSS MB |\n|---|---|---|---|---|---|---|---|\n";
        const ChildResult inspectA = bestOf(2, {cli, "inspect", "--json", a});
        for (const std::string &b : {a, edited, other}) {
            const ChildResult inspectB = b == a ? inspectA : bestOf(2, {cli, "inspect", "--json", b});
            const ChildResult diff = bestOf(2, {cli, "diff", a, b, "--json"});
            std::cout << "| " << name(a) << " vs " << name(b) << " | " << fmt(double(fileSize(a)) / 1e6) << " | "
                      << fmt(double(fileSize(b)) / 1e6) << " | " << fmt(inspectA.wallMs, 0) << " | "
                      << fmt(inspectB.wallMs, 0) << " | " << fmt(diff.wallMs, 0)
                      << (diff.status == 0 || diff.status == 1 ? "" : " (failed)") << " | "
                      << fmt(diff.wallMs / (inspectA.wallMs + inspectB.wallMs), 2) << " | "
                      << fmt(diff.maxRssKb / 1024.0, 0) << " |" << std::endl;
        }
    }
    return 0;
}
