#include "callview.h"

#include "callinternals.h"

#include "core/findings/piecediff.h"
#include "core/json/writer.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <exception>
#include <future>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>

namespace tf::recording {

const char *badgeId(Badge badge)
{
    switch (badge) {
    case Badge::Verified:
        return "verified";
    case Badge::Reconstructed:
        return "reconstructed";
    case Badge::Damaged:
        return "damaged";
    case Badge::NotOnRecord:
        return "not-on-record";
    case Badge::Redacted:
        return "redacted";
    }
    return "reconstructed";
}

std::string ToolView::schemaText() const
{
    return schema ? json::prettyPrint(*schema) : std::string();
}

const char *cacheVerdictId(CacheVerdict verdict)
{
    switch (verdict) {
    case CacheVerdict::Hit:
        return "hit";
    case CacheVerdict::WriteOnly:
        return "write-only";
    case CacheVerdict::Miss:
        return "miss";
    case CacheVerdict::Unmeasured:
        return "unmeasured";
    }
    return "unmeasured";
}

const char *foldBasisName(FoldBasis basis)
{
    switch (basis) {
    case FoldBasis::InitialPlusLog:
        return "initial+log";
    case FoldBasis::LogOnly:
        return "log-only";
    case FoldBasis::SubflowLogs:
        return "subflow-logs";
    case FoldBasis::EventsOnly:
        return "events-only";
    }
    return "events-only";
}

namespace {

// Stage 3 of a view rebuilt and verified: what it says against the call before.
void finishView(const Run &run, const CallView *previous, CallView &view)
{
    if (previous) {
        view.ledgerRowsAtPrevious = previous->ledgerOnRecord ? previous->ledger.size() : 0;
        view.pieceChangedSincePrevious = view.piece.has_value() != previous->piece.has_value() ||
                                         (view.piece && previous->piece && view.piece->text != previous->piece->text);
    } else {
        view.pieceChangedSincePrevious = view.piece.has_value();
    }
    detail::computeCacheFacts(run, previous, view);
}

CallView buildViewAfter(const Run &run, std::size_t index, const CallView *previous, CallStates *states,
                        findings::LedgerFold *fold)
{
    CallView view;
    detail::rebuildServed(run, index, view, states, fold);
    detail::verifyReceipt(run, view);
    finishView(run, previous, view);
    return view;
}

} // namespace

CallView buildCallViewAfter(const Run &run, std::size_t index, const CallView *previous, CallStates *states)
{
    return buildViewAfter(run, index, previous, states, nullptr);
}

CallViews buildCallViews(const Run &run, std::size_t index, CallStates *states, PreviousBuild previousBuild)
{
    std::optional<CallStates> own;
    if (!states)
        states = &own.emplace(run);
    CallViews out;
    const bool withPrevious = index > 0 && index < run.calls.size();
    if (withPrevious && previousBuild == PreviousBuild::OwnThread) {
        // Stages 1 and 2 of a call do not read the call before: both run at once, then stage 3 compares them. The
        // view of the call before reads the run only (as visitCallViews' workers do), never `states`.
        std::future<CallView> previous = std::async(std::launch::async, [&run, index] {
            CallView view;
            detail::rebuildServed(run, index - 1, view, nullptr);
            detail::verifyReceipt(run, view);
            return view;
        });
        CallView view;
        std::exception_ptr failure;
        try {
            detail::rebuildServed(run, index, view, states, &out.fold);
            detail::verifyReceipt(run, view);
        } catch (...) {
            failure = std::current_exception();
        }
        out.previous.emplace(previous.get()); // waits for the thread even when this one failed
        if (failure)
            std::rethrow_exception(failure);
        finishView(run, &*out.previous, view);
        out.view = std::move(view);
        return out;
    }
    if (withPrevious) {
        out.previous.emplace();
        detail::rebuildServed(run, index - 1, *out.previous, states);
        detail::verifyReceipt(run, *out.previous);
    }
    out.view = buildViewAfter(run, index, out.previous ? &*out.previous : nullptr, states, &out.fold);
    return out;
}

CallView buildCallView(const Run &run, std::size_t index)
{
    return std::move(buildCallViews(run, index).view);
}

namespace {

// Equal lists, kept once (CallSummary::checkList, gapList). Thread-safe: the summary workers share one.
template <class T>
class ListInterner
{
public:
    std::shared_ptr<const std::vector<T>> intern(const std::vector<T> &list)
    {
        std::size_t h = list.size();
        for (const T &item : list)
            h = h * 31 + hashOf(item);
        const std::lock_guard lock(m_mutex);
        auto [first, last] = m_lists.equal_range(h);
        for (auto it = first; it != last; ++it)
            if (*it->second == list)
                return it->second;
        auto shared = std::make_shared<const std::vector<T>>(list);
        m_lists.emplace(h, shared);
        return shared;
    }

private:
    static std::size_t hashOf(const PartCheck &c)
    {
        return std::hash<std::string>{}(c.part) ^ (std::hash<std::string>{}(c.reason) * 3) ^ std::size_t(c.badge);
    }
    static std::size_t hashOf(const Gap &g)
    {
        return std::hash<std::string>{}(g.name) ^ (std::hash<std::string>{}(g.cause) * 3);
    }

    std::mutex m_mutex;
    std::unordered_multimap<std::size_t, std::shared_ptr<const std::vector<T>>> m_lists;
};

struct SummaryInterners
{
    ListInterner<PartCheck> checks;
    ListInterner<Gap> gaps;
};

CallSummary summaryOf(const CallView &view, const CallView *previous, std::size_t i, SummaryInterners &interners)
{
    CallSummary s;
    s.ordinal = i;
    s.epoch = view.epoch;
    s.turn = view.turn;
    s.callRuntimeStageId = view.record->callRuntimeStageId;
    s.runId = view.record->runId;
    if (view.response) {
        CallSummary::ResponseBrief &r = s.response.emplace();
        r.text = view.response->text;
        r.stopReason = view.response->stopReason;
        r.durationMs = view.response->durationMs;
        for (const ToolCallRequest &c : view.response->toolCalls)
            r.toolCalls.emplace_back(c.id, c.name);
    }
    for (const ToolRun &t : view.toolRuns)
        if (t.started || t.returned)
            s.toolResults.push_back({t.id, t.name, t.error, t.returned, t.durationMs, t.awaitingHuman, t.missingReason,
                                     t.error ? t.result.value_or("") : std::string()});
    s.model = view.model;
    if (view.conversationOnRecord)
        s.messageCount = view.asSent.size();
    for (const auto &c : view.collapsed)
        s.collapsedIds.push_back(c.toolCallId);
    if (view.piece) {
        s.pieceLengthU16 = view.piece->lengthU16();
        s.pieceSizeUtf8 = view.piece->sizeUtf8();
    }
    s.pieceChangedSincePrevious = view.pieceChangedSincePrevious;
    if (view.pieceChangedSincePrevious) {
        const text::DiffStats d = text::diffStats(findings::pieceLineDiff(
            previous && previous->piece ? &*previous->piece : nullptr, view.piece ? &*view.piece : nullptr));
        s.pieceLinesAdded = std::size_t(d.added);
        s.pieceLinesRemoved = std::size_t(d.removed);
    }
    s.ledgerRows = view.ledgerOnRecord ? view.ledger.size() : 0;
    s.ledgerChanged = view.ledgerOnRecord && s.ledgerRows != view.ledgerRowsAtPrevious;
    s.ledgerRowsNew = s.ledgerRows > view.ledgerRowsAtPrevious ? s.ledgerRows - view.ledgerRowsAtPrevious : 0;
    s.ledgerMarks = view.ledgerMarks;
    s.prefixReusable = view.cache.prefixReusable;
    s.systemUnchanged = view.cache.systemUnchanged;
    s.gapMs = view.cache.gapMs;
    s.ttlMs = view.cache.ttlMs;
    s.pastTtl = view.cache.pastTtl;
    s.cacheRead = view.usage.cacheRead;
    s.cacheWrite = view.usage.cacheWrite;
    s.input = view.usage.input;
    s.output = view.usage.output;
    s.verdict = view.cache.verdict;
    s.transformHashScheme = view.transformHashScheme;
    s.damaged = view.damaged;
    for (const PartCheck &c : view.checks) {
        switch (c.badge) {
        case Badge::Verified:
            ++s.verified;
            break;
        case Badge::Reconstructed:
            ++s.reconstructed;
            break;
        case Badge::Damaged:
            ++s.damagedParts;
            break;
        case Badge::NotOnRecord:
            ++s.notOnRecord;
            break;
        case Badge::Redacted:
            ++s.redacted;
            break;
        }
    }
    s.checkList = interners.checks.intern(view.checks);
    s.gapList = interners.gaps.intern(view.gaps);
    return s;
}

} // namespace

std::size_t wholeRunWorkers()
{
    return std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 8);
}

bool visitCallViews(const Run &run, std::size_t workers,
                    const std::function<bool(std::size_t, const CallView &, const CallView *)> &visit,
                    const std::function<bool(std::size_t)> &settled, std::size_t from)
{
    const std::size_t total = run.calls.size();
    from = std::min(from, total);
    const std::size_t count = total - from; // the calls visited: from `from` on
    // Calls are independent but for "since previous": each chunk rebuilds the call before it first, on a state cursor
    // of its own (one that read on across the other workers' chunks would parse every row once per worker). Views
    // only read the Run (its one shared memo is locked), so workers need no other coordination. A chunk shorter than
    // 16 calls costs more in rebuilding the call before it than it saves. A pass nobody watches settle takes one
    // chunk a worker (each start costs a state rebuild: 14 more made inspect 10 % slower at 5,000 calls); one that is
    // watched takes eight a worker, of at most 1,024 calls, lest the settled calls wait seconds for the next chunk.
    workers = std::max<std::size_t>(1, std::min(workers, count / 16));
    const std::size_t chunk = settled ? std::clamp<std::size_t>((count + workers * 8 - 1) / (workers * 8), 16, 1024)
                                      : std::max<std::size_t>(1, (count + workers - 1) / workers);
    const std::size_t chunks = (count + chunk - 1) / chunk;
    std::vector<std::atomic<bool>> chunkDone(chunks);
    std::atomic<std::size_t> nextChunk{0};
    std::atomic<bool> stop{false};
    std::size_t settledChunks = 0; // read and advanced by the calling thread only
    const auto settledCalls = [&] {
        while (settledChunks < chunks && chunkDone[settledChunks].load(std::memory_order_acquire))
            ++settledChunks;
        return from + std::min(count, settledChunks * chunk);
    };
    const auto work = [&](bool callingThread) {
        for (std::size_t c = nextChunk++; c < chunks && !stop.load(std::memory_order_relaxed); c = nextChunk++) {
            const std::size_t begin = from + c * chunk, end = std::min(total, begin + chunk);
            CallStates states(run);
            std::optional<CallView> previous;
            if (begin > 0) {
                previous.emplace();
                detail::rebuildServed(run, begin - 1, *previous, &states);
                detail::verifyReceipt(run, *previous);
            }
            std::size_t i = begin;
            for (; i < end && !stop.load(std::memory_order_relaxed); ++i) {
                CallView view = buildCallViewAfter(run, i, previous ? &*previous : nullptr, &states);
                if (!visit(i, view, previous ? &*previous : nullptr))
                    stop = true;
                previous = std::move(view);
                if (callingThread && settled && !settled(settledCalls()))
                    stop = true;
            }
            if (i == end) // a chunk left when the pass stopped never settles
                chunkDone[c].store(true, std::memory_order_release);
        }
    };
    std::vector<std::thread> threads;
    for (std::size_t w = 1; w < workers; ++w)
        threads.emplace_back(work, false);
    work(true);
    for (std::thread &t : threads)
        t.join();
    if (!stop && settled && !settled(settledCalls()))
        stop = true;
    return !stop;
}

bool summarizeCallsInto(const Run &run, std::span<CallSummary> out, const SummaryProgress &progress, std::size_t from)
{
    const std::size_t count = run.calls.size();
    assert(out.size() == count);
    from = std::min(from, count);
    std::atomic<std::size_t> done{from};
    SummaryInterners interners;
    const auto visit = [&](std::size_t i, const CallView &view, const CallView *previous) {
        out[i] = summaryOf(view, previous, i, interners);
        done.fetch_add(1, std::memory_order_relaxed);
        return true;
    };
    // The settled summaries are final: the workers write only past them.
    const auto settled = [&](std::size_t n) {
        return progress(double(done.load(std::memory_order_relaxed)) / double(count), out.first(n));
    };
    return visitCallViews(run, wholeRunWorkers(), visit, progress ? std::function<bool(std::size_t)>(settled) : nullptr,
                          from);
}

std::vector<CallSummary> summarizeCalls(const Run &run, const SummaryProgress &progress)
{
    std::vector<CallSummary> out(run.calls.size());
    if (!summarizeCallsInto(run, out, progress))
        return {}; // cancelled: the chunks are only partly filled
    return out;
}

std::shared_ptr<const std::vector<CallSummary>>
indexCalls(std::shared_ptr<const Run> run, std::span<const CallSummary> settled, const CallIndexProgress &progress,
           double *carriedMs)
{
    const auto carryStart = std::chrono::steady_clock::now();
    const std::size_t count = run->calls.size();
    const std::size_t from = std::min(settled.size(), count);
    auto store = std::make_shared<std::vector<CallSummary>>(count);
    std::copy_n(settled.begin(), from, store->begin());
    if (carriedMs)
        *carriedMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - carryStart).count();
    CallIndex index{run, store, from, from};
    const bool done = summarizeCallsInto(*run, *store,
                                         progress ? SummaryProgress([&](double f, std::span<const CallSummary> now) {
                                             index.settled = now.size();
                                             return progress(f, index);
                                         })
                                                  : SummaryProgress(),
                                         from);
    if (!done)
        return nullptr;
    return store;
}

bool CallSummary::anyToolError() const
{
    for (const ToolResultBrief &t : toolResults)
        if (t.error)
            return true;
    return false;
}

const std::vector<PartCheck> &CallSummary::checks() const
{
    static const std::vector<PartCheck> kNone;
    return checkList ? *checkList : kNone;
}

const std::vector<Gap> &CallSummary::gaps() const
{
    static const std::vector<Gap> kNone;
    return gapList ? *gapList : kNone;
}

std::vector<Gap> distinctGaps(const std::vector<Gap> &runGaps, std::span<const CallSummary> calls)
{
    std::vector<Gap> out = runGaps;
    std::unordered_set<std::string_view> listed;
    for (const Gap &g : runGaps)
        listed.insert(g.name); // views into runGaps, which outlive this call (out's copies may move)
    for (const CallSummary &c : calls)
        for (const Gap &g : c.gaps())
            if (listed.insert(g.name).second) // a view into calls
                out.push_back(g);
    return out;
}

} // namespace tf::recording
