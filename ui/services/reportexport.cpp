#include "ui/services/reportexport.h"

#include "ui/models/bookmarksmodel.h"
#include "ui/panes/mainwindow.h"
#include "ui/panes/notesdialog.h"
#include "ui/panes/searchpanel.h"
#include "ui/services/qtstrings.h"
#include "ui/services/sidecarstore.h"
#include "ui/services/windowmenu.h"
#include "ui/widgets/filenotice.h"

#include "core/report/htmlreport.h"

#include <QtConcurrent/QtConcurrentRun>

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QMainWindow>
#include <QMarginsF>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QPointer>
#include <QSaveFile>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTextDocument>
#include <QTreeView>

namespace tf::ui {

// Named outside the anonymous namespace: ReportExporter::State holds a watcher of it.
struct ReportWriteOutcome
{
    bool ok = false;
    QString error;
};

namespace {

ReportWriteOutcome writeReportOutcome(const recording::Run &run, const notes::Sidecar *sidecar, const QString &path)
{
    ReportWriteOutcome out;
    out.ok = writeReport(run, sidecar, path, &out.error);
    return out;
}

} // namespace

QString reportTitle(const recording::Run &run)
{
    const std::string id = run.runId.empty() ? notes::identityOf(run).path : run.runId;
    return QObject::tr("Tracefold report %1").arg(QString::fromStdString(id));
}

bool writeReportPdf(const QString &html, const QString &path, const QString &title, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    {
        QPdfWriter writer(&file);
        writer.setTitle(title);
        writer.setCreator(QStringLiteral("Tracefold " TRACEFOLD_VERSION));
        // Landscape: the timeline's fourteen columns then fit at a readable size without breaking a word, and the
        // pieces' and results' monospaced lines wrap less. No page margin: QTextDocument::print lays an unpaginated
        // document out inside a 2 cm margin of its own, and puts the page number in it.
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Landscape, QMarginsF(0, 0, 0, 0),
                                         QPageLayout::Millimeter));
        writer.setResolution(300);

        QTextDocument document;
        // The report's fonts are named for browsers; the PDF falls back to the family every Debian desktop has.
        QFont font(QStringLiteral("DejaVu Sans"));
        font.setPointSizeF(8.5);
        document.setDefaultFont(font);
        document.setDocumentMargin(0);
        document.setHtml(html);
        document.print(&writer);
    }
    // flush() first: Qt 6.4's commit() would rename a file whose buffered write failed over the previous one.
    if (!file.flush() || !file.commit()) {
        if (error)
            *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool writeReport(const recording::Run &run, const notes::Sidecar *sidecar, const QString &path, QString *error)
{
    report::HtmlReportOptions options;
    options.sidecar = sidecar;
    const bool pdf = path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive);
    options.flavor = pdf ? report::HtmlReportOptions::Flavor::QtPrint : report::HtmlReportOptions::Flavor::Browser;
    // A PDF is read page by page: the calls that matter in full, the others as their timeline row. The HTML report
    // keeps every call (a browser scrolls and searches).
    options.detail = pdf ? report::ReportDetail::Relevant : report::ReportDetail::All;
    const std::string html = report::renderHtmlReport(run, options);
    // A report built from a file that changed while it was read may hold zeros or another file's bytes.
    if (const std::string change = run.changedOnDisk(); !change.empty()) {
        if (error)
            *error = toQString(change);
        return false;
    }
    if (pdf)
        return writeReportPdf(QString::fromUtf8(html.data(), qsizetype(html.size())), path, reportTitle(run), error);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(html.data(), qint64(html.size())) != qint64(html.size()) ||
        !file.flush() || !file.commit()) {
        if (error)
            *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

struct ReportExporter::State
{
    QFutureWatcher<ReportWriteOutcome> watcher;
    QString path;
};

ReportExporter::ReportExporter(QObject *parent)
    : QObject(parent)
    , m_state(std::make_shared<State>())
{
    connect(&m_state->watcher, &QFutureWatcher<ReportWriteOutcome>::finished, this, [this] {
        const ReportWriteOutcome outcome = m_state->watcher.result();
        emit finished(outcome.ok, m_state->path, outcome.error);
    });
}

ReportExporter::~ReportExporter()
{
    // The worker owns copies of everything it reads; waiting keeps the watcher valid until it is done.
    m_state->watcher.waitForFinished();
}

bool ReportExporter::isRunning() const
{
    return m_state->watcher.isRunning();
}

void ReportExporter::start(std::shared_ptr<const recording::Run> run, std::optional<notes::Sidecar> sidecar,
                           const QString &path)
{
    m_state->path = path;
    m_state->watcher.setFuture(QtConcurrent::run([run = std::move(run), sidecar = std::move(sidecar), path] {
        return writeReportOutcome(*run, sidecar ? &*sidecar : nullptr, path);
    }));
}

void announceWrittenFile(QMainWindow *window, const QString &message, const QString &path)
{
    auto *notice = window->statusBar()->findChild<FileNotice *>(QStringLiteral("fileNotice"));
    if (!notice) {
        notice = new FileNotice(window->statusBar());
        window->statusBar()->addPermanentWidget(notice);
    }
    notice->show(message, path);
}

void exportReport(QWidget *parent, std::shared_ptr<const recording::Run> run, const notes::Sidecar *sidecar,
                  ReportFormat format)
{
    if (!run)
        return;
    const QString htmlFilter = QObject::tr("HTML report (*.html)");
    const QString pdfFilter = QObject::tr("PDF report (*.pdf)");
    QString selected = format == ReportFormat::Pdf ? pdfFilter : htmlFilter;
    const QFileInfo recording(QString::fromStdString(run->path));
    const QString suggested = recording.dir().filePath(
        recording.completeBaseName() +
        (format == ReportFormat::Pdf ? QStringLiteral(".report.pdf") : QStringLiteral(".report.html")));
    QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Export Report"), suggested,
                                                htmlFilter + QStringLiteral(";;") + pdfFilter, &selected);
    if (path.isEmpty())
        return;
    const bool wantPdf = selected == pdfFilter;
    const QString suffix = wantPdf ? QStringLiteral(".pdf") : QStringLiteral(".html");
    if (!path.endsWith(suffix, Qt::CaseInsensitive) &&
        !(wantPdf ? false : path.endsWith(QLatin1String(".htm"), Qt::CaseInsensitive)))
        path += suffix;

    auto *exporter = new ReportExporter(parent);
    QApplication::setOverrideCursor(Qt::BusyCursor);
    QPointer<QWidget> owner(parent);
    QObject::connect(exporter, &ReportExporter::finished, exporter,
                     [exporter, owner](bool ok, const QString &written, const QString &error) {
                         QApplication::restoreOverrideCursor();
                         if (!ok)
                             QMessageBox::warning(owner, QObject::tr("Export Report"), error);
                         else if (auto *window = qobject_cast<QMainWindow *>(owner.data()))
                             announceWrittenFile(
                                 window, QObject::tr("Report saved as %1").arg(QFileInfo(written).fileName()), written);
                         exporter->deleteLater();
                     });
    exporter->start(std::move(run), sidecar ? std::optional<notes::Sidecar>(*sidecar) : std::nullopt, path);
}

QObject *installReviewTools(MainWindow *window)
{
    auto *tools = new QObject(window);
    tools->setObjectName(QStringLiteral("reviewTools"));
    auto *store = new SidecarStore(tools);
    store->setObjectName(QStringLiteral("sidecarStore"));

    // Docks: the run search, and the list of bookmarked and annotated calls.
    auto *search = new SearchPanel(window);
    auto *searchDock = new QDockWidget(QObject::tr("Find in Run"), window);
    searchDock->setObjectName(QStringLiteral("searchDock"));
    searchDock->setWidget(search);
    window->addDockWidget(Qt::BottomDockWidgetArea, searchDock);
    searchDock->hide();

    auto *bookmarks = new BookmarksModel(store, tools);
    auto *bookmarksView = new QTreeView(window);
    bookmarksView->setObjectName(QStringLiteral("bookmarksView"));
    bookmarksView->setRootIsDecorated(false);
    bookmarksView->setUniformRowHeights(true);
    bookmarksView->setModel(bookmarks);
    bookmarksView->header()->setStretchLastSection(true);
    auto *bookmarksDock = new QDockWidget(QObject::tr("Bookmarks and Notes"), window);
    bookmarksDock->setObjectName(QStringLiteral("bookmarksDock"));
    bookmarksDock->setWidget(bookmarksView);
    window->addDockWidget(Qt::BottomDockWidgetArea, bookmarksDock);
    bookmarksDock->hide();

    // A result row goes to its call and its match there: the Navigator (ui/services/navigator.cpp) follows
    // SearchPanel::matchActivated.
    QObject::connect(bookmarksView, &QTreeView::activated, window, [window](const QModelIndex &index) {
        const int ordinal = index.data(BookmarksModel::OrdinalRole).toInt();
        if (ordinal >= 0)
            window->showCall(ordinal);
    });
    QObject::connect(store, &SidecarStore::saveFailed, window,
                     [window](const QString &error) { window->statusBar()->showMessage(error, 8000); });

    // Actions.
    auto *exportHtml = new QAction(QObject::tr("Export Report as &HTML\u2026"), window);
    exportHtml->setObjectName(QStringLiteral("exportReportHtmlAction"));
    exportHtml->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    auto *exportPdf = new QAction(QObject::tr("Export Report as P&DF\u2026"), window);
    exportPdf->setObjectName(QStringLiteral("exportReportPdfAction"));
    exportPdf->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    auto *bookmark = new QAction(QObject::tr("Toggle &Bookmark"), window);
    bookmark->setObjectName(QStringLiteral("toggleBookmarkAction"));
    bookmark->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    bookmark->setCheckable(true);
    auto *notesAction = new QAction(QObject::tr("&Notes on This Call\u2026"), window);
    notesAction->setObjectName(QStringLiteral("notesAction"));
    notesAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    // QKeySequence::Find is the window's Find in Ledger; the run-wide search takes the "find in files" key.
    auto *find = new QAction(QIcon::fromTheme(QStringLiteral("edit-find")), QObject::tr("Find in &Run\u2026"), window);
    find->setObjectName(QStringLiteral("findInRunAction"));
    find->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    const QList<QAction *> runActions = {exportHtml, exportPdf, bookmark, notesAction, find};

    const auto currentRun = [window]() -> std::shared_ptr<const recording::Run> {
        return window->run() ? window->run()->run : nullptr;
    };
    QObject::connect(exportHtml, &QAction::triggered, window, [window, store, currentRun] {
        exportReport(window, currentRun(), &store->sidecar(), ReportFormat::Html);
    });
    QObject::connect(exportPdf, &QAction::triggered, window, [window, store, currentRun] {
        exportReport(window, currentRun(), &store->sidecar(), ReportFormat::Pdf);
    });
    const auto syncBookmark = [window, store, bookmark] {
        const int call = window->currentCall();
        QSignalBlocker blocker(bookmark);
        bookmark->setChecked(call >= 0 && store->isBookmarked(std::size_t(call)));
    };
    QObject::connect(bookmark, &QAction::triggered, window, [window, store, bookmarksDock, syncBookmark] {
        const int call = window->currentCall();
        if (call < 0)
            return;
        if (!store->isWritable()) {
            window->statusBar()->showMessage(store->lastError(), 8000);
        } else {
            const bool on = store->toggleBookmark(std::size_t(call));
            window->statusBar()->showMessage(on ? QObject::tr("Bookmarked call %1").arg(call + 1)
                                                : QObject::tr("Bookmark removed from call %1").arg(call + 1),
                                             3000);
            if (on)
                bookmarksDock->show();
        }
        syncBookmark();
    });
    QObject::connect(notesAction, &QAction::triggered, window, [window, store] {
        const int call = window->currentCall();
        if (call < 0)
            return;
        NotesDialog dialog(store, std::size_t(call), std::nullopt, window);
        dialog.exec();
    });
    QObject::connect(find, &QAction::triggered, window, [searchDock, search] {
        searchDock->show();
        searchDock->raise();
        search->focusSearch();
    });
    QObject::connect(window, &MainWindow::callShown, tools, [syncBookmark](int) { syncBookmark(); });
    QObject::connect(store, &SidecarStore::changed, tools, syncBookmark);
    QObject::connect(store, &SidecarStore::changed, window,
                     [window, store] { window->setReviewMarks(store->reviewMarks()); });
    QObject::connect(window, &MainWindow::runLoaded, tools, [store, search, runActions](const RunHandle &handle) {
        // The bundled sample lives inside the application: its notes go to the user's data folder.
        QString sidecarPath;
        if (handle->bundled) {
            const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
            QDir().mkpath(dir);
            sidecarPath = dir + QStringLiteral("/bundled-sample.tracefold.json");
        }
        QString error;
        if (!store->open(handle->run, &error, sidecarPath) && !error.isEmpty())
            qWarning("%s", qPrintable(error));
        search->setRun(handle->run);
        for (QAction *a : runActions)
            a->setEnabled(true);
    });
    QObject::connect(window, &MainWindow::runClosed, tools, [store, search, runActions] {
        store->close();
        search->setRun(nullptr);
        for (QAction *a : runActions)
            a->setEnabled(false);
    });
    for (QAction *a : runActions)
        a->setEnabled(window->run() != nullptr);

    // Menus: Export beside the other file commands, above Quit; the rest under Edit; the docks under View.
    QMenu *file = windowMenu(window, "&File");
    QMenu *edit = windowMenu(window, "&Edit");
    QMenu *view = windowMenu(window, "&View");
    if (!file || !edit) {
        // Not the menus this was written against: keep everything reachable in a menu of its own.
        QMenu *review = window->menuBar()->addMenu(QObject::tr("&Review"));
        review->addActions(runActions);
    } else {
        QAction *quit = nullptr;
        for (QAction *a : file->actions())
            if (a->menuRole() == QAction::QuitRole)
                quit = a;
        QAction *before = nullptr;
        if (quit) {
            const QList<QAction *> all = file->actions();
            const qsizetype at = all.indexOf(quit);
            before = at > 0 && all[at - 1]->isSeparator() ? all[at - 1] : quit;
        }
        file->insertAction(before, exportHtml);
        file->insertAction(before, exportPdf);
        file->insertSeparator(before);
        edit->addSeparator();
        edit->addAction(bookmark);
        edit->addAction(notesAction);
        edit->addAction(find);
    }
    if (view) {
        view->addSeparator();
        view->addAction(searchDock->toggleViewAction());
        view->addAction(bookmarksDock->toggleViewAction());
    }
    return tools;
}

} // namespace tf::ui
