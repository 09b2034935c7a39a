#include "ui/services/comparisontools.h"

#include "ui/panes/callspane.h"
#include "ui/panes/comparisonpane.h"
#include "ui/panes/mainwindow.h"
#include "ui/services/windowmenu.h"
#include "ui/widgets/pairsidesview.h"

#include "core/recording/recordingloader.h"

#include <QtConcurrent/QtConcurrentRun>

#include <QAction>
#include <QBoxLayout>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>

#include <utility>

namespace tf::ui {

ComparisonTools::ComparisonTools(MainWindow *window)
    : QObject(window)
    , m_window(window)
{
    setObjectName(QStringLiteral("comparisonTools"));
    qRegisterMetaType<tf::ui::ComparisonHandle>();
    m_pane = new ComparisonPane(window);
    m_dock = new QDockWidget(tr("Comparison"), window);
    m_dock->setObjectName(QStringLiteral("comparisonDock"));
    m_dock->setWidget(m_pane);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    m_dock->hide();

    m_compareAction = new QAction(tr("&Compare With\u2026"), window);
    m_compareAction->setObjectName(QStringLiteral("compareWithAction"));
    m_compareAction->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O));
    connect(m_compareAction, &QAction::triggered, this, &ComparisonTools::showCompareDialog);
    m_swapAction = new QAction(tr("S&wap With Baseline"), window);
    m_swapAction->setObjectName(QStringLiteral("swapBaselineAction"));
    m_swapAction->setEnabled(false);
    connect(m_swapAction, &QAction::triggered, this, &ComparisonTools::swapWithBaseline);
    m_closeAction = new QAction(tr("Close Compa&rison"), window);
    m_closeAction->setObjectName(QStringLiteral("closeComparisonAction"));
    m_closeAction->setEnabled(false);
    connect(m_closeAction, &QAction::triggered, this, &ComparisonTools::closeComparison);
    auto *next = new QAction(tr("Next &Divergence"), window);
    next->setObjectName(QStringLiteral("nextDivergenceAction"));
    next->setShortcut(QKeySequence(Qt::Key_F8));
    connect(next, &QAction::triggered, this, [this] { stepDivergence(1); });
    auto *previous = new QAction(tr("Previous Divergence"), window);
    previous->setObjectName(QStringLiteral("previousDivergenceAction"));
    previous->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F8));
    connect(previous, &QAction::triggered, this, [this] { stepDivergence(-1); });
    m_divergenceActions = {next, previous};
    for (QAction *a : m_divergenceActions)
        a->setEnabled(false);
    m_compareAction->setEnabled(window->run() != nullptr);

    QMenu *file = windowMenu(window, "&File");
    QMenu *go = windowMenu(window, "&Go");
    QMenu *view = windowMenu(window, "&View");
    if (file) {
        // Beside Open Recent and the other ways to open a file, before Reload.
        QAction *before = nullptr;
        for (QAction *a : file->actions())
            if (a->objectName() == QLatin1String("reloadAction"))
                before = a;
        file->insertAction(before, m_compareAction);
        file->insertAction(before, m_swapAction);
        file->insertAction(before, m_closeAction);
    }
    if (go) {
        go->addSeparator();
        go->addActions(m_divergenceActions);
    }
    if (!file || !go) {
        QMenu *own = window->menuBar()->addMenu(tr("Co&mpare"));
        own->addAction(m_compareAction);
        own->addAction(m_swapAction);
        own->addAction(m_closeAction);
        own->addActions(m_divergenceActions);
    }
    if (view)
        view->addAction(m_dock->toggleViewAction());

    qRegisterMetaType<tf::ui::ComparedPairHandle>();
    m_calls = window->findChild<CallsPane *>(QStringLiteral("callsPane"));
    if (m_calls) {
        connect(m_calls, &CallsPane::alignedRowChosen, m_pane, &ComparisonPane::chooseRow);
        connect(m_pane, &ComparisonPane::rowChosen, m_calls, &CallsPane::setAlignedRow);
    }
    addSidesView("wirePane", "wireCompare", tr("Served"), &compare::PairPanes::served, false);
    addSidesView("responsePane", "responseCompare", tr("Response"), &compare::PairPanes::response, false);
    addSidesView("ledgerPane", "ledgerCompare", tr("Ledger"), &compare::PairPanes::ledger, false);
    addSidesView("findingsPane", "pieceCompare", tr("Findings piece"), &compare::PairPanes::piece, false);
    addSidesView("sincePreviousPane", "cacheCompare", tr("Cache"), &compare::PairPanes::cache, true);
    connect(m_pane, &ComparisonPane::pairReady, this, &ComparisonTools::showPair);
    connect(window, &MainWindow::runClosed, this, &ComparisonTools::clear);

    connect(m_pane, &ComparisonPane::callActivated, window, &MainWindow::showCall);
    connect(window, &MainWindow::callShown, m_pane, &ComparisonPane::showThisCall);
    connect(window, &MainWindow::runLoaded, this, [this](const RunHandle &run) {
        // A comparison belongs to the run it was made for.
        if (m_comparison && run && m_comparison->run != run->run)
            clear();
        m_compareAction->setEnabled(run != nullptr);
        if (!m_compareOnLoad.isEmpty())
            compareWith(std::exchange(m_compareOnLoad, QString()));
    });
    connect(window, &MainWindow::loadFailed, this, [this] { m_compareOnLoad.clear(); });
}

ComparisonTools::~ComparisonTools()
{
    ++m_generation; // results still on their way are dropped
}

void ComparisonTools::addSidesView(const char *paneName, const char *viewName, const QString &subject,
                                   compare::PairSides compare::PairPanes::*sides, bool lineOnly)
{
    // Under the pane's own content, in its layout: the pane stays the open run's, the comparison is added below it.
    auto *pane = m_window->findChild<QWidget *>(QLatin1String(paneName));
    auto *layout = pane ? qobject_cast<QBoxLayout *>(pane->layout()) : nullptr;
    if (!layout)
        return;
    auto *view = new PairSidesView(QLatin1String(viewName), subject, lineOnly, pane);
    view->hide();
    layout->addWidget(view);
    m_sides.push_back({view, sides});
}

QList<PairSidesView *> ComparisonTools::sidesViews() const
{
    QList<PairSidesView *> out;
    for (const Sides &s : m_sides)
        out << s.view;
    return out;
}

void ComparisonTools::showPair(const ComparedPairHandle &pair)
{
    m_pair = pair;
    if (!pair || !m_comparison)
        return;
    const QString labelA = pair->a ? tr("call %1").arg(*pair->a + 1) : tr("no call in this run");
    const QString labelB = pair->b ? tr("baseline call %1").arg(*pair->b + 1) : tr("no baseline call");
    for (const Sides &s : m_sides) {
        s.view->setSides(pair->panes.*(s.sides), labelA, labelB);
        s.view->show();
    }
}

void ComparisonTools::clear()
{
    ++m_generation;
    m_pending = 0;
    m_comparison = nullptr;
    m_pair = nullptr;
    if (m_calls)
        m_calls->setComparison(nullptr);
    for (const Sides &s : m_sides)
        s.view->hide();
    m_swapAction->setEnabled(false);
    m_closeAction->setEnabled(false);
    m_pane->setMessage(tr("No comparison. File > Compare With\u2026 lines this run up against another run of the "
                          "same task."));
    for (QAction *a : m_divergenceActions)
        a->setEnabled(false);
}

ComparisonTools::Outcome ComparisonTools::compareNow(std::shared_ptr<const recording::Run> run, const QString &path)
{
    Outcome out;
    const recording::LoadResult baseline = recording::loadRecording(QFile::encodeName(path).toStdString());
    if (!baseline.run) {
        out.error = QString::fromStdString(baseline.error);
        return out;
    }
    auto comparison = std::make_shared<LoadedComparison>();
    comparison->run = std::move(run);
    comparison->baseline = baseline.run;
    comparison->diff = compare::compareRuns(*comparison->run, *comparison->baseline);
    comparison->baselinePath = path;
    out.comparison = std::move(comparison);
    return out;
}

void ComparisonTools::showCompareDialog()
{
    if (!m_window->run())
        return;
    const QString start = QFileInfo(m_window->run()->path).absolutePath();
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Compare With Recording"), start,
                                                      tr("Recordings (*.json *.ndjson *.jsonl);;All files (*)"));
    if (!path.isEmpty())
        compareWith(path);
}

void ComparisonTools::compareWith(const QString &path)
{
    if (!m_window->run())
        return;
    const quint64 generation = ++m_generation;
    ++m_pending;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    m_pane->setMessage(tr("Comparing with %1\u2026").arg(absolute));
    if (!m_dock->isVisible() && !m_dockPlaced) {
        // The first time, over the Problems dock when that sits at the bottom: the comparison gets the window's width.
        m_dockPlaced = true;
        auto *problems = m_window->findChild<QDockWidget *>(QStringLiteral("problemsDock"));
        if (problems && problems->isVisible() && !problems->isFloating() &&
            m_window->dockWidgetArea(problems) == Qt::BottomDockWidgetArea)
            m_window->tabifyDockWidget(problems, m_dock);
    }
    m_dock->show();
    m_dock->raise();
    auto *watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, generation, absolute] {
        watcher->deleteLater();
        if (generation != m_generation)
            return; // superseded, or the run it was made for is gone
        m_pending = 0;
        const Outcome outcome = watcher->result();
        if (!outcome.comparison) {
            m_pane->setMessage(tr("Could not compare: %1").arg(outcome.error));
            m_window->statusBar()->showMessage(tr("Could not compare with %1").arg(QFileInfo(absolute).fileName()),
                                               8000);
            emit comparisonFailed(absolute, outcome.error);
            return;
        }
        m_comparison = outcome.comparison;
        if (m_calls)
            m_calls->setComparison(m_comparison);
        m_pane->setComparison(m_comparison);
        m_pane->showThisCall(m_window->currentCall());
        for (QAction *a : m_divergenceActions)
            a->setEnabled(true);
        m_closeAction->setEnabled(true);
        // The bundled sample is a resource, which a comparison cannot open as a baseline.
        m_swapAction->setEnabled(!m_window->run()->bundled);
        emit comparisonReady(m_comparison);
    });
    watcher->setFuture(QtConcurrent::run(&ComparisonTools::compareNow, m_window->run()->run, absolute));
}

void ComparisonTools::closeComparison()
{
    clear();
    m_dock->hide();
}

void ComparisonTools::swapWithBaseline()
{
    if (!m_comparison || !m_window->run() || m_window->run()->bundled)
        return;
    m_compareOnLoad = m_window->run()->path;
    m_window->openFile(m_comparison->baselinePath);
}

bool ComparisonTools::stepDivergence(int step)
{
    if (!m_comparison)
        return false;
    m_dock->show();
    if (m_pane->stepDivergence(step))
        return true;
    m_window->statusBar()->showMessage(tr("No divergence in that direction."), 3000);
    return false;
}

} // namespace tf::ui
