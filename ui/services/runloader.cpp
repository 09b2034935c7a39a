#include "ui/services/runloader.h"

#include "ui/services/bundledsample.h"
#include "ui/services/indexingsnapshots.h"
#include "ui/services/qtstrings.h"

#include "core/audit/runaudit.h"
#include "core/io/residentceiling.h"
#include "core/recording/recordingloader.h"
#include "core/recording/runpreview.h"
#include "core/recording/statejournal.h"
#include "core/recording/timelineview.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

namespace tf::ui {

namespace {

// The window's peak memory is to stay under half the file it shows (issue 18's target 4): the mapping's pages may
// stay resident while the whole process is under two fifths of it, the rest a margin for what a load or a switch
// allocates. Where the window already holds more (a small file, a run of 100,000 calls), the passes' own budgets
// apply as before.
void limitResidentToFile(const QString &path)
{
    io::setResidentCeiling(std::size_t(QFileInfo(path).size()) / 5 * 2);
}

// The loader reports up to 1.0 when the run is built; summarizing every call is the last stretch of the bar.
constexpr double kLoaderShare = 0.75;

class LoaderText
{
    Q_DECLARE_TR_FUNCTIONS(tf::ui::RunLoader)

public:
    static QString summarizing() { return tr("Summarizing calls"); }
    static QString unreadable(const QString &path, const QString &why)
    {
        return tr("%1: cannot read the file (%2)").arg(path, why);
    }
};

} // namespace

QString bundledSampleDisplayName()
{
    return QCoreApplication::translate("tf::ui::RunLoader", "Bundled sample (tracefold-sample.json)");
}

RunLoader::RunLoader(QObject *parent)
    : QObject(parent)
{
    m_previewPool.setMaxThreadCount(1);
    qRegisterMetaType<tf::ui::RunHandle>();
}

RunLoader::~RunLoader()
{
    // The workers hold no pointer to this object, but their progress lambdas post to it: finish them first.
    if (m_cancel)
        m_cancel->store(true);
    for (QFutureWatcher<Outcome> *w : std::as_const(m_watchers))
        w->waitForFinished();
    for (QFutureWatcher<void> *w : std::as_const(m_previews))
        w->waitForFinished();
}

RunLoader::Outcome RunLoader::loadNow(const QString &path, const std::atomic<bool> *cancel,
                                      const std::function<void(double, const QString &)> &progress,
                                      const std::function<void(const RunHandle &)> &indexing, qint64 snapshotMs)
{
    Outcome out;
    recording::LoadControl control;
    control.cancel = cancel;
    // The preview reads the first calls on the other core meanwhile (previewNow): with the loader's second thread
    // beside it (recording::detail::ListReadAhead), call 1 of the 390 MB bench file came on screen after 200-266 ms
    // instead of 131-152, for an index 4 % sooner (docs/performance.md, ninth session).
    control.readAheadFromBytes = SIZE_MAX;
    if (progress)
        control.progress = [&progress](double f, const std::string &message) {
            progress(f * kLoaderShare, toQString(message));
        };

    const bool resource = path.startsWith(QLatin1Char(':'));
    recording::LoadResult loaded;
    if (resource) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            out.error = LoaderText::unreadable(path, file.errorString());
            return out;
        }
        const QByteArray bytes = file.readAll();
        const QString name = path == bundledSamplePath() ? QStringLiteral("tracefold-sample.json") : path;
        loaded = recording::loadRecordingFromBytes(std::string(bytes.constData(), std::size_t(bytes.size())),
                                                   name.toStdString(), control);
    } else {
        limitResidentToFile(path);
        loaded = recording::loadRecording(QFile::encodeName(path).toStdString(), control);
    }
    if (loaded.cancelled) {
        out.cancelled = true;
        return out;
    }
    if (!loaded.run) {
        out.error = toQString(loaded.error);
        return out;
    }

    if (progress)
        progress(kLoaderShare, LoaderText::summarizing());
    // The whole run is read: from now on the calls list shows every call summarized so far, a snapshot at most every
    // `snapshotMs` (a load that ends sooner shows none), as a followed log shows what it appended.
    IndexingSnapshots snapshots(path, snapshotMs);
    std::shared_ptr<const std::vector<recording::CallSummary>> summaries =
        recording::indexCalls(loaded.run, {}, [&](double f, const recording::CallIndex &index) {
            if (cancel && cancel->load(std::memory_order_relaxed))
                return false;
            if (progress)
                progress(kLoaderShare + f * (1.0 - kLoaderShare), LoaderText::summarizing());
            if (indexing)
                if (RunHandle snapshot = snapshots.offer(index))
                    indexing(snapshot);
            return true;
        });
    if (!summaries) { // cancelled
        out.cancelled = true;
        return out;
    }
    // Made here, on the loader's thread, and not by the window's first jumps: 50-60 ms at 1.5 GB, which take the
    // slowest switches from 45-56 ms to 19-21 (docs/performance.md, twelfth session).
    loaded.run->buildCheckpoints();
    // The summaries and checkpoints were read from the file: if it changed meanwhile they may hold zeros or another
    // file.
    if (const std::string change = loaded.run->changedOnDisk(); !change.empty()) {
        out.error = toQString(change);
        return out;
    }
    out.run = assemble(loaded.run, std::move(summaries), path, snapshots.backtrack());
    return out;
}

RunHandle RunLoader::previewNow(const QString &path, std::size_t calls, const std::atomic<bool> *cancel,
                                std::size_t *bytesRead)
{
    std::string error;
    limitResidentToFile(path);
    auto file = io::MappedFile::open(QFile::encodeName(path).toStdString(), error);
    if (!file)
        return nullptr;
    std::optional<recording::RunPreview> preview = recording::previewRun(file, calls, cancel);
    if (!preview || !preview->run->changedOnDisk().empty())
        return nullptr;
    if (bytesRead)
        *bytesRead = preview->bytesRead;
    return assemble(preview->run, std::move(preview->calls), path);
}

std::shared_ptr<LoadedRun>
RunLoader::assembleSummaries(std::shared_ptr<const recording::Run> recording,
                             std::shared_ptr<const std::vector<recording::CallSummary>> summaries, std::size_t count,
                             const QString &path)
{
    auto run = std::make_shared<LoadedRun>();
    run->run = std::move(recording);
    run->summaries = std::move(summaries);
    run->calls = std::span(*run->summaries).first(count);
    run->path = path;
    run->bundled = path == bundledSamplePath();
    run->displayName = run->bundled ? bundledSampleDisplayName() : QFileInfo(path).fileName();
    run->hitRate = report::hitRate(run->calls);
    run->gaps = recording::distinctGaps(run->run->gaps, run->calls);
    run->tokens = report::tokenTotals(run->calls);
    return run;
}

RunHandle RunLoader::assemble(std::shared_ptr<const recording::Run> recording,
                              std::vector<recording::CallSummary> calls, const QString &path,
                              std::shared_ptr<const report::Backtrack> backtrack)
{
    return assemble(std::move(recording), std::make_shared<const std::vector<recording::CallSummary>>(std::move(calls)),
                    path, std::move(backtrack));
}

RunHandle RunLoader::assemble(std::shared_ptr<const recording::Run> recording,
                              std::shared_ptr<const std::vector<recording::CallSummary>> summaries, const QString &path,
                              std::shared_ptr<const report::Backtrack> backtrack)
{
    const std::size_t count = summaries->size();
    std::shared_ptr<LoadedRun> run = assembleSummaries(std::move(recording), std::move(summaries), count, path);
    run->indexing = run->run->preview;
    // The audit reads the summaries and the answer's backtrack: here, once, never per paint. The Answer Backtrack
    // dock shows the same backtrack.
    run->backtrack = backtrack ? std::move(backtrack)
                               : std::make_shared<const report::Backtrack>(report::backtrackAnswer(*run->run));
    run->problems = audit::auditRun(*run->run, run->calls, *run->backtrack);
    run->problemAtCall = audit::worstSeverityByCall(run->problems, run->calls.size());
    run->timeline = std::make_shared<const recording::TimelineView>(recording::timelineView(*run->run, run->calls));
    return run;
}

quint64 RunLoader::load(const QString &path)
{
    if (m_cancel)
        m_cancel->store(true); // the previous load, if any, is superseded
    const quint64 generation = ++m_generation;
    m_loading = true;
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancel;
    emit started(path);

    // Progress arrives on the worker thread; it is posted to this object and shown only while current. Reports are
    // thinned to whole permille so a large file does not flood the event loop.
    QPointer<RunLoader> self(this);
    auto lastPermille = std::make_shared<std::atomic<int>>(-1);
    auto progress = [self, generation, lastPermille](double f, const QString &message) {
        const int permille = qBound(0, int(f * 1000.0), 1000);
        if (lastPermille->exchange(permille) == permille)
            return;
        QMetaObject::invokeMethod(
            self.data(),
            [self, generation, permille, message] {
                if (self && self->m_generation == generation)
                    emit self->progressChanged(permille, message);
            },
            Qt::QueuedConnection);
    };

    auto *watcher = new QFutureWatcher<Outcome>(this);
    m_watchers.append(watcher);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, generation, path] {
        m_watchers.removeOne(watcher);
        const Outcome outcome = watcher->result();
        watcher->deleteLater();
        if (generation != m_generation)
            return;            // a newer load owns the window now
        m_cancel->store(true); // previews still reading ahead stop: the whole run is here
        m_cancel.reset();
        m_loading = false;
        if (outcome.run)
            emit loaded(outcome.run);
        else if (outcome.cancelled)
            emit cancelled(path);
        else
            emit failed(path, outcome.error);
    });
    // Once the whole run is read, its snapshots replace the previews: a preview still reading ahead stops, and one
    // that lands later is dropped.
    auto wholeRunShown = std::make_shared<std::atomic<bool>>(false);
    // From a worker: a preview or a snapshot, posted to the window's thread.
    auto offer = [self, generation](const RunHandle &run) {
        QMetaObject::invokeMethod(
            self.data(),
            [self, generation, run] {
                if (self)
                    self->offerWhileIndexing(generation, run);
            },
            Qt::QueuedConnection);
    };
    auto indexing = [offer, wholeRunShown](const RunHandle &run) {
        wholeRunShown->store(true);
        offer(run);
    };
    m_wholeRunShown = false;
    m_callsShown = 0;
    watcher->setFuture(QtConcurrent::run([path, cancel, progress, indexing, snapshotMs = m_indexingSnapshotMs] {
        return loadNow(path, cancel.get(), progress, indexing, snapshotMs);
    }));

    // A large file: its first calls are read ahead on another core, so call 1 is on screen while the rest is indexed.
    if (!path.startsWith(QLatin1Char(':')) && QFileInfo(path).size() >= m_previewFromBytes) {
        auto *preview = new QFutureWatcher<void>(this);
        m_previews.append(preview);
        connect(preview, &QFutureWatcher<void>::finished, this, [this, preview] {
            m_previews.removeOne(preview);
            preview->deleteLater();
        });
        // 20 calls, then 200, 2,000, …: the calls list fills while the index is built, each read costing about a
        // tenth of the next; it stops once the load is done (cancel is set then too), the file has no more calls,
        // or the next would read more than a tenth of the file.
        const std::size_t fileBytes = std::size_t(QFileInfo(path).size());
        preview->setFuture(QtConcurrent::run(&m_previewPool, [offer, path, cancel, fileBytes, wholeRunShown] {
            for (std::size_t calls = kPreviewCalls; calls <= recording::kMaxCalls; calls *= 10) {
                std::size_t bytesRead = 0;
                const RunHandle run = previewNow(path, calls, cancel.get(), &bytesRead);
                if (!run || cancel->load() || wholeRunShown->load())
                    return;
                offer(run);
                if (run->calls.size() < calls || bytesRead * 10 > fileBytes / 10)
                    return;
            }
        }));
    }
    return generation;
}

void RunLoader::offerWhileIndexing(quint64 generation, const RunHandle &run)
{
    if (generation != m_generation || !m_loading)
        return;
    // Once the whole run shows, a preview of its first calls is stale; and the list never shrinks while it fills.
    const bool stale = (run->run->preview && m_wholeRunShown) || run->calls.size() < m_callsShown;
    m_wholeRunShown = m_wholeRunShown || !run->run->preview;
    if (stale)
        return;
    m_callsShown = run->calls.size();
    emit previewReady(run);
}

void RunLoader::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

} // namespace tf::ui
