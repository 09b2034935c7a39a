#pragma once

#include "callrecord.h"
#include "callresponse.h"
#include "gap.h"
#include "run.h"

#include "core/findings/collapse.h"
#include "core/findings/findingspiece.h"
#include "core/findings/ledgerrowview.h"
#include "core/receipt/transformhash.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tf::recording {

// spec/recording.md §6.6.
enum class Badge
{
    Verified,
    Reconstructed,
    Damaged,
    NotOnRecord,
    // spec/upstream-since-9.113.md §4: rebuilt from a value a run's redaction policy kept out (REDACTED or [REDACTED]
    // under the agentfootprint.redaction recorder row). Its hash is of the original, so it cannot verify; it is not
    // damage either.
    Redacted
};
const char *badgeId(Badge badge); // "verified", "reconstructed", "damaged", "not-on-record", "redacted"

// One verified part of a call: a rebuilt row or a receipt-only field.
struct PartCheck
{
    std::string part; // stable id: "system.text", "system.pieces[2]", "messages[4]", "tools.names", ...
    Badge badge = Badge::Reconstructed;
    std::string reason; // one sentence: why this badge
    bool operator==(const PartCheck &) const = default;
};

struct SystemPieceView
{
    std::string slot;
    std::string source;
    std::string text; // WTF-8
};

struct ToolView
{
    std::string name;
    std::optional<std::string> description;
    std::optional<json::Value> schema; // nullopt: not on record (events only, forced tool)
    std::string schemaText() const;    // the schema pretty-printed; empty when not on record
};

enum class CacheVerdict
{
    Hit,
    WriteOnly,
    Miss,
    Unmeasured
};
const char *cacheVerdictId(CacheVerdict verdict);

// §7: what the framework offered, what the strategy kept, whether the prefix could be reused, what the provider said.
struct CacheFacts
{
    std::optional<json::Value> candidates; // cacheMarkers at the call; nullopt: not on record
    std::optional<std::string> gateBranch; // "apply-markers" | "no-markers"; nullopt: not on record
    std::optional<json::Value> applied;    // receipt.cache.markersApplied; nullopt: no receipt
    // receipt.cache.strategy in its 9.138+ name (receipt::currentStrategyName); nullopt: no receipt, an older one
    // without the field, or null (no strategy ran)
    std::optional<std::string> strategy;
    std::optional<bool> systemUnchanged; // nullopt: first call or not comparable
    std::optional<bool> toolsUnchanged;
    std::optional<bool> prefixReusable; // tools unchanged AND system unchanged (§7.3)
    bool fromStoredHashes = false;      // true: compared the stored receipt hashes; false: rebuilt text
    std::string reason;                 // why the prefix was or was not reusable
    std::optional<double> gapMs;        // wall clock since the previous call
    double ttlMs = 5 * 60 * 1000;       // short TTL unless a marker asks for long
    bool pastTtl = false;
    CacheVerdict verdict = CacheVerdict::Unmeasured;
};

// Everything the app shows for one LLM call, rebuilt from the record (spec/recording.md §5).
struct CallView
{
    const CallRecord *record = nullptr;
    // What the call read and the receipt that followed it, rebuilt from the file for this view (Run::stateAt,
    // Run::receiptAfter); every other part of the view is derived from these and the call's events.
    json::Value stateAt = json::Value::object();
    std::optional<json::Value> receiptAfter;
    std::optional<json::Value> toolCallsAfter; // llmLatestToolCalls as the call's bundle committed it
    std::size_t ordinal = 0;
    int epoch = 0;
    std::size_t turn = 0; // 0-based index into Run::turns
    std::string runId;
    std::string model, provider;

    // System prompt (§5.3)
    bool systemOnRecord = false; // the whole text is known
    std::string systemText;      // WTF-8; only when systemOnRecord
    std::vector<SystemPieceView> systemPieces;
    std::optional<std::size_t> recordedSystemLengthU16; // llm_start.systemPromptChars
    std::string systemNote;                             // e.g. "12 units were served that are not on record"

    // Messages (§5.4)
    bool conversationOnRecord = false;
    json::Value committed; // before collapse and strip
    json::Value asSent;    // after collapse and strip
    std::vector<findings::CollapsedMessage> collapsed;
    std::vector<std::string> servedIds;
    std::vector<std::string> undeclaredIds;
    std::optional<std::size_t> recordedMessageCount; // llm_start.messagesCount

    // Findings (§5.6, §5.7)
    bool ledgerOnRecord = false;
    json::Value ledger = json::Value::array(); // rows at the call
    std::size_t ledgerRowsAtPrevious = 0;      // rows [ledgerRowsAtPrevious, size) were filed since the previous call
    std::optional<findings::FindingsPiece> piece;
    std::string noPieceReason;
    bool pieceChangedSincePrevious = false;
    std::vector<findings::RowIssue> ledgerIssues;
    findings::LedgerMarkCounts ledgerMarks; // how many rows at the call carry each mark but "new"

    // Tools (§5.5)
    bool toolsOnRecord = false;
    bool schemasOnRecord = false;
    std::vector<ToolView> tools;
    std::optional<std::string> forcedTool;
    std::optional<std::string> withheld;

    // Events (spec/runs.md §2-§3)
    Usage usage; // the response's, when there is one
    std::optional<double> wallClockMs;
    std::optional<double> durationMs;
    std::optional<Response> response; // nullopt: no response on record (no llm_end)
    std::vector<ToolRun> toolRuns;    // the tools the response asked for: those that ran, then those that did not
    std::optional<std::string> route; // route_decided.chosen

    // Receipt (§6)
    enum class ReceiptState
    {
        None,
        Rejected,
        Placeholder,
        Hashed
    };
    ReceiptState receiptState = ReceiptState::None;
    std::vector<PartCheck> checks;
    // The scheme of receipt.cache.transformHash when it holds one (also in the check's reason).
    std::optional<receipt::TransformHashScheme> transformHashScheme;
    bool damaged = false;
    std::vector<Gap> gaps;
    std::vector<std::string> notes;

    CacheFacts cache;
};

// Where views get the state at each call and the receipt after it: a StateJournal::Cursor per log, so that calls
// taken in increasing order parse each row once; an earlier call is rebuilt from its journal. Keep one for a pass
// (or for a window that steps through a run) and use it from one thread at a time.
class CallStates
{
public:
    // How the calls will be asked for: in order by a whole-run pass, or in any order by a window, whose cursors then
    // read on only a few rows (a step) and rebuild on a jump.
    enum class Order
    {
        Increasing,
        Any
    };

    explicit CallStates(const Run &run, Order order = Order::Increasing)
        : m_run(run)
        , m_order(order)
        , m_reader(run.source.get())
    {
    }
    // Fills view.stateAt and view.receiptAfter for `call`.
    void read(const CallRecord &call, CallView &view);

private:
    const Run &m_run;
    Order m_order;
    io::MappedFile::Reader m_reader;
    std::map<const StateJournal *, StateJournal::Cursor> m_cursors;
};

// The view of a call, and of the call before it as far as "since previous" needs it: rebuilt and verified, without
// its own cache facts (nullopt for the first call).
struct CallViews
{
    CallView view;
    std::optional<CallView> previous;
    // findings::foldLedger(view.ledger), as the rebuild made it (empty when the ledger is not on record), so that a
    // caller that needs it does not fold the ledger again. It points into view.ledger's rows, which stay in place
    // while the view is moved and live as long as any copy of it.
    findings::LedgerFold fold;
};

// Where buildCallViews rebuilds the call before: on the calling thread, read through the same state cursor on the
// way to the call (a step costs a few rows), or on a thread of its own beside the call, its state rebuilt from the
// run's journal (what a jump costs anyway): the same views, in about half the time where a core is free.
enum class PreviousBuild
{
    SameThread,
    OwnThread
};

// Builds the view of call `index`. Cheap enough to run on every cursor move: it folds nothing, it rebuilds the one
// call and the one before it, from one state cursor (`states`, or a fresh one).
CallViews buildCallViews(const Run &run, std::size_t index, CallStates *states = nullptr,
                         PreviousBuild previousBuild = PreviousBuild::SameThread);
CallView buildCallView(const Run &run, std::size_t index);
// The view of call `index` given the view of the call before it (`previous`, rebuilt and verified; nullptr for the
// first call): what a pass over the calls in order uses, so that each call is rebuilt once.
CallView buildCallViewAfter(const Run &run, std::size_t index, const CallView *previous, CallStates *states);

// The per-call figures every call list needs, computed once for the whole run (CLI inspect, GUI call list).
struct CallSummary
{
    std::size_t ordinal = 0;
    int epoch = 0;
    std::size_t turn = 0; // 0-based
    std::string callRuntimeStageId;
    std::string_view runId; // the run's (CallRecord::runId)
    std::string model;
    // The response in brief (inspect --json "response", the call list): nullopt when none is on record.
    struct ResponseBrief
    {
        std::string text;
        std::optional<std::string> stopReason;
        std::optional<double> durationMs;
        std::vector<std::pair<std::string, std::string>> toolCalls; // (id, name)
    };
    std::optional<ResponseBrief> response;
    struct ToolResultBrief
    {
        std::string id, name;
        bool error = false, returned = false;
        std::optional<double> durationMs;
        bool awaitingHuman = false; // ToolRun::awaitingHuman
        std::string missingReason;  // ToolRun::missingReason: why it never returned, when it did not
        std::string errorText;      // what the model was served when the tool threw (ToolRun::result); else empty
    };
    std::vector<ToolResultBrief> toolResults; // the tools that ran for this call's response
    bool anyToolError() const;
    std::optional<std::size_t> messageCount; // nullopt: conversation not on record
    std::vector<std::string> collapsedIds;
    std::optional<std::size_t> pieceLengthU16;
    std::optional<std::size_t> pieceSizeUtf8;
    bool pieceChangedSincePrevious = false;
    // The piece's line diff against the previous call's (findings::pieceLineDiff), in counts; zero when unchanged.
    std::size_t pieceLinesAdded = 0, pieceLinesRemoved = 0;
    bool ledgerChanged = false;
    std::size_t ledgerRows = 0;
    std::size_t ledgerRowsNew = 0; // filed since the previous call
    findings::LedgerMarkCounts ledgerMarks;
    std::optional<bool> prefixReusable;
    std::optional<bool> systemUnchanged;
    // CacheFacts::gapMs, ttlMs, pastTtl: the wall clock since the previous call against the cached prefix's lifetime.
    std::optional<double> gapMs;
    double ttlMs = 0;
    bool pastTtl = false;
    std::optional<double> cacheRead, cacheWrite, input, output;
    CacheVerdict verdict = CacheVerdict::Unmeasured;
    std::optional<receipt::TransformHashScheme> transformHashScheme;
    bool damaged = false;
    std::size_t verified = 0, reconstructed = 0, damagedParts = 0, notOnRecord = 0, redacted = 0;
    // Shared by every summary with an equal list (summarizeCalls interns them): a run of 100,000 calls has a few
    // dozen distinct lists, where a copy per call would cost a kilobyte or two each.
    std::shared_ptr<const std::vector<PartCheck>> checkList;
    std::shared_ptr<const std::vector<Gap>> gapList;

    const std::vector<PartCheck> &checks() const;
    const std::vector<Gap> &gaps() const;
};

// The threads a whole-run pass takes unless told otherwise (summaries, inspect's print, a comparison's fingerprints):
// every core, at least one and at most eight (each worker's chunk begins with a rebuild of the call before it, which
// more and smaller chunks pay again and again).
std::size_t wholeRunWorkers();

// A pass over every call of a run from call `from` on: builds each call's view once and hands it to
// `visit(index, view, previous)` (previous: the view of the call before, rebuilt and verified without its cache facts;
// nullptr first) on up to `workers` threads, the calling thread among them. Calls are handed out in chunks, in order,
// so they settle from the first on at the pace of every worker: `settled(n)`, when given, is called on the calling
// thread between its calls with how many calls from the first are visited (every call before n is; the calls before
// `from` count as visited). `visit` or `settled` returns false to stop the pass; it then returns false. Whole-run
// lists (summarizeCalls, a run comparison) are built this way.
bool visitCallViews(const Run &run, std::size_t workers,
                    const std::function<bool(std::size_t, const CallView &, const CallView *previous)> &visit,
                    const std::function<bool(std::size_t settled)> &settled = {}, std::size_t from = 0);

// Called on the calling thread as summarizeCalls goes: the share of calls summarized, and the summaries of the calls
// settled so far (the first ones, final). False cancels: summarizeCalls then returns nothing.
using SummaryProgress = std::function<bool(double done, std::span<const CallSummary> settled)>;
std::vector<CallSummary> summarizeCalls(const Run &run, const SummaryProgress &progress = {});
// The same into `out` (one summary per call of the run), which the caller owns: the settled summaries are final and
// nothing writes them again, so whoever holds `out` may read them while the pass writes the ones after. The first
// `from` summaries are taken as settled already (those of an earlier snapshot of the same run, whose calls have not
// changed: a followed log that grew) and only the calls after them are summarized. False when cancelled (`out` then
// partly filled).
bool summarizeCallsInto(const Run &run, std::span<CallSummary> out, const SummaryProgress &progress = {},
                        std::size_t from = 0);

// The index of a run's calls as it is built: one summary per call in a store that the snapshots share, of which the
// first `settled` are final (the rest are being written, and are not to be read).
struct CallIndex
{
    std::shared_ptr<const Run> run;
    std::shared_ptr<const std::vector<CallSummary>> summaries;
    std::size_t settled = 0;
    std::size_t kept = 0; // the first calls, kept from an earlier snapshot rather than indexed here
};
// Called on the indexing thread as the index grows (the share of calls summarized, and the index so far); false
// cancels.
using CallIndexProgress = std::function<bool(double done, const CallIndex &index)>;
// The one way a run's calls are indexed, whether a file is opened (nothing settled) or a followed log grew
// (`settled`: the first calls' summaries of the last snapshot, whose calls cannot have changed; they are kept and
// only the calls after them are summarized). The summaries of the whole run; null when cancelled. `carriedMs`, when
// given, receives the wall time of carrying the settled summaries over (a follower paces its polls by what grows with
// the log, and that does).
std::shared_ptr<const std::vector<CallSummary>> indexCalls(std::shared_ptr<const Run> run,
                                                           std::span<const CallSummary> settled,
                                                           const CallIndexProgress &progress = {},
                                                           double *carriedMs = nullptr);

// Everything a recording lacks, once: the run's gaps, then each call gap whose name is not listed yet, in call
// order (inspect --json's "gaps", the summary bar's chips). Linear in the calls' gaps: a run of 100,000 calls lists
// a few on every call.
std::vector<Gap> distinctGaps(const std::vector<Gap> &runGaps, std::span<const CallSummary> calls);

} // namespace tf::recording
