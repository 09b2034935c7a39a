#include "ui/panes/mainwindow.h"

#include "ui/models/calllistmodel.h"
#include "ui/models/callstatus.h"
#include "ui/panes/callspane.h"
#include "ui/panes/findingspane.h"
#include "ui/panes/helpdialogs.h"
#include "ui/panes/ledgerpane.h"
#include "ui/panes/problemspane.h"
#include "ui/panes/receiptpane.h"
#include "ui/panes/responsepane.h"
#include "ui/panes/sincepreviouspane.h"
#include "ui/panes/summarybar.h"
#include "ui/panes/timelinepane.h"
#include "ui/panes/transcriptpane.h"
#include "ui/panes/welcomepage.h"
#include "ui/panes/wirepane.h"
#include "ui/services/bundledsample.h"
#include "ui/services/callviewservice.h"
#include "ui/services/comparisontools.h"
#include "ui/services/filewatch.h"
#include "ui/services/followtools.h"
#include "ui/services/navigator.h"
#include "ui/services/qtstrings.h"
#include "ui/services/reportexport.h"
#include "ui/services/runloader.h"
#include "ui/services/viewstate.h"
#include "ui/widgets/calltableview.h"
#include "ui/widgets/changedbanner.h"
#include "ui/widgets/fonts.h"
#include "ui/widgets/layoutfence.h"
#include "ui/widgets/onscreen.h"
#include "ui/widgets/stripchart.h"
#include "ui/widgets/timelinechart.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QMouseEvent>
#include <QProgressBar>
#include <QProgressDialog>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

namespace tf::ui {

namespace {

// 2: the Problems dock; a layout saved before it is dropped for the default one.
constexpr int kStateVersion = 2;
constexpr int kMaxRecentFiles = 10;
const QLatin1String kGeometryKey("window/geometry");
const QLatin1String kStateKey("window/state");
const QLatin1String kRecentKey("recentFiles");
const QLatin1String kLastDirKey("lastDirectory");
const QLatin1String kZoomKey("view/textZoom");
constexpr int kMinZoom = -4, kMaxZoom = 10; // 60% .. 200%
const char *const kBasePointSize = "tracefoldBasePointSize";

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : MainWindow(Options{}, parent)
{
}

MainWindow::MainWindow(const Options &options, QWidget *parent)
    : QMainWindow(parent)
    , m_options(options)
    , m_loader(new RunLoader(this))
    , m_service(new CallViewService(this))
    , m_fileWatch(new FileWatch(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Tracefold"));
    setWindowIcon(QIcon(QStringLiteral(":/tracefold/icons/tracefold.svg")));
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowNestedDocks | QMainWindow::AllowTabbedDocks);
    resize(1400, 900);
    fonts::skipNeedlessShaping(this);

    createPanes();
    createActions();
    arrangeDocks();
    installReviewTools(this);  // export, bookmarks, notes, run search (ui/services/reportexport.cpp)
    new ComparisonTools(this); // File > Compare With…, the Comparison dock (ui/services/comparisontools.cpp)
    new FollowTools(this);     // File > Follow…, a run still being written (ui/services/followtools.cpp)
    new Navigator(this);       // find matches, tool id links, Answer Backtrack (ui/services/navigator.cpp)

    connect(m_loader, &RunLoader::started, this, &MainWindow::onLoadStarted);
    connect(m_loader, &RunLoader::loaded, this, &MainWindow::onLoaded);
    connect(m_loader, &RunLoader::failed, this, &MainWindow::onLoadFailed);
    connect(m_loader, &RunLoader::cancelled, this, &MainWindow::onLoadCancelled);
    connect(m_loader, &RunLoader::previewReady, this, &MainWindow::onPreviewReady);
    connect(m_loader, &RunLoader::progressChanged, this, [this](int permille, const QString &message) {
        m_loadBar->setValue(permille);
        m_loadBar->setFormat(tr("%1 %p%").arg(message));
        if (m_progress) {
            m_progress->setValue(permille);
            m_progress->setLabelText(tr("%1\n%2").arg(QFileInfo(m_loadingPath).fileName(), message));
        }
    });
    connect(m_service, &CallViewService::ready, this, &MainWindow::onBundleReady);
    connect(m_service, &CallViewService::sourceChangedOnDisk, this, &MainWindow::onFileChanged);
    connect(m_fileWatch, &FileWatch::changed, this, &MainWindow::onFileChanged);

    m_welcome = new WelcomePage(this);
    connect(m_welcome, &WelcomePage::openRequested, this, &MainWindow::showOpenDialog);
    connect(m_welcome, &WelcomePage::sampleRequested, this, &MainWindow::openBundledSample);
    connect(m_welcome, &WelcomePage::recentRequested, this, &MainWindow::openFile);
    // The mouse's back and forward buttons go back and forward through visited calls wherever the pointer is.
    qApp->installEventFilter(this);

    if (m_options.persistSettings) {
        QSettings settings;
        restoreGeometry(settings.value(kGeometryKey).toByteArray());
        m_layoutRestored = restoreState(settings.value(kStateKey).toByteArray(), kStateVersion);
        if (m_layoutRestored)
            restoreViewStates(this, settings); // columns and splitters, as the user left them
        m_zoomSteps = qBound(kMinZoom, settings.value(kZoomKey, 0).toInt(), kMaxZoom);
        if (m_zoomSteps)
            applyTextZoom();
    }
    m_changedBar->hide(); // whatever the saved state says: it belongs to the file open now

    updateRecentMenu();
    updateActions();
    updateWelcomePage();
}

MainWindow::~MainWindow() = default;

QDockWidget *MainWindow::addPane(QWidget *pane, const QString &title, const QString &objectName)
{
    auto *dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    auto *fence = new LayoutFence(pane, dock);
    // Squeezed below what its pane needs (a 720-pixel screen, a large font), a dock scrolls its pane rather than
    // holding the window taller than the screen or drawing the pane's rows over each other.
    fence->setCompactHeight(4 * fontMetrics().lineSpacing());
    fence->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    // Opaque, so that a label or a view repainted in the pane is not painted over the dock and the window behind it:
    // the dock redraws its title bar at every paint, whatever the region, and a call switch updates every pane.
    fence->setAutoFillBackground(true);
    dock->setWidget(fence);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                      QDockWidget::DockWidgetClosable);
    m_docks.append(dock);
    return dock;
}

void MainWindow::createPanes()
{
    auto *summaryBar = new QToolBar(tr("Summary"), this);
    summaryBar->setObjectName(QStringLiteral("summaryToolBar"));
    summaryBar->setMovable(false);
    summaryBar->setFloatable(false);
    m_summary = new SummaryBar(summaryBar);
    summaryBar->addWidget(m_summary);
    addToolBar(Qt::TopToolBarArea, summaryBar);

    // Under the summary, full width, only while the open file has changed on disk.
    m_changedBar = new QToolBar(tr("File Changed"), this);
    m_changedBar->setObjectName(QStringLiteral("fileChangedToolBar"));
    m_changedBar->setMovable(false);
    m_changedBar->setFloatable(false);
    m_changedBar->toggleViewAction()->setVisible(false);
    m_changedBanner = new ChangedBanner(m_changedBar);
    m_changedBar->addWidget(m_changedBanner);
    addToolBarBreak(Qt::TopToolBarArea);
    addToolBar(Qt::TopToolBarArea, m_changedBar);
    m_changedBar->hide();
    connect(m_changedBanner, &ChangedBanner::reloadRequested, this, &MainWindow::reload);
    connect(m_changedBanner, &ChangedBanner::dismissed, m_changedBar, &QWidget::hide);

    m_strip = new StripChart(this);
    m_strip->setObjectName(QStringLiteral("stripChart"));
    m_calls = new CallsPane(this);
    m_findings = new FindingsPane(this);
    m_ledger = new LedgerPane(this);
    m_wire = new WirePane(this);
    m_since = new SincePreviousPane(this);
    m_receipt = new ReceiptPane(this);
    m_response = new ResponsePane(this);
    m_problems = new ProblemsPane(this);
    m_timeline = new TimelinePane(this);
    m_transcript = new TranscriptPane(this);

    m_stripDock = addPane(m_strip, tr("Strip Chart"), QStringLiteral("stripDock"));
    static_cast<LayoutFence *>(m_stripDock->widget())->setCompactHeight(0); // a chart is not scrolled: its own minimum
    m_callsDock = addPane(m_calls, tr("Calls"), QStringLiteral("callsDock"));
    m_findingsDock = addPane(m_findings, tr("Findings"), QStringLiteral("findingsDock"));
    m_ledgerDock = addPane(m_ledger, tr("Ledger"), QStringLiteral("ledgerDock"));
    m_wireDock = addPane(m_wire, tr("Wire"), QStringLiteral("wireDock"));
    m_sinceDock = addPane(m_since, tr("Since Previous Call"), QStringLiteral("sincePreviousDock"));
    m_receiptDock = addPane(m_receipt, tr("Receipt"), QStringLiteral("receiptDock"));
    m_responseDock = addPane(m_response, tr("Response"), QStringLiteral("responseDock"));
    m_problemsDock = addPane(m_problems, tr("Problems"), QStringLiteral("problemsDock"));
    m_timelineDock = addPane(m_timeline, tr("Timeline"), QStringLiteral("timelineDock"));
    m_transcriptDock = addPane(m_transcript, tr("Transcript"), QStringLiteral("transcriptDock"));
    m_onDemandPanes = {
        {m_receiptDock, [this](const BundleHandle &b) { m_receipt->setBundle(b); }},
        {m_responseDock, [this](const BundleHandle &b) { m_response->setBundle(b); }},
        {m_transcriptDock, [this](const BundleHandle &b) { m_transcript->setBundle(b); }},
    };
    for (std::size_t i = 0; i < m_onDemandPanes.size(); ++i)
        connect(m_onDemandPanes[i].dock, &QDockWidget::visibilityChanged, this, [this, i](bool visible) {
            // Hidden is all it can be told while the window is destroyed (QWidget's destructor hides the docks,
            // after this class's members are gone): nothing of the window is touched then.
            if (visible)
                bringUpToDate(m_onDemandPanes[i].dock);
        });
    // Room the window gains (a dock closed, the window made taller) goes to the panes that are read, not to the strip
    // chart or the problem list: Qt shares it among the docks that expand, and equally among all when none does.
    // Every pane is a dock. Without a central widget Qt never gives the row between the top and bottom docks (where
    // Calls, Findings and the Wire are) the height a taller window gains, or a closed dock leaves: it went to the
    // strip chart. An empty central widget, no wider than nothing and expanding in height, makes that row the one
    // that grows; the strip chart and the problem list keep their heights.
    auto *center = new QWidget(this);
    center->setObjectName(QStringLiteral("centerSpacer"));
    center->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
    center->setMaximumWidth(0);
    setCentralWidget(center);
    for (QDockWidget *d : {m_stripDock, m_problemsDock})
        d->widget()->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);

    connect(m_calls, &CallsPane::currentCallChanged, this, &MainWindow::onCallSelected);
    connect(m_strip, &StripChart::callActivated, m_calls, &CallsPane::setCurrentCall);
    // A click on the timeline selects its call; a range shows only its calls in the Calls list, its first selected.
    connect(m_timeline->chart(), &TimelineChart::callActivated, m_calls, &CallsPane::setCurrentCall);
    connect(m_timeline->chart(), &TimelineChart::rangeSelected, m_calls, &CallsPane::setCallRange);
    connect(m_timeline->chart(), &TimelineChart::rangeCleared, m_calls, &CallsPane::clearCallRange);
    connect(m_calls, &CallsPane::callRangeCleared, m_timeline->chart(), &TimelineChart::clearRange);
    connect(m_findings, &FindingsPane::ledgerRowsQuoted, m_ledger, &LedgerPane::selectRows);
    connect(m_problems, &ProblemsPane::problemActivated, this, &MainWindow::openProblem);

    m_statusCall = new QLabel(this);
    m_statusCall->setObjectName(QStringLiteral("statusCall"));
    m_statusCall->setTextFormat(Qt::PlainText);
    m_statusCall->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_statusBuild = new QLabel(this);
    m_statusBuild->setObjectName(QStringLiteral("statusBuild"));
    m_statusBuild->setTextFormat(Qt::PlainText);
    m_statusBuild->setForegroundRole(QPalette::PlaceholderText);
    // In one fenced row: their text changes at every call, and must not lay the main window out again.
    m_statusRow = new QWidget;
    auto *statusLayout = new QHBoxLayout(m_statusRow);
    statusLayout->setContentsMargins(0, 0, 0, 0);
    statusLayout->addWidget(m_statusCall, 1);
    statusLayout->addWidget(m_statusBuild);
    // While a large file is indexed behind its first calls, the progress is here, not in a dialog that blocks them.
    m_loadBar = new QProgressBar(m_statusRow);
    m_loadBar->setObjectName(QStringLiteral("loadProgressBar"));
    m_loadBar->setRange(0, 1000);
    m_loadBar->setTextVisible(true);
    m_loadBar->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("Summarizing calls 100%")) + 40);
    m_loadBar->setMaximumWidth(320);
    m_loadBar->hide();
    statusLayout->addWidget(m_loadBar);
    auto *statusFence = new LayoutFence(m_statusRow, this);
    statusFence->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    statusBar()->addWidget(statusFence, 1);
    holdStatusRowHeight();
}

void MainWindow::holdStatusRowHeight()
{
    // One height whether the row shows a call, nothing yet, or the load's progress: a status bar that grew as a run
    // opened took the pixels from the docks, which then stood a few pixels off where a restored layout put them. The
    // progress bar fits the line of text rather than the row growing for it: at 1280×720 every pixel of height counts.
    QLabel line(QStringLiteral("Call"));
    line.setFont(font());
    const int height = line.sizeHint().height();
    m_statusRow->setMinimumHeight(height);
    m_loadBar->setMaximumHeight(height);
}

void MainWindow::applyDefaultLayout()
{
    arrangeDocks();
    layout()->activate(); // the docks placed before they are sized: resizeDocks measures the laid-out areas
    sizeDocks();
}

void MainWindow::arrangeDocks()
{
    for (QDockWidget *d : std::as_const(m_docks)) {
        removeDockWidget(d);
        d->setFloating(false);
    }
    setCorner(Qt::TopLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::TopRightCorner, Qt::TopDockWidgetArea);
    addDockWidget(Qt::LeftDockWidgetArea, m_callsDock);
    // As an IDE lists diagnostics: across the bottom, beside the calls, wide enough for the messages.
    addDockWidget(Qt::BottomDockWidgetArea, m_problemsDock);
    addDockWidget(Qt::TopDockWidgetArea, m_stripDock);
    addDockWidget(Qt::RightDockWidgetArea, m_findingsDock);
    splitDockWidget(m_findingsDock, m_wireDock, Qt::Horizontal);
    splitDockWidget(m_findingsDock, m_sinceDock, Qt::Vertical);
    tabifyDockWidget(m_findingsDock, m_responseDock);
    tabifyDockWidget(m_sinceDock, m_receiptDock);
    splitDockWidget(m_wireDock, m_ledgerDock, Qt::Vertical);
    tabifyDockWidget(m_wireDock, m_transcriptDock);
    // Beside the Ledger, where it is wide and tall enough for its rows; beside the Strip Chart its tab bar would hold
    // the whole window taller.
    tabifyDockWidget(m_ledgerDock, m_timelineDock);
    for (QDockWidget *d : std::as_const(m_docks))
        d->show();
    m_sinceDock->raise();
    m_wireDock->raise();
    m_ledgerDock->raise();
    m_findingsDock->raise();
}

void MainWindow::sizeDocks()
{
    // Proportions of the window; resizeDocks needs the window laid out, so this runs once shown. The Calls list is
    // as wide as its visible columns need (never a squeezed "t…" for each response); on a short window the Since
    // Previous Call column gets the larger share, where its verdict and facts sit above the piece diff.
    const int w = width(), h = height();
    resizeDocks({m_stripDock}, {qMax(110, h * 14 / 100)}, Qt::Vertical);
    const int calls = fittedCallsWidth();
    const int findings = (w - calls) * 39 / 100;
    resizeDocks({m_callsDock, m_findingsDock, m_wireDock}, {calls, findings, w - calls - findings}, Qt::Horizontal);
    m_callsFittedWidth = calls;
    // The Problems dock across the bottom takes its share from the panes above it.
    const bool shortWindow = h < 820;
    resizeDocks({m_findingsDock, m_sinceDock}, {h * (shortWindow ? 31 : 29) / 100, h * (shortWindow ? 30 : 32) / 100},
                Qt::Vertical);
    resizeDocks({m_wireDock, m_ledgerDock}, {h * 34 / 100, h * 26 / 100}, Qt::Vertical);
    // On a short window, the counts and a row or two: what it holds is one double-click from its call.
    const int problemsTitle = m_problemsDock->height() - m_problemsDock->widget()->height();
    resizeDocks({m_problemsDock},
                {qMax(h * (shortWindow ? 10 : 20) / 100, m_problems->minimumSizeHint().height() + problemsTitle + 14)},
                Qt::Vertical);
}

int MainWindow::fittedCallsWidth() const
{
    return qBound(width() * 22 / 100, m_calls->neededWidth() + 12, width() * 40 / 100);
}

void MainWindow::refitCallsDock()
{
    // Only a width this window chose: one the user dragged, or a restored layout, is theirs to keep.
    // The dock lands within a separator or two of the width asked for.
    const int slack = 2 * style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent, nullptr, this) + 8;
    if (!m_shownOnce || m_callsFittedWidth <= 0 || std::abs(m_callsDock->width() - m_callsFittedWidth) > slack ||
        dockWidgetArea(m_callsDock) != Qt::LeftDockWidgetArea || m_callsDock->isFloating())
        return;
    const int calls = fittedCallsWidth();
    if (calls != m_callsDock->width() && setCallsWidth(calls))
        m_callsFittedWidth = calls;
}

bool MainWindow::setCallsWidth(int calls)
{
    // Findings and the Wire share what is left as they shared it before.
    const int findings = m_findingsDock->width(), wire = m_wireDock->width();
    const int rest = m_callsDock->width() + findings + wire - calls;
    if (findings + wire <= 0 || rest <= 0)
        return false;
    const int newFindings = int(qint64(rest) * findings / (findings + wire));
    resizeDocks({m_callsDock, m_findingsDock, m_wireDock}, {calls, newFindings, rest - newFindings}, Qt::Horizontal);
    return true;
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (m_shownOnce)
        return;
    m_shownOnce = true;
    if (!m_layoutRestored)
        QTimer::singleShot(0, this, &MainWindow::sizeDocks);
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open…"), this,
                                    &MainWindow::showOpenDialog);
    open->setObjectName(QStringLiteral("openAction"));
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    QAction *sample = file->addAction(tr("Open Bundled &Sample"), this, &MainWindow::openBundledSample);
    sample->setObjectName(QStringLiteral("openSampleAction"));
    m_reloadAction =
        file->addAction(QIcon::fromTheme(QStringLiteral("view-refresh")), tr("Re&load"), this, &MainWindow::reload);
    m_reloadAction->setObjectName(QStringLiteral("reloadAction"));
    m_reloadAction->setShortcut(QKeySequence::Refresh);
    m_closeAction = file->addAction(QIcon::fromTheme(QStringLiteral("document-close")), tr("&Close"), this,
                                    &MainWindow::closeRecording);
    m_closeAction->setObjectName(QStringLiteral("closeAction"));
    m_closeAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_W));
    file->addSeparator();
    QAction *quit =
        file->addAction(QIcon::fromTheme(QStringLiteral("application-exit")), tr("&Quit"), this, &QWidget::close);
    quit->setObjectName(QStringLiteral("quitAction"));
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    m_copyPieceAction = edit->addAction(QIcon::fromTheme(QStringLiteral("edit-copy")), tr("Copy Findings &Piece"),
                                        m_findings, &FindingsPane::copyPiece);
    m_copyPieceAction->setObjectName(QStringLiteral("copyPieceAction"));
    m_copyPieceAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    QAction *find = edit->addAction(QIcon::fromTheme(QStringLiteral("edit-find")), tr("&Find in Ledger"), this, [this] {
        m_ledgerDock->show();
        m_ledgerDock->raise();
        m_ledger->focusFilter();
    });
    find->setObjectName(QStringLiteral("findAction"));
    find->setShortcut(QKeySequence::Find);

    QMenu *go = menuBar()->addMenu(tr("&Go"));
    const auto addGo = [&](const QString &text, const QKeySequence &key, const QString &name, auto slot) {
        QAction *a = go->addAction(text, this, slot);
        a->setShortcut(key);
        a->setObjectName(name);
        m_runActions.append(a);
        return a;
    };
    addGo(tr("&Next Call"), QKeySequence(Qt::Key_J), QStringLiteral("nextCallAction"), [this] { stepCall(1); });
    addGo(tr("&Previous Call"), QKeySequence(Qt::Key_K), QStringLiteral("previousCallAction"),
          [this] { stepCall(-1); });
    addGo(tr("&First Call"), QKeySequence(Qt::CTRL | Qt::Key_Home), QStringLiteral("firstCallAction"),
          [this] { showCall(0); });
    addGo(tr("&Last Call"), QKeySequence(Qt::CTRL | Qt::Key_End), QStringLiteral("lastCallAction"), [this] {
        if (m_run)
            showCall(int(m_run->calls.size()) - 1);
    });
    addGo(tr("&Go to Call…"), QKeySequence(Qt::CTRL | Qt::Key_G), QStringLiteral("goToCallAction"),
          [this] { showGoToCallDialog(); });
    m_backAction =
        addGo(tr("&Back"), QKeySequence(Qt::ALT | Qt::Key_Left), QStringLiteral("backAction"), [this] { goBack(); });
    m_forwardAction = addGo(tr("For&ward"), QKeySequence(Qt::ALT | Qt::Key_Right), QStringLiteral("forwardAction"),
                            [this] { goForward(); });
    go->addSeparator();
    addGo(tr("Next Cache &Miss"), QKeySequence(Qt::Key_M), QStringLiteral("nextMissAction"),
          [this] { jump(Jump::NextMiss); });
    addGo(tr("Previous Cache Miss"), QKeySequence(Qt::SHIFT | Qt::Key_M), QStringLiteral("previousMissAction"),
          [this] { jump(Jump::PreviousMiss); });
    addGo(tr("Next &Ledger Change"), QKeySequence(Qt::Key_L), QStringLiteral("nextLedgerChangeAction"),
          [this] { jump(Jump::NextLedgerChange); });
    addGo(tr("Previous Ledger Change"), QKeySequence(Qt::SHIFT | Qt::Key_L),
          QStringLiteral("previousLedgerChangeAction"), [this] { jump(Jump::PreviousLedgerChange); });
    addGo(tr("Next &Damaged Part"), QKeySequence(Qt::Key_D), QStringLiteral("nextDamagedAction"),
          [this] { jump(Jump::NextDamaged); });
    addGo(tr("Previous Damaged Part"), QKeySequence(Qt::SHIFT | Qt::Key_D), QStringLiteral("previousDamagedAction"),
          [this] { jump(Jump::PreviousDamaged); });
    go->addSeparator();
    addGo(tr("Next &Turn"), QKeySequence(Qt::Key_T), QStringLiteral("nextTurnAction"),
          [this] { jump(Jump::NextTurn); });
    addGo(tr("Previous Turn"), QKeySequence(Qt::SHIFT | Qt::Key_T), QStringLiteral("previousTurnAction"),
          [this] { jump(Jump::PreviousTurn); });
    addGo(tr("Next &Error"), QKeySequence(Qt::Key_E), QStringLiteral("nextProblemAction"),
          [this] { jump(Jump::NextProblem); });
    addGo(tr("Previous Error"), QKeySequence(Qt::SHIFT | Qt::Key_E), QStringLiteral("previousProblemAction"),
          [this] { jump(Jump::PreviousProblem); });

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    for (QDockWidget *d : std::as_const(m_docks))
        m_viewMenu->addAction(d->toggleViewAction());
    m_viewMenu->addSeparator();
    QAction *raw = m_viewMenu->addAction(tr("Raw Findings Piece"));
    raw->setObjectName(QStringLiteral("rawPieceAction"));
    raw->setCheckable(true);
    raw->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    connect(raw, &QAction::toggled, m_findings, &FindingsPane::setShowRaw);
    QAction *reset = m_viewMenu->addAction(tr("&Reset Layout"), this, &MainWindow::applyDefaultLayout);
    reset->setObjectName(QStringLiteral("resetLayoutAction"));
    m_viewMenu->addSeparator();
    QAction *zoomIn = m_viewMenu->addAction(tr("Zoom &In"), this, [this] { zoomText(m_zoomSteps + 1); });
    zoomIn->setObjectName(QStringLiteral("zoomInAction"));
    zoomIn->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence(Qt::CTRL | Qt::Key_Plus)});
    QAction *zoomOut = m_viewMenu->addAction(tr("Zoom &Out"), this, [this] { zoomText(m_zoomSteps - 1); });
    zoomOut->setObjectName(QStringLiteral("zoomOutAction"));
    zoomOut->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Minus));
    QAction *zoomReset = m_viewMenu->addAction(tr("Actual &Size"), this, [this] { zoomText(0); });
    zoomReset->setObjectName(QStringLiteral("zoomResetAction"));
    zoomReset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    QAction *fullScreen = m_viewMenu->addAction(tr("&Full Screen"), this, &MainWindow::toggleFullScreen);
    fullScreen->setObjectName(QStringLiteral("fullScreenAction"));
    fullScreen->setShortcut(QKeySequence(Qt::Key_F11));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *shortcuts = help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    shortcuts->setObjectName(QStringLiteral("shortcutsAction"));
    shortcuts->setShortcuts({QKeySequence(Qt::Key_F1), QKeySequence(Qt::CTRL | Qt::Key_Slash)});
    QAction *legend = help->addAction(tr("&Legend of Marks and Colours"), this, &MainWindow::showLegend);
    legend->setObjectName(QStringLiteral("legendAction"));
    help->addSeparator();
    QAction *about = help->addAction(tr("&About Tracefold"), this, &MainWindow::showAbout);
    about->setObjectName(QStringLiteral("aboutAction"));
    about->setMenuRole(QAction::AboutRole);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt)->setMenuRole(QAction::AboutQtRole);
}

void MainWindow::updateActions()
{
    const bool haveCalls = m_run && !m_run->calls.empty();
    for (QAction *a : std::as_const(m_runActions))
        a->setEnabled(haveCalls);
    m_reloadAction->setEnabled(m_run != nullptr);
    m_closeAction->setEnabled(m_run != nullptr);
    m_backAction->setEnabled(haveCalls && m_history.canGoBack());
    m_forwardAction->setEnabled(haveCalls && m_history.canGoForward());
    m_copyPieceAction->setEnabled(currentBundle() && currentBundle()->view->piece.has_value());
}

BundleHandle MainWindow::currentBundle() const
{
    return m_service->current();
}

int MainWindow::currentCall() const
{
    return m_calls->currentCall();
}

bool MainWindow::isLoading() const
{
    return m_loader->isLoading();
}

void MainWindow::cancelLoading()
{
    m_loader->cancel();
}

void MainWindow::showOpenDialog()
{
    QString dir;
    if (m_options.persistSettings)
        dir = QSettings().value(kLastDirKey).toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Recording"), dir,
                                                      tr("Recordings (*.json *.ndjson *.jsonl);;All files (*)"));
    if (path.isEmpty())
        return;
    if (m_options.persistSettings)
        QSettings().setValue(kLastDirKey, QFileInfo(path).absolutePath());
    openFile(path);
}

void MainWindow::openFile(const QString &path)
{
    const bool resource = path.startsWith(QLatin1Char(':'));
    m_loader->load(resource ? path : QFileInfo(path).absoluteFilePath());
}

void MainWindow::openBundledSample()
{
    openFile(bundledSamplePath());
}

void MainWindow::reload()
{
    if (m_run)
        openFile(m_run->path);
}

void MainWindow::onLoadStarted(const QString &path)
{
    emit loadStarted(path);
    m_loadingPath = path;
    updateWelcomePage(true);
    statusBar()->showMessage(tr("Opening %1…").arg(QFileInfo(path).fileName()));
    if (!m_options.progressDialog)
        return;
    if (!m_progress) {
        m_progress = new QProgressDialog(this);
        m_progress->setObjectName(QStringLiteral("loadProgressDialog"));
        m_progress->setWindowTitle(tr("Opening Recording"));
        m_progress->setWindowModality(Qt::WindowModal);
        m_progress->setRange(0, 1000);
        m_progress->setMinimumDuration(400);
        m_progress->setAutoClose(false);
        m_progress->setAutoReset(false);
        connect(m_progress, &QProgressDialog::canceled, m_loader, &RunLoader::cancel);
    }
    m_progress->setLabelText(QFileInfo(path).fileName());
    m_progress->setValue(0);
}

void MainWindow::onLoadCancelled()
{
    if (m_progress)
        m_progress->deleteLater();
    m_loadBar->hide();
    if (m_run && m_run->indexing)
        closeRecording(); // only the first calls were indexed
    statusBar()->showMessage(tr("Opening cancelled; the previous recording stays open."), 5000);
    updateWelcomePage();
}

void MainWindow::onLoadFailed(const QString &path, const QString &error)
{
    if (m_progress)
        m_progress->deleteLater();
    m_loadBar->hide();
    // Only the first calls were indexed; the load that read all of the file refused it: so does the window.
    if (m_run && m_run->indexing)
        closeRecording();
    if (!m_run)
        m_welcome->setMessage(tr("Tracefold could not open “%1”: %2").arg(QFileInfo(path).fileName(), error));
    updateWelcomePage();
    statusBar()->showMessage(tr("Could not open %1").arg(QFileInfo(path).fileName()), 8000);
    emit loadFailed(path, error);
    if (!m_options.errorDialogs)
        return;
    if (m_errorBox)
        m_errorBox->deleteLater();
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Cannot Open Recording"), QString(), QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("loadErrorDialog"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextFormat(Qt::PlainText);
    box->setText(tr("Tracefold could not open “%1”.\n\n%2").arg(QFileInfo(path).fileName(), error));
    box->setInformativeText(m_run ? tr("The recording that was open stays open.") : QString());
    m_errorBox = box;
    box->open();
}

void MainWindow::onLoaded(const RunHandle &run)
{
    if (m_progress)
        m_progress->deleteLater();
    m_loadBar->hide();
    statusBar()->clearMessage();
    // A reload stays on the same call; --call N picks the first one shown.
    int keep = m_run && run->path == m_run->path ? currentCall() : 0;
    if (m_initialCall >= 0)
        keep = m_initialCall;
    m_initialCall = -1;
    showRun(run, keep, RunSource::Opened);
    if (!run->bundled)
        addRecentFile(run->path);
    emit runLoaded(run);
}

void MainWindow::showFollowedSnapshot(const RunHandle &run, bool latestCall)
{
    const bool same = m_run && run->path == m_run->path;
    int keep = same ? currentCall() : 0;
    if (latestCall || (m_initialCall >= 0 && !same))
        keep = latestCall ? int(run->calls.size()) - 1 : m_initialCall;
    if (!same)
        m_initialCall = -1;
    showRun(run, keep, RunSource::Followed);
    // A poll's calls still being indexed are shown as a file's are while it opens.
    if (run->indexing)
        emit runPreviewShown(run);
    else
        emit runLoaded(run);
}

void MainWindow::onPreviewReady(const RunHandle &run)
{
    // The window is usable from now on: the rest of the load reports in the status bar.
    if (m_progress)
        m_progress->deleteLater();
    statusBar()->clearMessage(); // "Opening …" would hide the progress
    m_loadBar->setVisible(true);
    int keep = m_run && m_run->path == run->path ? currentCall() : 0; // a larger preview: stay on the call
    if (m_initialCall >= 0 && m_initialCall < int(run->calls.size())) {
        keep = m_initialCall;
        m_initialCall = -1; // shown: the full load then stays wherever the user went meanwhile
    }
    showRun(run, keep, RunSource::Preview);
    emit runPreviewShown(run);
}

void MainWindow::showRun(const RunHandle &run, int keep, RunSource source)
{
    const bool followed = source == RunSource::Followed;
    // More of the same run indexed, or its index finished: the list appends the new calls, and the call shown stays
    // built (CallViewService keeps it).
    const bool moreOfSame = m_run && m_run->run == run->run;
    // A later stage of opening the file shown (a larger preview, a snapshot, the whole index): the docks and the focus
    // stay where the user put them meanwhile.
    const bool laterStage = m_run && m_run->path == run->path && m_run->indexing;
    if (!m_run || run->path != m_run->path)
        m_history.clear();
    m_run = run;
    m_welcome->setMessage({});
    updateWelcomePage();
    m_changedBar->hide();
    // A followed file changes by design: its follower reads what changed, the watch would only cry wolf.
    const bool watched = source == RunSource::Opened && !run->bundled;
    m_fileWatch->watch(watched ? run->run : nullptr, watched ? run->path : QString());
    setWindowTitle(followed                       ? tr("%1 (following) — Tracefold").arg(run->displayName)
                   : source == RunSource::Preview ? tr("%1 (indexing…) — Tracefold").arg(run->displayName)
                                                  : tr("%1 — Tracefold").arg(run->displayName));
    m_summary->setRun(run);
    m_strip->setRun(run);
    m_timeline->setRun(run);
    m_service->setRun(run);
    m_calls->setRun(run);
    m_problems->setRun(run);
    // The list's columns follow the run (a turn column for a conversation, none for one model): so does its width.
    if (!moreOfSame || !run->indexing)
        QTimer::singleShot(0, this, &MainWindow::refitCallsDock);
    // On a run that is not armed the Findings pane has nothing to show; what the model answered comes first.
    if (source != RunSource::Followed && !laterStage) {
        (run->run->constants.armed ? m_findingsDock : m_responseDock)->raise();
        (run->run->constants.armed ? m_ledgerDock : m_timelineDock)->raise(); // no ledger to show: the run in time
    }
    if (run->calls.empty()) {
        applyBundle(nullptr);
        m_statusCall->setText(followed ? tr("Waiting for the first LLM call's response…")
                                       : tr("This recording holds no LLM call."));
    } else if (moreOfSame && currentCall() >= 0) {
        m_calls->setCurrentCall(qBound(0, keep, int(run->calls.size()) - 1));
        markCurrentCall(currentCall()); // the panes that were given the run again, and how much is indexed now
    } else {
        m_calls->setCurrentCall(qBound(0, keep, int(run->calls.size()) - 1));
        if (source != RunSource::Followed && !laterStage)
            m_calls->view()->setFocus();
    }
    updateActions();
}

// Every view of the whole run marks the current call; the status line says where it sits in the run, or how much of
// the run is indexed yet.
void MainWindow::markCurrentCall(int ordinal)
{
    m_strip->setCurrentCall(ordinal);
    m_problems->setCurrentCall(ordinal);
    m_timeline->chart()->setCurrentCall(ordinal);
    const recording::CallSummary &c = m_run->calls[std::size_t(ordinal)];
    if (m_run->indexing && m_run->run->preview)
        m_statusCall->setText(tr("Call %1 of the first %2 read (the rest is being indexed) · iteration %3 · %4")
                                  .arg(ordinal + 1)
                                  .arg(m_run->calls.size())
                                  .arg(c.epoch)
                                  .arg(toQString(c.callRuntimeStageId)));
    else if (m_run->indexing)
        m_statusCall->setText(tr("Call %1 of %2 (%3 indexed so far) · turn %4 of %5 · iteration %6 · %7")
                                  .arg(ordinal + 1)
                                  .arg(m_run->run->calls.size())
                                  .arg(m_run->calls.size())
                                  .arg(c.turn + 1)
                                  .arg(m_run->run->turns.size())
                                  .arg(c.epoch)
                                  .arg(toQString(c.callRuntimeStageId)));
    else
        m_statusCall->setText(tr("Call %1 of %2 · turn %3 of %4 · iteration %5 · %6")
                                  .arg(ordinal + 1)
                                  .arg(m_run->calls.size())
                                  .arg(c.turn + 1)
                                  .arg(m_run->run->turns.size())
                                  .arg(c.epoch)
                                  .arg(toQString(c.callRuntimeStageId)));
}

void MainWindow::onCallSelected(int ordinal)
{
    if (!m_run || ordinal < 0)
        return;
    m_history.visit(ordinal);
    m_backAction->setEnabled(m_history.canGoBack());
    m_forwardAction->setEnabled(m_history.canGoForward());
    markCurrentCall(ordinal);
    if (m_service->sourceChanged()) {
        const BundleHandle shown = currentBundle();
        m_statusCall->setText(shown ? tr("Call %1 cannot be read: the file changed on disk. The panes show call %2, "
                                         "read before the change; File > Reload reads the file again.")
                                          .arg(ordinal + 1)
                                          .arg(shown->ordinal + 1)
                                    : tr("Call %1 cannot be read: the file changed on disk. File > Reload reads the "
                                         "file again.")
                                          .arg(ordinal + 1));
        return;
    }
    m_service->request(std::size_t(ordinal));
}

void MainWindow::onBundleReady(const BundleHandle &bundle)
{
    applyBundle(bundle);
    updateActions();
    m_statusBuild->setText(tr("rebuilt in %1 ms").arg(QString::number(bundle->buildMs, 'f', 1)));
    emit callShown(int(bundle->ordinal));
}

void MainWindow::applyBundle(const BundleHandle &bundle)
{
    // The ledger first: the findings pane may select the rows its first new line quotes.
    m_ledger->setBundle(bundle);
    m_findings->setBundle(bundle);
    m_wire->setBundle(bundle);
    m_since->setBundle(bundle);
    m_appliedBundle = bundle;
    // A window not on screen (a test, a screenshot being set up) has every pane out of sight: it updates them all.
    const bool onScreen = isVisible();
    for (OnDemandPane &pane : m_onDemandPanes) {
        const bool stale = bundle && onScreen && !inSight(pane.dock);
        if (!stale)
            pane.setBundle(bundle);
        else if (!pane.stale)
            pane.setBundle(nullptr); // left behind from now on: it lets go of the call it showed
        pane.stale = stale;
    }
}

void MainWindow::bringForward(QDockWidget *dock)
{
    dock->show();
    dock->raise();
    bringUpToDate(dock);
}

void MainWindow::bringUpToDate(const QDockWidget *dock)
{
    for (OnDemandPane &pane : m_onDemandPanes)
        if (pane.dock == dock && pane.stale) {
            pane.stale = false;
            pane.setBundle(m_appliedBundle);
        }
}

void MainWindow::setReviewMarks(const ReviewMarks &marks)
{
    m_calls->model()->setReviewMarks(marks);
    m_strip->setReviewMarks(marks);
}

void MainWindow::openProblem(int ordinal, ProblemPane pane)
{
    if (ordinal >= 0)
        showCall(ordinal);
    QDockWidget *dock = m_responseDock;
    switch (pane) {
    case ProblemPane::Response:
        dock = m_responseDock;
        break;
    case ProblemPane::Receipt:
        dock = m_receiptDock;
        break;
    case ProblemPane::SincePrevious:
        dock = m_sinceDock;
        break;
    case ProblemPane::Wire:
        dock = m_wireDock;
        break;
    case ProblemPane::Findings:
        dock = m_findingsDock;
        break;
    }
    bringForward(dock);
}

void MainWindow::onFileChanged(const QString &reason)
{
    if (!m_changedBar->isHidden() && m_changedBanner->reason() == reason)
        return;
    m_changedBanner->showChange(reason);
    m_changedBar->show();
    emit fileChanged(reason);
}

QString MainWindow::fileChangedReason() const
{
    return m_changedBar->isHidden() ? QString() : m_changedBanner->reason();
}

void MainWindow::showCall(int ordinal)
{
    m_calls->setCurrentCall(ordinal);
}

void MainWindow::jumpToCall(int ordinal)
{
    if (ordinal != currentCall())
        m_history.markJump();
    showCall(ordinal);
}

void MainWindow::closeRecording()
{
    if (!m_run)
        return;
    m_run.reset();
    m_history.clear();
    m_fileWatch->watch(nullptr, QString());
    m_changedBar->hide();
    m_service->setRun(nullptr);
    m_calls->setRun(nullptr);
    m_strip->setRun(nullptr);
    m_summary->setRun(nullptr);
    applyBundle(nullptr);
    m_statusCall->clear();
    m_statusBuild->clear();
    setWindowTitle(tr("Tracefold"));
    updateActions();
    updateWelcomePage();
    emit runClosed();
}

void MainWindow::showGoToCallDialog()
{
    if (!m_run || m_run->calls.empty())
        return;
    auto *dialog = new QInputDialog(this);
    dialog->setObjectName(QStringLiteral("goToCallDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Go to Call"));
    dialog->setInputMode(QInputDialog::IntInput);
    dialog->setLabelText(
        m_run->indexing ? tr("Call (1 to %1; the calls after them are still being indexed):").arg(m_run->calls.size())
                        : tr("Call (1 to %1):").arg(m_run->calls.size()));
    dialog->setIntRange(1, int(m_run->calls.size()));
    dialog->setIntValue(currentCall() + 1);
    connect(dialog, &QInputDialog::intValueSelected, this, [this](int call) { showCall(call - 1); });
    dialog->open();
}

void MainWindow::goBack()
{
    const int target = m_history.back();
    if (target >= 0) {
        emit travelling(target);
        showCall(target);
    }
    updateActions();
}

void MainWindow::goForward()
{
    const int target = m_history.forward();
    if (target >= 0) {
        emit travelling(target);
        showCall(target);
    }
    updateActions();
}

void MainWindow::zoomText(int steps)
{
    steps = qBound(kMinZoom, steps, kMaxZoom);
    if (steps == m_zoomSteps)
        return;
    m_zoomSteps = steps;
    applyTextZoom();
    statusBar()->showMessage(tr("Text size %1%").arg(100 + 10 * m_zoomSteps), 2000);
    if (m_options.persistSettings)
        QSettings().setValue(kZoomKey, m_zoomSteps);
}

void MainWindow::applyTextZoom()
{
    // The window's font carries the size every pane inherits; a widget with a font of its own (the fixed-pitch
    // views, bold titles) is scaled from the size it had before the first zoom.
    const qreal factor = 1.0 + 0.1 * m_zoomSteps;
    if (m_zoomSteps == 0) {
        fonts::skipNeedlessShaping(this); // the style strategy alone: sizes follow the system again
    } else {
        QFont f = font();
        f.setPointSizeF(QApplication::font().pointSizeF() * factor);
        setFont(f);
    }
    const QList<QWidget *> widgets = findChildren<QWidget *>();
    for (QWidget *w : widgets) {
        if (!w->testAttribute(Qt::WA_SetFont) || w->font().pointSizeF() <= 0)
            continue;
        QVariant base = w->property(kBasePointSize);
        if (!base.isValid()) {
            base = w->font().pointSizeF();
            w->setProperty(kBasePointSize, base);
        }
        QFont f = w->font();
        f.setPointSizeF(base.toReal() * factor);
        w->setFont(f);
    }
}

void MainWindow::toggleFullScreen()
{
    setWindowState(windowState() ^ Qt::WindowFullScreen);
}

void MainWindow::showShortcuts()
{
    createShortcutsDialog(this)->show();
}

void MainWindow::showLegend()
{
    createLegendDialog(this)->show();
}

void MainWindow::updateWelcomePage(bool loading)
{
    m_welcome->setRecentFiles(recentFiles());
    m_welcome->setVisible(!m_run && !loading);
    if (m_welcome->isVisible()) {
        m_welcome->raise();
        resizeEvent(nullptr);
    }
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    if (event)
        QMainWindow::resizeEvent(event);
    // Qt splits a wider window's width between the left dock area (Calls) and the rest: a window restored and then
    // maximized had Calls take half of it. The list keeps the width it had; Findings and the Wire share the rest as
    // they shared it before (when they stand side by side, as the default layout puts them).
    const auto beside = [this](QDockWidget *d) {
        return d->isVisible() && !d->isFloating() && dockWidgetArea(d) == Qt::RightDockWidgetArea;
    };
    if (event && m_shownOnce && m_callsWidthBefore > 0 && event->oldSize().width() > 0 &&
        event->size().width() != event->oldSize().width() && dockWidgetArea(m_callsDock) == Qt::LeftDockWidgetArea &&
        beside(m_findingsDock) && beside(m_wireDock) && m_findingsDock->x() < m_wireDock->x()) {
        const int keep = m_callsWidthBefore;
        m_keepingCallsWidth = true;
        QTimer::singleShot(0, this, [this, keep] {
            m_keepingCallsWidth = false;
            setCallsWidth(keep);
        });
    }
    // The welcome page covers the docks, between the menu bar and the status bar.
    const int top = menuBar()->isVisible() ? menuBar()->height() : 0;
    const int bottom = statusBar()->isVisible() ? statusBar()->height() : 0;
    m_welcome->setGeometry(0, top, width(), height() - top - bottom);
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    // Seen before the window's layout resizes the docks (application filters come first): the Calls list's width.
    // A second resize before the width is put back (a platform reporting the same resize twice) keeps the first.
    if (watched == this && event->type() == QEvent::Resize && !m_keepingCallsWidth)
        m_callsWidthBefore = m_callsDock->isVisible() && !m_callsDock->isFloating() ? m_callsDock->width() : 0;
    if (event->type() == QEvent::MouseButtonPress && m_run) {
        auto *w = qobject_cast<QWidget *>(watched);
        const auto *mouse = static_cast<QMouseEvent *>(event);
        if (w && w->window() == this && (mouse->button() == Qt::BackButton || mouse->button() == Qt::ForwardButton)) {
            mouse->button() == Qt::BackButton ? goBack() : goForward();
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::stepCall(int delta)
{
    if (!m_run || m_run->calls.empty())
        return;
    const int current = qMax(0, currentCall());
    showCall(qBound(0, current + delta, int(m_run->calls.size()) - 1));
}

void MainWindow::jump(Jump jump)
{
    if (!m_run)
        return;
    const int from = qMax(0, currentCall());
    if (const auto target = jumpTarget(m_run->calls, std::size_t(from), jump))
        showCall(int(*target));
    else
        statusBar()->showMessage(tr("No such call in that direction."), 3000);
}

QStringList MainWindow::recentFiles() const
{
    if (!m_options.persistSettings)
        return {};
    return QSettings().value(kRecentKey).toStringList();
}

void MainWindow::addRecentFile(const QString &path)
{
    if (!m_options.persistSettings)
        return;
    QSettings settings;
    QStringList files = settings.value(kRecentKey).toStringList();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    settings.setValue(kRecentKey, files);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = recentFiles();
    int n = 0;
    for (const QString &path : files) {
        ++n;
        const QString label = n < 10 ? QStringLiteral("&%1 %2").arg(n).arg(escapeMnemonic(QFileInfo(path).fileName()))
                                     : escapeMnemonic(QFileInfo(path).fileName());
        QAction *a = m_recentMenu->addAction(label, this, [this, path] { openFile(path); });
        a->setToolTip(path);
        a->setStatusTip(path);
    }
    if (files.isEmpty()) {
        m_recentMenu->addAction(tr("No recent files"))->setEnabled(false);
        return;
    }
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(tr("&Clear Menu"), this, [this] {
        QSettings().remove(kRecentKey);
        updateRecentMenu();
    });
}

void MainWindow::showAbout()
{
    // Trusted text only: the version and fixed words.
    QMessageBox::about(this, tr("About Tracefold"),
                       tr("<h3>Tracefold %1</h3>"
                          "<p>Replay recorded agentfootprint runs call by call: what the model was served, the "
                          "findings ledger and piece rebuilt byte for byte, collapsed tool results, cache reuse, and "
                          "receipt verification.</p>"
                          "<p>Built with Qt %2.</p>")
                           .arg(QStringLiteral(TRACEFOLD_VERSION), QString::fromLatin1(qVersion())));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_options.persistSettings) {
        QSettings settings;
        settings.setValue(kGeometryKey, saveGeometry());
        settings.setValue(kStateKey, saveState(kStateVersion));
        saveViewStates(this, settings);
    }
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.front().isLocalFile())
        return;
    event->acceptProposedAction();
    openFile(urls.front().toLocalFile());
}

void MainWindow::changeEvent(QEvent *event)
{
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::FontChange && m_statusRow)
        holdStatusRowHeight();
    // Formats in the text views bake palette colours in: redraw them when the system switches light and dark.
    if (event->type() == QEvent::PaletteChange && currentBundle())
        QTimer::singleShot(0, this, [this] { applyBundle(currentBundle()); });
}

} // namespace tf::ui
