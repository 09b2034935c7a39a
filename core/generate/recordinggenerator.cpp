#include "recordinggenerator.h"

#include "core/findings/collapse.h"
#include "core/findings/findingspiece.h"
#include "core/json/jsnumber.h"
#include "core/json/writer.h"
#include "core/receipt/messagedigest.h"
#include "core/receipt/receipthash.h"
#include "core/text/utf.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace tf::generate {

namespace {

using json::Value;

// splitmix64: tiny, and unlike <random>'s distributions it gives the same numbers on every standard library.
class Rng
{
public:
    explicit Rng(std::uint64_t seed)
        : m_state(seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL)
    {
    }
    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    std::size_t below(std::size_t n) { return n ? std::size_t(next() % n) : 0; }
    bool chance(int percent) { return below(100) < std::size_t(percent); }
    template <typename T>
    const T &pick(const std::vector<T> &v)
    {
        return v[below(v.size())];
    }

private:
    std::uint64_t m_state;
};

Value s(std::string v)
{
    return Value::string(std::move(v));
}

Value n(double v)
{
    return Value::number(v);
}

Value obj(std::initializer_list<std::pair<const char *, Value>> members)
{
    Value o = Value::object();
    for (const auto &[k, v] : members)
        o.set(k, v);
    return o;
}

Value arr(std::initializer_list<Value> items)
{
    Value a = Value::array();
    for (const Value &v : items)
        a.push_back(v);
    return a;
}

const std::vector<std::string> kWords = {
    "port",  "fabric", "zone",   "login", "flap",   "optic", "counter", "crc",  "reset",   "switch", "hba",
    "array", "lun",    "target", "path",  "degrad", "link",  "buffer",  "queue", "timeout", "sfp",    "wwn",
    "ok",    "fault",  "—",      "→",     "µs",     "état",  "ünï",     "😀",    "𝔘",       "\"q\"",  "a\\b"};

std::string words(Rng &rng, std::size_t bytes)
{
    std::string out;
    while (out.size() < bytes) {
        if (!out.empty())
            out += ' ';
        out += rng.pick(kWords);
    }
    return out;
}

struct Tool
{
    std::string name;
    std::string description;
};

const std::vector<Tool> kTools = {
    {"lookup_port", "Read the state and counters of one fabric port."},
    {"search_logs", "Search switch and host logs for a pattern within a time window."},
    {"read_zoning", "Read the active zoning configuration of a fabric."},
};

const char *kBasePrompt = "You are a storage-fabric triage assistant. Find why the host lost paths to its array, "
                          "using one tool at a time, and answer with the cause and the evidence.";
const char *kFindingsInstruction =
    "Findings v1. Tool schemas carry an optional `_findings` argument; declare it on your tool calls.\n"
    "State the standing of each previous tool result by its tool_result id: 'fact' with assertions, 'open' with "
    "`settles`, 'ruled-out' with `line`, or 'noise'.";
const char *kSkillPiece = "Skill fabric-forensics: read counters before and after a reset; a CRC burst that stops "
                          "after an optic swap points at the optic.";

Value toolSchema(const Tool &tool, const std::vector<std::string> &offer)
{
    Value previousItem = obj({{"type", s("object")}});
    Value itemProps = Value::object();
    Value idSchema = obj({{"type", s("string")}});
    if (!offer.empty()) {
        Value ids = Value::array();
        // The schema's enum lists the offered ids newest first, capped at FINDINGS_OFFER_CAP (32).
        for (std::size_t i = 0; i < offer.size() && i < 32; ++i)
            ids.push_back(s(offer[i]));
        idSchema.set("enum", ids);
    }
    itemProps.set("toolCallId", idSchema);
    itemProps.set("standing", obj({{"enum", arr({s("fact"), s("open"), s("noise"), s("ruled-out")})}}));
    previousItem.set("properties", itemProps);
    Value findings = obj({{"type", s("object")},
                          {"properties", obj({{"basis", obj({{"enum", arr({s("direct"), s("exploratory")})}})},
                                              {"expect", obj({{"enum", arr({s("low"), s("medium"), s("high")})}})},
                                              {"proposition", obj({{"type", s("string")}})},
                                              {"previous", obj({{"type", s("array")}, {"items", previousItem}})}})}});
    Value props = obj({{"q", obj({{"type", s("string")}, {"description", s("what to look up")}})}, {"_findings", findings}});
    return obj({{"name", s(tool.name)},
                {"description", s(tool.description)},
                {"inputSchema", obj({{"type", s("object")}, {"properties", props}, {"required", arr({s("q")})}})}});
}

// One bundle of a delta-mode commit log; verbs are written per path as the delta encoder would.
class Bundle
{
public:
    Bundle(std::string stage, std::string stageId, std::string runtimeStageId)
        : m_stage(std::move(stage))
        , m_stageId(std::move(stageId))
        , m_runtimeStageId(std::move(runtimeStageId))
    {
    }
    void set(const std::string &path, const Value &v) { add(path, "set", v); }
    void append(const std::string &path, const Value &tail) { add(path, "append", tail); }
    bool empty() const { return m_trace.size() == 0; }
    Value toValue(std::size_t idx, const std::vector<std::string> &tags) const
    {
        Value b = Value::object();
        b.set("idx", n(double(idx)));
        b.set("stage", s(m_stage));
        b.set("stageId", s(m_stageId));
        b.set("runtimeStageId", s(m_runtimeStageId));
        if (!tags.empty()) {
            Value t = Value::array();
            for (const std::string &tag : tags)
                t.push_back(s(tag));
            b.set("tags", t);
        }
        b.set("trace", m_trace);
        b.set("overwrite", m_overwrite);
        b.set("updates", Value::object());
        b.set("redactedPaths", Value::array());
        return b;
    }

private:
    void add(const std::string &path, const char *verb, const Value &v)
    {
        m_trace.push_back(obj({{"path", s(path)}, {"verb", s(verb)}}));
        m_overwrite.set(path, v);
    }
    std::string m_stage, m_stageId, m_runtimeStageId;
    Value m_trace = Value::array();
    Value m_overwrite = Value::object();
};

class Generator
{
public:
    Generator(std::ostream &out, const GeneratorOptions &options)
        : m_out(out)
        , m_options(options)
        , m_rng(options.seed)
    {
        m_wallStart = 1787000000000.0 + double(options.seed % 100000) * 1000.0;
        m_runId = "run-" + json::jsNumberToString(m_wallStart) + "-1";
    }
    void run();

private:
    struct ResultInfo
    {
        std::string id;
        std::string tool;
        int port = 0;
    };

    std::string stageId(const std::string &stage) { return stage + "#" + std::to_string(m_exec++); }
    void event(const std::string &type, const Value &payload, const std::string &runtimeStageId);
    void commit(Bundle &b, std::vector<std::string> tags = {})
    {
        if (b.empty())
            return;
        if (!m_firstBundle)
            m_log += ',';
        m_firstBundle = false;
        json::appendStringify(m_log, b.toValue(m_bundleCount++, tags));
    }
    Value fileRows(const std::vector<Value> &rows);
    bool evictForBudget();
    void writeLedgerTail(const Value &tail, Bundle &bundle);
    Value standingRow(const ResultInfo &r, const std::string &carrier, int iteration);
    std::vector<Value> systemInjections(int epoch) const;
    Value currentSchemas() const;

    std::ostream &m_out;
    GeneratorOptions m_options;
    Rng m_rng;
    std::string m_runId;
    double m_wallStart = 0;
    double m_clock = 0; // ms since run start
    long long m_exec = 0;
    std::size_t m_bundleCount = 0;
    bool m_firstBundle = true;
    bool m_firstEvent = true;
    std::string m_log;
    std::string m_events;

    // The run as it really happened (the truth the receipts hash).
    Value m_history = Value::array();
    Value m_loggedHistory = Value::array(); // the log's copy: equal to m_history unless a message is damaged
    std::vector<std::string> m_pendingOmitted; // hashes of turns evicted since the last receipt
    Value m_ledger = Value::array();
    bool m_ledgerWritten = false;
    bool m_pieceDamaged = false;
    std::vector<ResultInfo> m_results;
    std::vector<std::string> m_declared; // result ids with a standing
    double m_totalIn = 0, m_totalOut = 0;
};

void Generator::event(const std::string &type, const Value &payload, const std::string &runtimeStageId)
{
    if (!m_firstEvent)
        m_events += ',';
    m_firstEvent = false;
    Value meta = obj({{"wallClockMs", n(m_wallStart + m_clock)},
                      {"runOffsetMs", n(m_clock)},
                      {"runtimeStageId", s(runtimeStageId)},
                      {"subflowPath", Value::array()},
                      {"compositionPath", arr({s("Agent:agent")})},
                      {"runId", s(m_runId)}});
    json::appendStringify(m_events, obj({{"type", s(type)}, {"payload", payload}, {"meta", meta}}));
    m_clock += 1 + double(m_rng.below(5));
}

std::vector<Value> Generator::systemInjections(int epoch) const
{
    std::vector<Value> out;
    out.push_back(obj({{"contentSummary", s("base")},
                       {"slot", s("system-prompt")},
                       {"source", s("base")},
                       {"reason", s("Agent.system()")},
                       {"rawContent", s(kBasePrompt)}}));
    out.push_back(obj({{"contentSummary", s("findings instruction")},
                       {"slot", s("system-prompt")},
                       {"source", s("instructions")},
                       {"sourceId", s("findings-ledger")},
                       {"reason", s("findings")},
                       {"rawContent", s(kFindingsInstruction)}}));
    // A skill unlocked from call 4 on moves the system block once, independently of the ledger.
    if (epoch >= 4)
        out.push_back(obj({{"contentSummary", s("skill")},
                           {"slot", s("system-prompt")},
                           {"source", s("skill")},
                           {"sourceId", s("fabric-forensics")},
                           {"reason", s("skill unlocked")},
                           {"rawContent", s(kSkillPiece)}}));
    // A piece recorded without rawContent is not served (§5.3 step 1): the rebuild must skip it too.
    out.push_back(obj({{"contentSummary", s("empty steering")},
                       {"slot", s("system-prompt")},
                       {"source", s("steering")},
                       {"reason", s("nothing to steer")},
                       {"rawContent", s("")}}));
    return out;
}

Value Generator::currentSchemas() const
{
    const std::vector<std::string> offer = findings::offeredResultIds(m_history, m_ledgerWritten ? &m_ledger : nullptr);
    Value schemas = Value::array();
    for (const Tool &t : kTools)
        schemas.push_back(toolSchema(t, offer));
    return schemas;
}

Value Generator::standingRow(const ResultInfo &r, const std::string &carrier, int iteration)
{
    static const std::vector<std::string> standings = {"fact", "fact", "fact", "open", "ruled-out", "noise"};
    const std::string standing = m_rng.pick(standings);
    Value row = obj({{"kind", s("standing")}, {"toolCallId", s(r.id)}, {"toolName", s(r.tool)}});
    row.set("standing", s(standing));
    Value assertions = Value::array();
    if (standing == "fact") {
        // Two results asserting different states of one port make a conflict on purpose.
        const char *value = m_rng.chance(70) ? "down" : "up";
        assertions.push_back(obj({{"subject", obj({{"kind", s("port")}, {"id", s("fc1/" + std::to_string(r.port))}})},
                                  {"predicate", s("state")},
                                  {"value", s(value)},
                                  {"stratum", s("asserted")},
                                  {"provenance", s("tool:" + r.id)}}));
        if (m_rng.chance(40))
            assertions.push_back(obj({{"subject", obj({{"kind", s("port")}, {"id", s("fc1/" + std::to_string(r.port))}})},
                                      {"predicate", s("crc_errors")},
                                      {"value", n(double(m_rng.below(5000)))},
                                      {"stratum", s("asserted")},
                                      {"provenance", s("tool:" + r.id)}}));
    } else if (standing == "open") {
        row.set("settles", s("a second read of fc1/" + std::to_string(r.port) + " after the reset\nwith counters"));
        assertions.push_back(obj({{"subject", obj({{"kind", s("port")}, {"id", s("fc1/" + std::to_string(r.port))}})},
                                  {"predicate", s("flapping")},
                                  {"value", Value::boolean(true)},
                                  {"stratum", s("quoted")},
                                  {"provenance", s("tool:" + r.id)}}));
    } else if (standing == "ruled-out") {
        row.set("line", s("the optic on fc1/" + std::to_string(r.port) + " was not swapped " + words(m_rng, 30)));
    }
    row.set("assertions", assertions);
    if (carrier == "answer")
        row.set("declaredOn", s("answer"));
    else
        row.set("declaredOn", obj({{"toolCallId", s(carrier)}}));
    row.set("iteration", n(iteration));
    return row;
}

// recordFindings (findings.md §2.2): the rows, then a conflict row for each conflict not yet filed. Appends to the
// true ledger and returns the tail to commit.
Value Generator::fileRows(const std::vector<Value> &rows)
{
    Value tail = Value::array();
    if (rows.empty())
        return tail;
    for (const Value &r : rows) {
        tail.push_back(r);
        m_ledger.push_back(r);
    }
    std::vector<std::string> filed;
    for (const Value &r : m_ledger)
        if (const Value *k = r.findString("key"); k && findings::rowKindOf(r) == findings::RowKind::Conflict)
            filed.emplace_back(k->asString());
    const findings::LedgerFold fold = findings::foldLedger(m_ledger);
    const Value *lastIteration = rows.back().findNumber("iteration");
    const double iteration = lastIteration ? lastIteration->asNumber() : 0;
    std::vector<Value> newConflicts;
    for (const findings::Conflict &c : fold.conflicts) {
        if (std::find(filed.begin(), filed.end(), c.key) != filed.end())
            continue;
        Value witnesses = Value::array();
        for (const auto &e : fold.standingOf.entries()) {
            const Value *standing = e.row->findString("standing");
            if (!standing || standing->asString() != "fact")
                continue;
            if (const Value *as = e.row->findArray("assertions"))
                for (const Value &a : *as)
                    if (findings::assertionKey(a) == c.key)
                        witnesses.push_back(obj({{"toolCallId", s(e.key)},
                                                 {"subject", *a.find("subject")},
                                                 {"predicate", *a.find("predicate")}}));
        }
        // Appended after the walk: the fold's row pointers point into m_ledger, which a push may reallocate.
        newConflicts.push_back(obj({{"kind", s("conflict")}, {"key", s(c.key)}, {"witnesses", witnesses},
                                    {"iteration", n(iteration)}}));
        filed.push_back(c.key);
    }
    for (const Value &conflict : newConflicts) {
        tail.push_back(conflict);
        m_ledger.push_back(conflict);
    }
    return tail;
}

// Drops the oldest tool rounds (an assistant turn and the results after it) until the history fits the window.
// The user's message at index 0 always stays.
bool Generator::evictForBudget()
{
    const std::size_t window = m_options.historyWindow;
    if (window == 0 || m_history.size() <= window)
        return false;
    std::size_t cut = 1;
    while (m_history.size() - (cut - 1) > window && cut < m_history.size()) {
        std::size_t end = cut + 1; // past the assistant turn
        while (end < m_history.size() && m_history.at(end).findString("role")->asString() == "tool")
            ++end;
        cut = end;
    }
    Value kept = arr({m_history.at(0)}), keptLogged = arr({m_loggedHistory.at(0)});
    for (std::size_t i = 1; i < cut; ++i) {
        Value sent = m_history.at(i);
        sent.erase("injectedBy");
        sent.erase("notDispatched");
        m_pendingOmitted.push_back(receipt::receiptHash(m_runId, receipt::messageDigestInput(sent)));
    }
    for (std::size_t i = cut; i < m_history.size(); ++i) {
        kept.push_back(m_history.at(i));
        keptLogged.push_back(m_loggedHistory.at(i));
    }
    m_history = kept;
    m_loggedHistory = keptLogged;
    return true;
}

// The delta encoder's verbs: the first write of the ledger is a set, later ones append the tail (recording.md §3.5).
void Generator::writeLedgerTail(const Value &tail, Bundle &bundle)
{
    if (tail.size() == 0)
        return;
    if (m_ledgerWritten) {
        bundle.append("findingsLedger", tail);
    } else {
        bundle.set("findingsLedger", tail);
        m_ledgerWritten = true;
    }
}

void Generator::run()
{
    const int calls = std::max(1, m_options.calls);
    const std::string userPrompt = "The host esx-07 lost two of four paths to array A overnight. Why?";
    Value initialState = obj({{"runIdentity", obj({{"conversationId", s("conv-" + std::to_string(m_options.seed))}})},
                              {"turnNumber", n(1)}});

    event("agentfootprint.agent.run_configured",
          obj({{"agentId", s("agent")},
               {"llm", obj({{"provider", s("anthropic")}, {"model", s("claude-sim-1")}})},
               {"reactMode", s("dynamic")},
               {"memories", Value::array()}}),
          "run-configured#0");
    const std::string seedStage = stageId("seed");
    event("agentfootprint.agent.turn_start", obj({{"turnIndex", n(0)}, {"userPrompt", s(userPrompt)}}), seedStage);
    {
        Bundle seed("Initialize", "seed", seedStage);
        seed.set("userMessage", s(userPrompt));
        m_history.push_back(obj({{"role", s("user")}, {"content", s(userPrompt)}}));
        m_loggedHistory = m_history;
        seed.set("history", m_history);
        seed.set("iteration", n(1));
        seed.set("maxIterations", n(calls + 1));
        seed.set("findingsServe", s("ledger-and-facts"));
        seed.set("cachingDisabled", Value::boolean(false));
        commit(seed, {"milestone:iteration", "milestone-label:Iteration"});
    }

    Value lastInjections, lastSchemas, lastMarkers;
    std::optional<std::string> previousPrefixKey;
    double previousCallClock = -1;
    int resultCounter = 0;
    std::string finalAnswer;

    for (int epoch = 1; epoch <= calls; ++epoch) {
        const bool last = epoch == calls;
        // Every fifth call is a re-ask: same ledger, same ids, so the prefix can be reused (findings.md §6.2).
        const bool reask = !last && epoch > 2 && epoch % 5 == 0;
        if (m_options.turnCalls > 0 && epoch > 1 && (epoch - 1) % m_options.turnCalls == 0) {
            // A new user turn: the question joins the history and the ledger starts empty.
            Bundle turn("Initialize", "seed", stageId("seed"));
            const Value question = obj({{"role", s("user")}, {"content", s("And now? " + words(m_rng, 40))}});
            m_history.push_back(question);
            m_loggedHistory.push_back(question);
            turn.append("history", arr({question}));
            m_ledger = Value::array();
            m_declared.clear();
            m_results.erase(std::remove_if(m_results.begin(), m_results.end(),
                                           [&](const ResultInfo &r) {
                                               for (const Value &m : m_history)
                                                   if (const Value *id = m.findString("toolCallId");
                                                       id && id->asString() == r.id)
                                                       return false;
                                               return true;
                                           }),
                            m_results.end());
            if (m_ledgerWritten)
                turn.set("findingsLedger", Value::array());
            commit(turn, {"milestone:iteration", "milestone-label:Iteration"});
        }

        // -- context: the slot pieces, the schemas with this call's offer, the cache candidates.
        const std::string contextStage = stageId("context");
        Bundle context("Context", "context", contextStage);
        Value injections = Value::array();
        for (const Value &v : systemInjections(epoch))
            injections.push_back(v);
        Value schemas = currentSchemas();
        Value markers = arr({obj({{"field", s("system")},
                                  {"boundaryIndex", n(0)},
                                  {"ttl", s("short")},
                                  {"reason", s("system stable prefix (1 entries, ending at base system prompt)")}})});
        if (!json::deepEqual(injections, lastInjections))
            context.set("systemPromptInjections", injections);
        Value loggedSchemas = schemas;
        if (m_options.damage.kind == Damage::Kind::SchemaByte && m_options.damage.call == epoch) {
            Value tool = loggedSchemas.at(0);
            tool.set("description", s(std::string(tool.findString("description")->asString()) + "!"));
            loggedSchemas.itemRef(0) = tool;
        }
        if (!json::deepEqual(loggedSchemas, lastSchemas))
            context.set("dynamicToolSchemas", loggedSchemas);
        if (!json::deepEqual(markers, lastMarkers))
            context.set("cacheMarkers", markers);
        commit(context, {"milestone:slot", "milestone-label:System prompt"});
        lastInjections = injections;
        lastSchemas = loggedSchemas;
        lastMarkers = markers;
        for (const Value &inj : injections)
            if (!inj.findString("rawContent")->asString().empty())
                event("agentfootprint.context.injected", inj, contextStage);

        // -- the request as it really went out.
        const findings::AnswerAsk ask = findings::AnswerAsk::None;
        const std::vector<std::string> served = findings::servedToolCallIds(m_history);
        const auto piece = findings::composeFindingsPiece(m_ledgerWritten ? &m_ledger : nullptr, served, ask);
        std::vector<std::pair<std::string, std::string>> pieces; // source, text
        for (const Value &inj : injections) {
            const std::string_view raw = inj.findString("rawContent")->asString();
            if (!raw.empty())
                pieces.emplace_back(inj.findString("source")->asString(), raw);
        }
        if (piece)
            pieces.emplace_back("findings", text::toWtf8(piece->text));
        std::string systemText;
        for (const auto &p : pieces)
            systemText += (systemText.empty() ? "" : "\n\n") + p.second;
        findings::CollapseResult collapse =
            findings::collapseJudged(m_history, m_ledgerWritten ? &m_ledger : nullptr, findings::ServeMode::LedgerAndFacts);
        Value asSent = Value::array();
        for (const Value &m : collapse.messages) {
            Value copy = m;
            copy.erase("injectedBy");
            copy.erase("notDispatched");
            asSent.push_back(copy);
        }

        Value receiptPieces = Value::array();
        for (const auto &p : pieces)
            receiptPieces.push_back(obj({{"hash", s(receipt::receiptHash(m_runId, p.second))},
                                         {"slot", s("system-prompt")},
                                         {"source", s(p.first)}}));
        Value entries = Value::array();
        for (const Value &m : asSent) {
            Value e = obj({{"role", *m.find("role")}, {"hash", s(receipt::receiptHash(m_runId, receipt::messageDigestInput(m)))}});
            if (const Value *id = m.find("toolCallId"))
                e.set("key", *id);
            entries.push_back(e);
        }
        Value names = Value::array();
        Value schemaHashes = Value::object();
        for (const Value &schema : schemas) {
            names.push_back(*schema.find("name"));
            schemaHashes.set(schema.findString("name")->asString(),
                             s(receipt::receiptHash(m_runId, json::sortedKeyJson(schema))));
        }
        Value receiptValue =
            obj({{"basis", obj({{"epoch", n(epoch)}, {"runId", s(m_runId)}, {"model", s("claude-sim-1")},
                                {"provider", s("anthropic")}})},
                 {"system", obj({{"hash", s(receipt::receiptHash(m_runId, systemText))},
                                 {"chars", n(double(text::lengthU16(systemText)))},
                                 {"pieces", receiptPieces}})},
                 {"messages", obj({{"count", n(double(asSent.size()))}, {"entries", entries}, {"requestOnly", Value::array()}})},
                 {"tools", obj({{"names", names}, {"schemaHashes", schemaHashes}, {"forced", Value::null()},
                                {"withheld", Value::null()}})},
                 {"cache", obj({{"transform", s("unchanged")}, {"transformHash", Value::null()},
                                {"markersApplied", arr({obj({{"field", s("system")}, {"boundaryIndex", n(0)},
                                                             {"ttl", s("short")}})})},
                                {"strategy", s("anthropic")}})},
                 {"params", obj({{"temperature", n(0.2)}, {"maxTokens", n(1024)}})}});
        if (!m_pendingOmitted.empty()) {
            Value hashes = Value::array();
            for (const std::string &h : m_pendingOmitted)
                hashes.push_back(s(h));
            receiptValue.set("omittedForAttention", obj({{"count", n(double(m_pendingOmitted.size()))}, {"hashes", hashes}}));
            m_pendingOmitted.clear();
        }
        // JSON sizes of the prepared request's slots, as units and UTF-8 bytes (recording.md §6.1).
        const auto sizes = [](const std::string &jsonText) {
            return obj({{"jsonChars", n(double(text::lengthU16(jsonText)))}, {"jsonBytes", n(double(jsonText.size()))}});
        };
        const std::string systemJson = json::jsQuoted(systemText);
        const std::string messagesJson = json::stringify(asSent);
        const std::string toolsJson = json::stringify(schemas);
        receiptValue.set("requestMeasurement",
                         obj({{"boundary", s("initial-prepared-request")}, {"format", s("json-utf8-v1")},
                              {"status", s("measured")},
                              {"total", sizes("{\"systemPrompt\":" + systemJson + ",\"messages\":" + messagesJson +
                                              ",\"tools\":" + toolsJson + ",\"model\":\"claude-sim-1\"}")},
                              {"slots", obj({{"systemPrompt", sizes(systemJson)},
                                             {"messages", sizes(messagesJson)},
                                             {"tools", sizes(toolsJson)}})}}));

        // -- provider usage: a simulated prefix cache (tools, then system), 5-minute TTL.
        const std::string prefixKey = json::stringify(schemas) + '\x1f' + systemText;
        double gap = 2000 + double(m_rng.below(30000));
        if (epoch > 1 && m_rng.chance(10))
            gap += 6 * 60 * 1000; // the user stepped away: past the TTL
        if (previousCallClock >= 0)
            m_clock = std::max(m_clock, previousCallClock + gap);
        const double prefixTokens = double(prefixKey.size() / 4);
        const double messageTokens = double(json::stringify(asSent).size() / 4);
        double cacheRead = 0, cacheWrite = 0;
        const bool withinTtl = previousCallClock < 0 || m_clock - previousCallClock <= 5 * 60 * 1000;
        if (previousPrefixKey && *previousPrefixKey == prefixKey && withinTtl)
            cacheRead = prefixTokens;
        else
            cacheWrite = prefixTokens;
        previousPrefixKey = prefixKey;
        previousCallClock = m_clock;

        // -- the model's reply.
        const std::string callStage = stageId("call-llm");
        event("agentfootprint.agent.iteration_start", obj({{"turnIndex", n(0)}, {"iterIndex", n(epoch)}}), callStage);
        Value toolsList = Value::array();
        for (const Tool &t : kTools)
            toolsList.push_back(obj({{"name", s(t.name)}, {"description", s(t.description)}}));
        event("agentfootprint.stream.llm_start",
              obj({{"iteration", n(epoch)}, {"provider", s("anthropic")}, {"model", s("claude-sim-1")},
                   {"systemPromptChars", n(double(text::lengthU16(systemText)))},
                   {"messagesCount", n(double(asSent.size()))}, {"toolsCount", n(double(kTools.size()))},
                   {"tools", toolsList}}),
              callStage);

        Value toolCalls = Value::array();
        std::vector<ResultInfo> newResults;
        std::vector<Value> rows;
        std::vector<std::string> undeclared;
        for (const ResultInfo &r : m_results)
            if (std::find(m_declared.begin(), m_declared.end(), r.id) == m_declared.end())
                undeclared.push_back(r.id);
        std::string content;
        const std::size_t toolCount = last || reask ? 0 : 1 + m_rng.below(3);
        for (std::size_t j = 0; j < toolCount; ++j) {
            ResultInfo r;
            r.id = "call_" + std::to_string(++resultCounter);
            r.tool = kTools[m_rng.below(kTools.size())].name;
            r.port = int(1 + m_rng.below(8));
            const bool exploratory = m_rng.chance(50);
            Value findingsArg = obj({{"basis", s(exploratory ? "exploratory" : "direct")},
                                     {"expect", s(m_rng.chance(50) ? "high" : "low")}});
            Value basisRow = obj({{"kind", s("basis")}, {"toolCallId", s(r.id)}, {"toolName", s(r.tool)},
                                  {"iteration", n(epoch)}, {"basis", *findingsArg.find("basis")},
                                  {"expect", *findingsArg.find("expect")}});
            if (exploratory) {
                const std::string proposition = "fc1/" + std::to_string(r.port) + " is the flapping port";
                findingsArg.set("proposition", s(proposition));
                basisRow.set("proposition", s(proposition));
            }
            // The first tool call of a batch carries the standings on earlier results.
            if (j == 0 && !undeclared.empty()) {
                Value previous = Value::array();
                const std::size_t count = std::min<std::size_t>(undeclared.size(), 1 + m_rng.below(3));
                for (std::size_t u = 0; u < count; ++u) {
                    const auto it = std::find_if(m_results.begin(), m_results.end(),
                                                 [&](const ResultInfo &x) { return x.id == undeclared[u]; });
                    Value row = standingRow(*it, r.id, epoch);
                    previous.push_back(obj({{"toolCallId", s(it->id)}, {"standing", *row.find("standing")}}));
                    rows.push_back(row);
                    m_declared.push_back(it->id);
                    if (row.findString("standing")->asString() == "ruled-out" && m_rng.chance(60)) {
                        Value unsettled = obj({{"kind", s("unsettled-by-absence")}, {"toolCallId", s(it->id)}});
                        unsettled.set("notChecked", arr({obj({{"what", s("the host-side HBA log")},
                                                              {"why", s("no access from this tool")}})}));
                        unsettled.set("tryInstead", s("search_logs on the host"));
                        unsettled.set("iteration", n(epoch));
                        rows.push_back(unsettled);
                    }
                    if (m_rng.chance(25))
                        rows.push_back(obj({{"kind", s("judgment")}, {"toolCallId", s(it->id)}, {"toolName", s(it->tool)},
                                            {"source", s("judge")},
                                            {"judge", obj({{"name", s("second-opinion")}, {"model", s("judge-1")}})},
                                            {"against", s("question")}, {"standing", s("open")},
                                            {"probabilities", obj({{"fact", n(0.3)}, {"open", n(0.6)}, {"noise", n(0.1)}})},
                                            {"confidence", n(0.6)}, {"latencyMs", n(120)}, {"iteration", n(epoch)}}));
                    else if (m_rng.chance(5) || (epoch == 3 && u == 0))
                        rows.push_back(obj({{"kind", s("judgment-error")}, {"toolCallId", s(it->id)},
                                            {"toolName", s(it->tool)}, {"source", s("judge")},
                                            {"judge", obj({{"name", s("second-opinion")}})},
                                            {"message", s("judge timed out")}, {"latencyMs", n(5000)},
                                            {"iteration", n(epoch)}}));
                }
                undeclared.erase(undeclared.begin(), undeclared.begin() + std::ptrdiff_t(count));
                // A value the model used that only set-aside results carried (findings.md §1.6).
                Value carriers = Value::array();
                for (const Value &row : rows)
                    if (const Value *st = row.findString("standing"); st && st->asString() != "fact" &&
                                                                      findings::rowKindOf(row) == findings::RowKind::Standing)
                        carriers.push_back(obj({{"toolCallId", *row.find("toolCallId")}, {"standing", *st}}));
                if (carriers.size() > 0 && m_rng.chance(35))
                    rows.push_back(obj({{"kind", s("contingent")}, {"declaredOn", obj({{"toolCallId", s(r.id)}})},
                                        {"value", s("crc burst on fc1/" + std::to_string(r.port))},
                                        {"carriers", carriers}, {"iteration", n(epoch)}}));
                findingsArg.set("previous", previous);
            }
            rows.insert(rows.begin() + std::ptrdiff_t(j), basisRow);
            Value args = obj({{"q", s("fc1/" + std::to_string(r.port))}, {"_findings", findingsArg}});
            toolCalls.push_back(obj({{"id", s(r.id)}, {"name", s(r.tool)}, {"args", args}}));
            newResults.push_back(r);
        }
        if (reask)
            content = "{\"cause\": ";
        else if (last)
            content = finalAnswer = "fc1/7 is flapping: its optic throws CRC bursts; replace the optic on fc1/7.";
        else
            content = "Looking at " + std::to_string(toolCount) + " more source" + (toolCount == 1 ? "" : "s") + ".";
        m_clock += 300 + double(m_rng.below(2000));
        const double output = double(content.size() / 4 + 8 * toolCount);
        const double input = messageTokens;
        m_totalIn += input;
        m_totalOut += output;
        event("agentfootprint.stream.llm_end",
              obj({{"iteration", n(epoch)}, {"content", s(content)}, {"toolCallCount", n(double(toolCount))},
                   {"usage", obj({{"input", n(input)}, {"output", n(output)}, {"cacheRead", n(cacheRead)},
                                  {"cacheWrite", n(cacheWrite)}})},
                   {"stopReason", s(toolCount ? "tool_use" : "stop")}, {"durationMs", n(300)}}),
              callStage);
        {
            Bundle call("CallLLM", "call-llm", callStage);
            call.set("receipt", receiptValue);
            call.set("llmLatestContent", s(content));
            call.set("llmLatestToolCalls", toolCalls);
            call.set("totalInputTokens", n(m_totalIn));
            call.set("totalOutputTokens", n(m_totalOut));
            commit(call, {"milestone:llm-turn", "milestone-label:LLM turn"});
        }

        // -- route, tools, ledger.
        const std::string routeStage = stageId("sf-route");
        const char *chosen = last ? "final" : reask ? "output-retry" : "tool-calls";
        event("agentfootprint.agent.route_decided",
              obj({{"turnIndex", n(0)}, {"iterIndex", n(epoch)}, {"chosen", s(chosen)}}), routeStage);
        if (toolCount > 0) {
            const std::string toolStage = stageId("tool-calls");
            Bundle tools("ToolCalls", "tool-calls", toolStage);
            Value tail = Value::array();
            Value loggedTail = Value::array();
            Value assistant = obj({{"role", s("assistant")}, {"content", s(content)}, {"toolCalls", toolCalls}});
            tail.push_back(assistant);
            loggedTail.push_back(assistant);
            Value toolResults = Value::array();
            for (std::size_t j = 0; j < newResults.size(); ++j) {
                const ResultInfo &r = newResults[j];
                const std::size_t size = m_options.resultBytes / 5 + m_rng.below(m_options.resultBytes * 2);
                const std::string result = json::stringify(
                    obj({{"port", s("fc1/" + std::to_string(r.port))}, {"state", s(m_rng.chance(60) ? "down" : "up")},
                         {"crc", n(double(m_rng.below(100000)))}, {"log", s(words(m_rng, size))}}));
                event("agentfootprint.stream.tool_start",
                      obj({{"toolName", s(r.tool)}, {"toolCallId", s(r.id)},
                           {"args", obj({{"q", s("fc1/" + std::to_string(r.port))}})}}),
                      toolStage);
                event("agentfootprint.stream.tool_end",
                      obj({{"toolCallId", s(r.id)}, {"result", s(result)}, {"durationMs", n(double(m_rng.below(900)))}}),
                      toolStage);
                Value message = obj({{"role", s("tool")}, {"content", s(result)}, {"toolCallId", s(r.id)},
                                     {"toolName", s(r.tool)}});
                tail.push_back(message);
                Value logged = message;
                if (m_options.damage.kind == Damage::Kind::MessageByte && m_options.damage.call == epoch + 1 && j == 0) {
                    std::string altered(result);
                    altered[altered.size() / 2] = altered[altered.size() / 2] == 'x' ? 'y' : 'x';
                    logged.set("content", s(altered));
                }
                loggedTail.push_back(logged);
                toolResults.push_back(obj({{"toolName", s(r.tool)}, {"result", s(result)}, {"toolCallId", s(r.id)}}));
                m_results.push_back(r);
            }
            // Now and then a batch settles a call that never ran: a notDispatched message, served but never a result.
            if (m_rng.chance(15)) {
                Value settled = obj({{"role", s("tool")}, {"content", s("Not run: the batch was settled early.")},
                                     {"toolCallId", s(newResults.back().id + "_dup")},
                                     {"notDispatched", Value::boolean(true)}, {"injectedBy", s("batch-settlement")}});
                tail.push_back(settled);
                loggedTail.push_back(settled);
            }
            for (const Value &m : tail)
                m_history.push_back(m);
            for (const Value &m : loggedTail)
                m_loggedHistory.push_back(m);
            if (evictForBudget())
                tools.set("history", m_loggedHistory);
            else
                tools.append("history", loggedTail);
            if (!rows.empty()) {
                Value tail = fileRows(rows);
                if (m_options.damage.kind == Damage::Kind::PieceRow && !m_pieceDamaged &&
                    epoch + 1 >= m_options.damage.call) {
                    // The log gets one standing with a changed character; the truth (m_ledger) keeps the original.
                    for (std::size_t i = 0; i < tail.size() && !m_pieceDamaged; ++i) {
                        const Value *standing = tail.at(i).findString("standing");
                        // Fact lines name no tool; open and ruled-out lines do (findings.md §3.4 whereOf).
                        if (findings::rowKindOf(tail.at(i)) != findings::RowKind::Standing || !standing ||
                            standing->asString() == "noise" || standing->asString() == "fact")
                            continue;
                        Value row = tail.at(i);
                        row.set("toolName", s(std::string(row.findString("toolName")->asString()) + "X"));
                        tail.itemRef(i) = row;
                        m_pieceDamaged = true;
                    }
                }
                writeLedgerTail(tail, tools);
            }
            tools.set("iteration", n(epoch + 1));
            tools.set("toolResults", toolResults);
            const Value &lastResult = toolResults.at(toolResults.size() - 1);
            tools.set("lastToolResult", obj({{"toolName", *lastResult.find("toolName")}, {"result", *lastResult.find("result")}}));
            commit(tools, {"milestone:tool-call", "milestone-label:Tool call"});
            if (m_options.historyInIterationEnd)
                event("agentfootprint.agent.iteration_end",
                      obj({{"turnIndex", n(0)}, {"iterIndex", n(epoch)}, {"toolCallCount", n(double(toolCount))},
                           {"history", m_history}}),
                      toolStage);
        } else {
            Bundle route("Route", "sf-route", routeStage);
            if (last) {
                std::vector<Value> answerRows;
                for (const std::string &id : undeclared) {
                    const auto it = std::find_if(m_results.begin(), m_results.end(),
                                                 [&](const ResultInfo &x) { return x.id == id; });
                    answerRows.push_back(standingRow(*it, "answer", epoch));
                }
                answerRows.push_back(obj({{"kind", s("contingent")}, {"declaredOn", s("answer")},
                                          {"value", s("replace the optic")},
                                          {"carriers", arr({obj({{"toolCallId", s(m_results.empty() ? "c0" : m_results.front().id)},
                                                                 {"standing", s("open")}})})},
                                          {"iteration", n(epoch)}}));
                writeLedgerTail(fileRows(answerRows), route);
                route.set("finalContent", s(content));
            } else {
                route.set("iteration", n(epoch + 1));
            }
            commit(route, {"milestone:decision", "milestone-label:Route"});
            if (m_options.historyInIterationEnd && !last)
                event("agentfootprint.agent.iteration_end",
                      obj({{"turnIndex", n(0)}, {"iterIndex", n(epoch)}, {"toolCallCount", n(0)}, {"history", m_history}}),
                      routeStage);
        }
    }
    const std::string finalStage = stageId("final/prepare-final");
    event("agentfootprint.agent.iteration_end",
          obj({{"turnIndex", n(0)}, {"iterIndex", n(calls)}, {"toolCallCount", n(0)}}), finalStage);
    event("agentfootprint.agent.turn_end",
          obj({{"turnIndex", n(0)}, {"finalContent", s(finalAnswer)}, {"totalInputTokens", n(m_totalIn)},
               {"totalOutputTokens", n(m_totalOut)}, {"iterationCount", n(calls)}, {"durationMs", n(m_clock)}}),
          finalStage);

    Value structure = obj({{"name", s("Agent")}, {"id", s("agent")}, {"type", s("stage")},
                           {"description", s("ReAct loop")}});
    m_out << "{\"snapshot\":{\"runId\":" << json::jsQuoted(json::jsNumberToString(m_wallStart) + "-0001")
          << ",\"initialState\":" << json::stringify(initialState) << ",\"commitValues\":\"delta\""
          << ",\"writeProvenance\":\"off\",\"commitLog\":[" << m_log << "],\"subflowResults\":{}},\"events\":["
          << m_events << "],\"structure\":" << json::stringify(structure) << "}\n";
}

} // namespace

void writeRecording(std::ostream &out, const GeneratorOptions &options)
{
    Generator(out, options).run();
}

std::string generateRecording(const GeneratorOptions &options)
{
    std::ostringstream out;
    writeRecording(out, options);
    return out.str();
}

} // namespace tf::generate
