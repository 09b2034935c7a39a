#include "cliio.h"
#include "commands.h"

#include "core/json/writer.h"
#include "core/recording/logfollower.h"
#include "core/report/inspectreport.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <csignal>
#include <iostream>
#include <optional>
#include <thread>

namespace tf::cli {

namespace {

volatile std::sig_atomic_t g_interrupted = 0;

extern "C" void onInterrupt(int)
{
    g_interrupted = 1;
}

bool parseSeconds(const std::string &text, double &out)
{
    const char *end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return ec == std::errc() && ptr == end && out >= 0;
}

// Prints what an update added: the calls not printed yet, then the outcome when the run has ended (or when this is
// the last update) and it was not printed as it is.
class FollowPrinter
{
public:
    explicit FollowPrinter(bool asJson)
        : m_asJson(asJson)
    {
    }

    void print(const recording::LogFollower::Update &u, bool last)
    {
        for (const std::string &notice : u.notices)
            errorLine(notice);
        if (!u.run)
            return;
        if (u.calls.size() < m_printed)
            m_printed = u.calls.size(); // a recording read whole again may hold fewer calls
        for (std::size_t i = m_printed; i < u.calls.size(); ++i) {
            if (m_asJson)
                std::cout << json::stringify(report::inspectCallJson(u.calls[i])) << '\n';
            else
                std::cout << report::inspectCallLine(u.calls[i]) << '\n';
        }
        m_printed = u.calls.size();
        const recording::RunOutcome &outcome = u.run->outcome;
        const bool ended = outcome.status != recording::OutcomeStatus::Incomplete;
        const std::string text = report::outcomeText(outcome);
        if ((ended || last) && text != m_outcomePrinted) {
            if (m_asJson) {
                json::Value line = json::Value::object();
                line.set("outcome", report::outcomeJson(outcome));
                std::cout << json::stringify(line) << '\n';
            } else {
                std::cout << "outcome: " << text << '\n';
            }
            m_outcomePrinted = text;
        }
        std::cout.flush();
    }

private:
    bool m_asJson;
    std::size_t m_printed = 0;
    std::string m_outcomePrinted;
};

} // namespace

int follow(const std::vector<std::string> &args)
{
    const char *usage = "usage: tracefold-cli follow FILE [--json] [--idle-exit SECONDS]\n";
    bool asJson = false;
    std::optional<double> idleExit;
    std::string path;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--json") {
            asJson = true;
        } else if (args[i] == "--idle-exit" && i + 1 < args.size()) {
            double s = 0;
            if (!parseSeconds(args[++i], s)) {
                std::cerr << usage;
                return 2;
            }
            idleExit = s;
        } else if (path.empty() && args[i].rfind("--", 0) != 0) {
            path = args[i];
        } else {
            std::cerr << usage;
            return 2;
        }
    }
    if (path.empty()) {
        std::cerr << usage;
        return 2;
    }

    recording::LogFollower follower(path);
    FollowPrinter printer(asJson);
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    using Clock = std::chrono::steady_clock;
    Clock::time_point lastGrowth = Clock::now();
    std::uint64_t lastBytes = 0;
    std::string lastError;
    bool first = true;
    // A poll every 100 ms (paced by LogFollower::nextPollDelayMs on a long log): a call is printed well within a
    // second of its response being written.
    constexpr int kIntervalMs = 100;
    const auto idle = [&] { return idleExit && Clock::now() - lastGrowth >= std::chrono::duration<double>(*idleExit); };
    for (;;) {
        const bool last = g_interrupted || idle();
        recording::LogFollower::Update u = follower.poll(last);
        if (first && !u.error.empty() && !u.run) {
            // Unreadable input: the one line, and exit 2 (a file that appears later is followed by starting again).
            errorLine(u.error);
            return 2;
        }
        first = false;
        printer.print(u, last || follower.stopped());
        if (follower.stopped()) {
            errorLine(u.error);
            return 2;
        }
        if (!u.error.empty() && u.error != lastError)
            errorLine(u.error);
        lastError = u.error;
        if (last)
            return lastError.empty() ? 0 : 2;
        if (u.run || follower.bytesRead() != lastBytes) {
            lastGrowth = Clock::now();
            lastBytes = follower.bytesRead();
        }
        // In slices: a paced wait on a long log is seconds, and Ctrl+C or the idle time must still end it promptly.
        const Clock::time_point next =
            Clock::now() + std::chrono::milliseconds(recording::LogFollower::nextPollDelayMs(kIntervalMs, u.rebuildMs));
        while (!g_interrupted && Clock::now() < next && !idle())
            std::this_thread::sleep_for(
                std::min<Clock::duration>(next - Clock::now(), std::chrono::milliseconds(kIntervalMs)));
    }
}

} // namespace tf::cli
