// Micro-benchmark of the findings piece (spec/findings.md §3): how many pieces per second composeFindingsPiece
// builds over a deterministic 2,000-row ledger holding every row kind. Not a test: it prints figures. The ledger,
// its parameters and the piece's checksum are machine-independent; only the timings are not.

#include "core/findings/collapse.h"
#include "core/findings/findingspiece.h"
#include "core/findings/ledgerfold.h"
#include "core/json/value.h"

#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <map>
#include <string>
#include <vector>

using namespace tf;

namespace {

constexpr std::uint64_t kSeed = 0x7f4a7c15u;
constexpr std::size_t kRows = 2000;
constexpr std::size_t kIdPool = 600;
constexpr std::size_t kServed = 400;
constexpr double kMinSeconds = 2.0;

// splitmix64: tiny, seeded, and the same sequence on every platform (std distributions are not).
class Rng
{
public:
    explicit Rng(std::uint64_t seed)
        : m_state(seed)
    {
    }
    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    std::size_t below(std::size_t n) { return std::size_t(next() % n); }
    bool chance(unsigned percent) { return below(100) < percent; }

private:
    std::uint64_t m_state;
};

json::Value str(std::string s)
{
    return json::Value::string(std::move(s));
}

std::string callId(std::size_t i)
{
    return "call_" + std::to_string(i);
}

// Model text of varied shape: plain, with newline runs to fold, long enough to clip, with a non-BMP character.
std::string modelText(Rng &rng)
{
    static const char *const words[] = {"port", "counter", "reset", "optic", "link", "flap", "crc", "vlan"};
    std::string s;
    const std::size_t n = 3 + rng.below(rng.chance(10) ? 80 : 12);
    for (std::size_t i = 0; i < n; ++i) {
        if (i)
            s += rng.chance(5) ? "\n\n" : " ";
        s += words[rng.below(8)];
    }
    if (rng.chance(5))
        s += " \xF0\x9F\x98\x80";
    return s;
}

json::Value assertionValue(Rng &rng)
{
    switch (rng.below(6)) {
    case 0:
        return json::Value::number(double(rng.below(1000)) / 8);
    case 1:
        return json::Value::boolean(rng.chance(50));
    case 2: {
        json::Value claim = json::Value::object();
        claim.set("kind", str(rng.chance(70) ? "known" : "unknown"));
        claim.set("value", str(rng.chance(50) ? "up" : "down"));
        return claim;
    }
    case 3: {
        json::Value obj = json::Value::object();
        obj.set("b", json::Value::number(double(rng.below(3))));
        obj.set("a", str("x"));
        return obj;
    }
    default:
        return str(rng.chance(50) ? "up" : "down");
    }
}

json::Value standingRow(Rng &rng, const std::string &id, const char *standing)
{
    json::Value row = json::Value::object();
    row.set("kind", str("standing"));
    row.set("toolCallId", str(id));
    if (rng.chance(70))
        row.set("toolName", str(rng.chance(50) ? "search_logs" : "lookup_port"));
    if (rng.chance(10))
        row.set("ref", str("art_" + std::to_string(rng.below(100))));
    row.set("standing", str(standing));
    const std::string s = standing;
    if (s == "open" && rng.chance(70))
        row.set("settles", str(modelText(rng)));
    if (s == "ruled-out" && rng.chance(70))
        row.set("line", str(modelText(rng)));
    json::Value assertions = json::Value::array();
    if (s != "noise") {
        const std::size_t n = rng.below(4);
        for (std::size_t i = 0; i < n; ++i) {
            json::Value subject = json::Value::object();
            subject.set("kind", str("port"));
            subject.set("id", str("fc1/" + std::to_string(rng.below(40))));
            json::Value a = json::Value::object();
            a.set("subject", subject);
            a.set("predicate", str(rng.chance(50) ? "state" : "speed"));
            if (rng.chance(95))
                a.set("value", assertionValue(rng));
            a.set("stratum", str(s == "fact" ? "asserted" : "quoted"));
            a.set("provenance", str("tool:" + id));
            assertions.push_back(a);
        }
    }
    row.set("assertions", assertions);
    row.set("declaredOn", str("answer"));
    row.set("iteration", json::Value::number(double(rng.below(50))));
    if (rng.chance(3))
        row.set("unknownId", json::Value::boolean(true));
    return row;
}

json::Value buildLedger(Rng &rng, std::map<std::string, std::size_t> &kinds)
{
    static const char *const standings[] = {"fact", "open", "noise", "ruled-out"};
    json::Value rows = json::Value::array();
    const auto add = [&](json::Value row) {
        ++kinds[std::string(row.find("kind")->asString())];
        rows.push_back(std::move(row));
    };
    while (rows.size() < kRows) {
        const std::string id = callId(rng.below(kIdPool));
        const std::size_t pick = rng.below(100);
        json::Value row = json::Value::object();
        if (pick < 25) {
            row.set("kind", str("basis"));
            row.set("toolCallId", str(id));
            row.set("toolName", str("search_logs"));
            row.set("iteration", json::Value::number(1));
            row.set("basis", str(rng.chance(50) ? "direct" : "exploratory"));
            if (rng.chance(60))
                row.set("proposition", str(modelText(rng)));
            add(row);
        } else if (pick < 67) {
            const char *standing = standings[rng.below(4)];
            add(standingRow(rng, id, standing));
            if (std::string(standing) == "ruled-out" && rng.chance(50) && rows.size() < kRows) {
                json::Value unsettled = json::Value::object();
                unsettled.set("kind", str("unsettled-by-absence"));
                unsettled.set("toolCallId", str(id));
                json::Value items = json::Value::array();
                json::Value item = json::Value::object();
                item.set("what", str(modelText(rng)));
                if (rng.chance(50))
                    item.set("why", str(modelText(rng)));
                items.push_back(item);
                unsettled.set("notChecked", items);
                if (rng.chance(60))
                    unsettled.set("tryInstead", str(modelText(rng)));
                unsettled.set("iteration", json::Value::number(1));
                add(unsettled);
            }
        } else if (pick < 77) {
            row.set("kind", str("judgment"));
            row.set("toolCallId", str(id));
            row.set("standing", str(standings[rng.below(4)]));
            add(row);
        } else if (pick < 80) {
            row.set("kind", str("judgment-error"));
            row.set("toolCallId", str(id));
            row.set("message", str("timeout"));
            add(row);
        } else if (pick < 88) {
            row.set("kind", str("contingent"));
            if (rng.chance(50)) {
                row.set("declaredOn", str("answer"));
            } else {
                json::Value on = json::Value::object();
                on.set("toolCallId", str(callId(rng.below(kIdPool))));
                row.set("declaredOn", on);
            }
            row.set("value", str(std::to_string(rng.below(10000))));
            json::Value carriers = json::Value::array();
            for (std::size_t i = 1 + rng.below(3); i > 0; --i) {
                json::Value carrier = json::Value::object();
                carrier.set("toolCallId", str(callId(rng.below(kIdPool))));
                carrier.set("standing", str(rng.chance(50) ? "open" : "noise"));
                carriers.push_back(carrier);
            }
            row.set("carriers", carriers);
            row.set("iteration", json::Value::number(1));
            add(row);
        } else if (pick < 92) {
            row.set("kind", str("conflict"));
            row.set("key", str(std::string("port\0fc1/1\0state\0", 17)));
            row.set("witnesses", json::Value::array());
            add(row);
        } else {
            row.set("kind", str("note")); // an unknown kind: every reader ignores it
            add(row);
        }
    }
    return rows;
}

std::uint64_t fnv1a(const std::u16string &text)
{
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (char16_t u : text) {
        h = (h ^ (u & 0xFF)) * 0x100000001b3ull;
        h = (h ^ (u >> 8)) * 0x100000001b3ull;
    }
    return h;
}

} // namespace

int main()
{
    Rng rng(kSeed);
    std::map<std::string, std::size_t> kinds;
    const json::Value rows = buildLedger(rng, kinds);
    std::vector<std::string> served;
    for (std::size_t i = 0; i < kServed; ++i)
        served.push_back(callId(rng.below(kIdPool)));

    const auto piece = findings::composeFindingsPiece(&rows, served, findings::AnswerAsk::QuoteFacts);
    if (!piece) {
        std::fprintf(stderr, "no piece composed\n");
        return 1;
    }
    const findings::LedgerFold fold = findings::foldLedger(rows);

    std::printf("bench_findings: composeFindingsPiece over a generated ledger\n");
    std::printf("  seed 0x%" PRIx64 ", rows %zu, id pool %zu, served ids %zu, answerAsk quote-facts\n", kSeed,
                rows.size(), kIdPool, served.size());
    std::printf("  rows by kind:");
    for (const auto &[kind, n] : kinds)
        std::printf(" %s=%zu", kind.c_str(), n);
    std::printf("\n  fold: %zu results with a standing, %zu fact assertions, %zu conflicts, %zu unsettled\n",
                fold.standingOf.entries().size(), fold.asserted.size(), fold.conflicts.size(), fold.unsettled.size());
    std::printf("  piece: %zu units, %zu UTF-8 bytes, %zu sections, fnv1a %016" PRIx64 "\n", piece->lengthU16(),
                piece->sizeUtf8(), piece->sections.size(), fnv1a(piece->text));
    std::printf("  lines per section:");
    for (const findings::PieceSection &s : piece->sections)
        std::printf(" %s=%zu/%zu", findings::sectionKindName(s.kind), s.lines.size(), s.totalContentLines);
    std::printf("\n");

    // Warm up, then compose for at least kMinSeconds.
    std::size_t sink = 0;
    for (int i = 0; i < 5; ++i)
        sink += findings::composeFindingsPiece(&rows, served, findings::AnswerAsk::QuoteFacts)->lengthU16();
    // Wall time and process CPU time: on a loaded machine the CPU figure is the steadier of the two.
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    const std::clock_t cpuStart = std::clock();
    std::size_t iterations = 0;
    double seconds = 0;
    do {
        for (int i = 0; i < 20; ++i)
            sink += findings::composeFindingsPiece(&rows, served, findings::AnswerAsk::QuoteFacts)->lengthU16();
        iterations += 20;
        seconds = std::chrono::duration<double>(Clock::now() - start).count();
    } while (seconds < kMinSeconds);

    const double cpu = double(std::clock() - cpuStart) / CLOCKS_PER_SEC;
    std::printf("  %zu pieces in %.3f s wall: %.0f pieces/s, %.1f us/piece (checksum %zu)\n", iterations, seconds,
                double(iterations) / seconds, seconds * 1e6 / double(iterations), sink % 1000);
    std::printf("  %.3f s CPU: %.0f pieces per CPU second, %.1f us CPU/piece\n", cpu, double(iterations) / cpu,
                cpu * 1e6 / double(iterations));
    return 0;
}
