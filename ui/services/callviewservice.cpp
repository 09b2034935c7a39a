#include "ui/services/callviewservice.h"

#include "ui/models/wiremodel.h"
#include "ui/services/offthreadrelease.h"
#include "ui/services/qtstrings.h"

#include "core/findings/piecediff.h"

#include <QElapsedTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <future>
#include <utility>

namespace tf::ui {

namespace {

constexpr std::size_t kCachedViews = 8;
// A build this long (ms) is worth a second thread, for the call before and for the ledger's rows: below it, a thread's
// start and a wait for a core on a busy machine cost more than the half they save (a run of small states builds both
// views in a millisecond).
constexpr double kOwnThreadFromMs = 8;

} // namespace

BundleHandle buildBundle(const RunHandle &run, std::size_t ordinal,
                         const std::function<std::shared_ptr<const recording::CallView>(std::size_t)> &cached,
                         recording::CallStates *states, recording::PreviousBuild previousBuild)
{
    QElapsedTimer timer;
    timer.start();
    auto bundle = std::make_shared<CallBundle>();
    bundle->run = run->run;
    bundle->summary = run->calls[ordinal];
    bundle->ordinal = ordinal;
    const auto fromCache = [&](std::size_t i) {
        return cached ? cached(i) : std::shared_ptr<const recording::CallView>();
    };
    bundle->view = fromCache(ordinal);
    if (ordinal > 0) {
        bundle->previous = fromCache(ordinal - 1);
        bundle->previousComplete = bundle->previous != nullptr;
    }
    bool folded = false;
    if (!bundle->view || (ordinal > 0 && !bundle->previous)) {
        // Both from one state cursor (the call before is read on the way to this one), or, for dear views, the call
        // before beside this one on a core the GUI thread is not using while it waits for the bundle.
        recording::CallViews views = recording::buildCallViews(*run->run, ordinal, states, previousBuild);
        if (!bundle->view) {
            bundle->view = std::make_shared<recording::CallView>(std::move(views.view));
            // The rebuild's own fold: its pointers are into the rows the view just moved has kept in place.
            bundle->fold = std::move(views.fold);
            folded = true;
        }
        if (!bundle->previous && views.previous)
            bundle->previous = std::make_shared<recording::CallView>(std::move(*views.previous));
    }
    // What the panes show of the views: the ledger's rows and the piece's diff, and the messages (the transcript and
    // the Wire's rows). The parts read the views and write fields of their own, so a dear build (large ledgers, long
    // histories) makes them on two threads, as it made the views. The ledger's rows are the largest part (thousands
    // of rows, each read from its scattered nodes): both threads fill them, a chunk at a time, once done with their
    // own part, and the marks are set when every row is filled.
    const json::Value &ledger = bundle->view->ledger;
    if (bundle->view->ledgerOnRecord)
        bundle->ledgerRows = findings::blankLedgerRowViews(ledger);
    std::atomic<std::size_t> nextRow{0};
    const auto fillRows = [&bundle, &ledger, &nextRow] {
        constexpr std::size_t kChunk = 128;
        const std::size_t rows = bundle->ledgerRows.size();
        for (std::size_t from = nextRow.fetch_add(kChunk); from < rows; from = nextRow.fetch_add(kChunk))
            findings::fillLedgerRowViews(ledger, bundle->ledgerRows, from, from + kChunk);
    };
    const auto foldAndPiece = [&bundle, folded, &fillRows] {
        // The fold keeps pointers to rows inside view->ledger, which the bundle owns through `view`.
        if (!folded)
            bundle->fold = findings::foldLedger(bundle->view->ledger);
        if (bundle->view->piece || (bundle->previous && bundle->previous->piece))
            bundle->pieceDiff = findings::pieceLineDiff(
                bundle->previous && bundle->previous->piece ? &*bundle->previous->piece : nullptr,
                bundle->view->piece ? &*bundle->view->piece : nullptr);
        fillRows();
    };
    const auto messages = [&bundle, &run, &fillRows] {
        bundle->transcript = recording::transcriptAt(*run->run, *bundle->view, bundle->previous.get());
        bundle->wire = WireModel::itemsFor(*bundle);
        fillRows();
    };
    if (previousBuild == recording::PreviousBuild::OwnThread) {
        std::future<void> other = std::async(std::launch::async, foldAndPiece);
        messages();
        other.get();
    } else {
        foldAndPiece();
        messages();
    }
    if (bundle->view->ledgerOnRecord)
        findings::markLedgerRowViews(bundle->ledgerRows, ledger, bundle->fold, bundle->view->ledgerIssues,
                                     bundle->view->ledgerRowsAtPrevious);
    bundle->buildMs = double(timer.nsecsElapsed()) / 1e6;
    // One stat of the path per build (microseconds), after the build has read what it needed.
    bundle->sourceChange = run->run->changedOnDisk();
    return releasedOffThread(std::move(bundle));
}

CallViewService::CallViewService(QObject *parent)
    : QObject(parent)
    , m_cache(std::make_shared<CacheState>())
{
    qRegisterMetaType<tf::ui::BundleHandle>();
    m_idle.setSingleShot(true);
    m_idle.setInterval(kIdleBeforeAheadMs);
    connect(&m_idle, &QTimer::timeout, this, &CallViewService::buildAhead);
    connect(&m_watcher, &QFutureWatcher<BundleHandle>::finished, this, [this] {
        m_running = false;
        const bool wasAhead = std::exchange(m_runningAhead, false);
        const BundleHandle bundle = m_watcher.result();
        // A bundle is current when built from the run shown, whichever snapshot of its index was shown then: more
        // calls summarized change nothing in a call already built (setRun keeps what is built then).
        const bool current = bundle && m_run && bundle->run == m_run->run;
        if (bundle)
            m_lastBuildMs = bundle->buildMs;
        if (current && !bundle->sourceChange.empty()) {
            if (m_sourceChange.isEmpty()) {
                m_sourceChange = toQString(bundle->sourceChange);
                emit sourceChangedOnDisk(m_sourceChange);
            }
            m_queued.reset();
            return;
        }
        if (wasAhead) {
            if (current && m_current && bundle->ordinal == m_current->ordinal + 1)
                m_ahead = bundle;
            // A request that came while the call ahead was building: it may be that very call.
            if (m_queued) {
                const std::size_t next = *m_queued;
                m_queued.reset();
                request(next);
            }
            return;
        }
        if (m_queued) {
            // A newer request arrived while this one was building: it supersedes the result.
            const std::size_t next = *m_queued;
            m_queued.reset();
            if (!current || bundle->ordinal != next) {
                start(next);
                return;
            }
        }
        if (!current || !m_requested || bundle->ordinal != *m_requested) {
            // Superseded by a call delivered meanwhile (from the bundle ahead): its own pause starts again.
            if (m_current && !m_idle.isActive())
                m_idle.start();
            return;
        }
        deliver(bundle);
    });
}

void CallViewService::deliver(const BundleHandle &bundle)
{
    m_current = bundle;
    // The call ahead of another call is of no use any more.
    if (m_ahead && m_ahead->ordinal != bundle->ordinal + 1)
        m_ahead.reset();
    m_idle.start();
    emit ready(bundle);
}

void CallViewService::buildAhead()
{
    // m_current is of m_run: setRun drops it with the run it came from.
    if (m_running || !m_run || !m_current || !m_sourceChange.isEmpty())
        return;
    const std::size_t next = m_current->ordinal + 1;
    if (next >= m_run->calls.size() || (m_ahead && m_ahead->ordinal == next))
        return;
    start(next, true);
}

CallViewService::~CallViewService()
{
    m_watcher.waitForFinished();
}

void CallViewService::setRun(const RunHandle &run)
{
    // More of the same run indexed: every view built so far still holds, and the shown call stays.
    if (run && m_run && run->run == m_run->run) {
        m_run = run;
        // The call shown may have a next one now.
        if (m_current && !m_ahead && !m_running && !m_idle.isActive())
            m_idle.start();
        return;
    }
    // The cursor first: its reader of the old run's file must end while the run (held here, or by nothing else) lives.
    m_states.reset();
    m_run = run;
    m_states = run ? std::make_shared<recording::CallStates>(*run->run, recording::CallStates::Order::Any) : nullptr;
    m_current.reset();
    m_ahead.reset();
    m_idle.stop();
    m_requested.reset();
    m_queued.reset();
    m_sourceChange.clear();
    m_lastBuildMs = 0;
    std::lock_guard lock(m_cache->mutex);
    m_cache->views.clear();
    m_cache->generation = ++m_runGeneration;
}

void CallViewService::request(std::size_t ordinal)
{
    if (!m_run || ordinal >= m_run->calls.size() || !m_sourceChange.isEmpty())
        return;
    m_requested = ordinal;
    m_idle.stop();
    if (m_current && m_current->ordinal == ordinal && (!m_running || m_runningAhead)) {
        m_queued.reset();
        deliver(m_current);
        return;
    }
    if (m_ahead && m_ahead->ordinal == ordinal) { // of m_run, as m_current
        // Built ahead while the reader read the call before. A build still running (one ahead of this call, or a
        // request this one supersedes) is kept or dropped when it ends.
        m_queued.reset();
        deliver(std::exchange(m_ahead, nullptr));
        return;
    }
    if (m_running) {
        m_queued = ordinal;
        return;
    }
    start(ordinal);
}

void CallViewService::start(std::size_t ordinal, bool ahead)
{
    m_running = true;
    m_runningAhead = ahead;
    const RunHandle run = m_run;
    const std::shared_ptr<CacheState> cache = m_cache;
    const quint64 generation = m_runGeneration;
    // At most one build runs at a time, so the state cursor is never used by two threads at once.
    const std::shared_ptr<recording::CallStates> states = m_states;
    const recording::PreviousBuild previousBuild =
        m_lastBuildMs >= kOwnThreadFromMs ? recording::PreviousBuild::OwnThread : recording::PreviousBuild::SameThread;
    m_watcher.setFuture(QtConcurrent::run([run, ordinal, cache, generation, states, previousBuild] {
        const auto lookup = [&](std::size_t i) -> std::shared_ptr<const recording::CallView> {
            std::lock_guard lock(cache->mutex);
            if (cache->generation != generation)
                return nullptr;
            for (auto it = cache->views.begin(); it != cache->views.end(); ++it)
                if (it->first == i) {
                    cache->views.splice(cache->views.begin(), cache->views, it);
                    return it->second;
                }
            return nullptr;
        };
        BundleHandle bundle = buildBundle(run, ordinal, lookup, states.get(), previousBuild);
        std::lock_guard lock(cache->mutex);
        if (cache->generation == generation && bundle->sourceChange.empty()) {
            const auto keep = [&](std::size_t i, const std::shared_ptr<const recording::CallView> &v) {
                if (!v)
                    return;
                for (auto it = cache->views.begin(); it != cache->views.end(); ++it)
                    if (it->first == i) {
                        cache->views.erase(it);
                        break;
                    }
                cache->views.emplace_front(i, v);
                while (cache->views.size() > kCachedViews)
                    cache->views.pop_back();
            };
            if (bundle->previous && bundle->previousComplete)
                keep(ordinal - 1, bundle->previous);
            keep(ordinal, bundle->view);
        }
        return bundle;
    }));
}

} // namespace tf::ui
