#include "ui/services/navigator.h"

#include "ui/models/wiremodel.h"
#include "ui/panes/backtrackpane.h"
#include "ui/panes/ledgerpane.h"
#include "ui/panes/mainwindow.h"
#include "ui/panes/responsepane.h"
#include "ui/panes/wirepane.h"
#include "ui/services/qtstrings.h"
#include "ui/services/windowmenu.h"
#include "ui/widgets/toolcalllinks.h"

#include "core/recording/resultentry.h"

#include <QtConcurrent/QtConcurrentRun>

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFutureWatcher>
#include <QMenu>
#include <QStatusBar>

namespace tf::ui {

namespace {

QDockWidget *dockNamed(MainWindow *window, const char *name)
{
    return window->findChild<QDockWidget *>(QLatin1String(name), Qt::FindDirectChildrenOnly);
}

} // namespace

Navigator::Navigator(MainWindow *window)
    : QObject(window)
    , m_window(window)
    , m_search(window->findChild<SearchPanel *>(QStringLiteral("searchPanel")))
    , m_wire(window->findChild<WirePane *>(QStringLiteral("wirePane")))
    , m_response(window->findChild<ResponsePane *>(QStringLiteral("responsePane")))
    , m_ledger(window->findChild<LedgerPane *>(QStringLiteral("ledgerPane")))
{
    setObjectName(QStringLiteral("navigator"));
    qRegisterMetaType<SearchMatch>();

    // The Answer Backtrack dock: a tab beside the Response, where the answer's text is; closed until asked for.
    m_backtrack = new BacktrackPane(window);
    m_backtrackDock = new QDockWidget(tr("Answer Backtrack"), window);
    m_backtrackDock->setObjectName(QStringLiteral("backtrackDock"));
    m_backtrackDock->setWidget(m_backtrack);
    window->addDockWidget(Qt::RightDockWidgetArea, m_backtrackDock);
    if (QDockWidget *response = dockNamed(window, "responseDock"))
        window->tabifyDockWidget(response, m_backtrackDock);
    m_backtrackDock->hide();

    auto *findNext = new QAction(tr("Find &Next"), window);
    findNext->setObjectName(QStringLiteral("findNextAction"));
    findNext->setShortcut(QKeySequence(Qt::Key_F3)); // QKeySequence::FindNext is also Ctrl+G here: Go to Call
    auto *findPrevious = new QAction(tr("Find Pre&vious"), window);
    findPrevious->setObjectName(QStringLiteral("findPreviousAction"));
    findPrevious->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3));
    auto *backtrack = new QAction(tr("Answer &Backtrack"), window);
    backtrack->setObjectName(QStringLiteral("answerBacktrackAction"));
    backtrack->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    auto *followId = new QAction(tr("Follow &Tool Call Id"), window);
    followId->setObjectName(QStringLiteral("followToolCallAction"));
    followId->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G));
    followId->setToolTip(tr("Where the result of the tool call selected in the Wire or the tool runs entered"));
    window->addAction(followId);
    window->addAction(findNext);
    window->addAction(findPrevious);
    window->addAction(backtrack);
    if (QMenu *edit = windowMenu(window, "&Edit")) {
        edit->addAction(findNext);
        edit->addAction(findPrevious);
    }
    if (QMenu *go = windowMenu(window, "&Go")) {
        go->addSeparator();
        go->addAction(followId);
        go->addAction(backtrack);
    }
    if (QMenu *view = windowMenu(window, "&View"))
        view->addAction(m_backtrackDock->toggleViewAction());

    const auto step = [this](bool backward) {
        if (!m_search)
            return;
        if (m_search->model()->result() && m_search->model()->result()->totalMatches()) {
            backward ? m_search->findPrevious() : m_search->findNext();
            return;
        }
        // Nothing found yet: F3 opens the run search, as it does in an editor.
        if (auto *dock = qobject_cast<QDockWidget *>(m_search->parentWidget()))
            raise(dock);
        m_search->focusSearch();
    };
    connect(findNext, &QAction::triggered, this, [step] { step(false); });
    connect(findPrevious, &QAction::triggered, this, [step] { step(true); });
    connect(backtrack, &QAction::triggered, this, [this] { raise(m_backtrackDock); });
    // The keyboard's way to a link: the current row of the focused Wire or tool runs.
    connect(followId, &QAction::triggered, this, [this] {
        auto *view = qobject_cast<QAbstractItemView *>(QApplication::focusWidget());
        const QStringList ids = view ? toolCallIdsOfRow(view->currentIndex()) : QStringList();
        if (ids.isEmpty()) {
            status(tr("Select a tool result or a tool call in the Wire or the tool runs first."));
            return;
        }
        const QRect cell = view->visualRect(view->currentIndex());
        chooseToolCallId(view, view->viewport()->mapToGlobal(cell.bottomLeft()), ids,
                         [this](const QString &id) { followToolCall(id); });
    });

    if (m_search) {
        connect(m_search, &SearchPanel::matchActivated, this, &Navigator::revealMatch);
        connect(m_search, &SearchPanel::queryChanged, this, [this](const FindQuery &query) {
            if (m_wire)
                m_wire->setFindQuery(query);
            if (m_response)
                m_response->setFindQuery(query);
            m_backtrack->setFindQuery(query);
        });
    }
    if (m_wire)
        connect(m_wire, &WirePane::toolCallFollowed, this, &Navigator::followToolCall);
    if (m_response)
        connect(m_response, &ResponsePane::toolCallFollowed, this, &Navigator::followToolCall);
    connect(m_backtrack, &BacktrackPane::toolResultFollowed, this, &Navigator::followToolCall);
    connect(m_backtrack, &BacktrackPane::messageActivated, this, &Navigator::showMessage);
    connect(m_backtrack, &BacktrackPane::ledgerRowActivated, this, &Navigator::showLedgerRow);
    connect(m_backtrack, &BacktrackPane::callActivated, this,
            [this](int ordinal) { atCall(ordinal, [this] { raise(dockNamed(m_window, "responseDock")); }); });
    connect(window, &MainWindow::callShown, this, &Navigator::onCallShown);
    connect(window, &MainWindow::travelling, this, [this](int ordinal) { m_travellingTo = ordinal; });
    connect(window, &MainWindow::runLoaded, this, [this](const RunHandle &run) {
        m_pending = {};
        m_placed.clear();
        m_wireLeftAt.clear();
        m_backtrack->setRun(run);
    });
    connect(window, &MainWindow::runClosed, this, [this] {
        m_pending = {};
        m_placed.clear();
        m_wireLeftAt.clear();
        m_backtrack->setRun(nullptr);
    });
    if (window->run())
        m_backtrack->setRun(window->run());
}

Navigator::~Navigator()
{
    if (m_followCancel)
        m_followCancel->store(true);
}

void Navigator::raise(QDockWidget *dock)
{
    if (dock)
        m_window->bringForward(dock);
}

void Navigator::status(const QString &message)
{
    m_window->statusBar()->showMessage(message, 8000);
}

void Navigator::atCall(int ordinal, std::function<void()> then)
{
    const BundleHandle shown = m_window->currentBundle();
    if (shown && int(shown->ordinal) == ordinal && m_window->currentCall() == ordinal) {
        m_pending = {};
        then();
        return;
    }
    m_pendingOrdinal = ordinal;
    m_pending = std::move(then);
    if (m_wire && shown && m_window->currentCall() == int(shown->ordinal))
        m_wireLeftAt.insert(int(shown->ordinal), m_wire->shownItem());
    m_window->jumpToCall(ordinal);
}

void Navigator::onCallShown(int ordinal)
{
    if (m_travellingTo >= 0 && ordinal == m_travellingTo && ordinal == m_window->currentCall()) {
        m_travellingTo = -1;
        if (const auto left = m_wireLeftAt.constFind(ordinal); left != m_wireLeftAt.constEnd() && m_wire)
            m_wire->revealItem(left->first, left->second);
    }
    if (!m_pending)
        return;
    if (ordinal == m_pendingOrdinal) {
        auto then = std::move(m_pending);
        m_pending = {};
        then();
    } else if (m_window->currentCall() != m_pendingOrdinal) {
        m_pending = {}; // the user went elsewhere first
    }
}

void Navigator::revealMatch(const SearchMatch &match)
{
    if (match.ordinal < 0)
        return;
    atCall(match.ordinal, [this, match] {
        using report::SearchPart;
        QDockWidget *wireDock = dockNamed(m_window, "wireDock");
        QDockWidget *responseDock = dockNamed(m_window, "responseDock");
        bool shown = false;
        switch (match.part) {
        case SearchPart::System:
            shown = m_wire && m_wire->revealItem(WireModel::SystemGroup, -1, match.occurrence);
            raise(wireDock);
            break;
        case SearchPart::SystemPiece:
            shown = m_wire && m_wire->revealItem(WireModel::SystemGroup, match.index, match.occurrence);
            raise(wireDock);
            break;
        case SearchPart::Message:
            shown = m_wire && m_wire->revealItem(WireModel::MessagesGroup, match.index, match.occurrence);
            raise(wireDock);
            break;
        case SearchPart::Tool:
            shown = m_wire && m_wire->revealItem(WireModel::ToolsGroup, m_wire->toolRow(match.name), match.occurrence);
            raise(wireDock);
            break;
        // Raised first: a pane behind another tab is given the call only when it is brought forward.
        case SearchPart::ResponseText:
            raise(responseDock);
            if ((shown = m_response != nullptr))
                m_response->revealInText(match.occurrence);
            break;
        case SearchPart::ToolCallArguments:
            raise(responseDock);
            shown = m_response && m_response->selectToolRun(match.name, match.occurrence);
            break;
        case SearchPart::Answer: {
            // The run's answer is in the Answer Backtrack; an earlier turn's is its last response's text.
            const RunHandle run = m_window->run();
            const bool finalAnswer = run && run->backtrack && run->backtrack->finalOrdinal &&
                                     int(*run->backtrack->finalOrdinal) == match.ordinal && run->backtrack->answer;
            if (finalAnswer) {
                raise(m_backtrackDock);
                m_backtrack->revealInAnswer(match.occurrence);
            } else if (m_response) {
                raise(responseDock);
                m_response->revealInText(match.occurrence);
            }
            shown = true;
            break;
        }
        }
        if (!shown)
            status(tr("Call %1 has no %2 to show.").arg(match.ordinal + 1).arg(match.location));
    });
}

void Navigator::followToolCall(const QString &toolCallId)
{
    const RunHandle run = m_window->run();
    if (!run || toolCallId.isEmpty())
        return;
    if (m_followCancel)
        m_followCancel->store(true);
    ++m_followGeneration;
    if (const auto known = m_placed.constFind(toolCallId); known != m_placed.constEnd()) {
        showToolResult(*known);
        return;
    }
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_followCancel = cancel;
    const quint64 generation = m_followGeneration;
    status(tr("Finding where the result of %1 entered\u2026").arg(toolCallId));
    auto *watcher = new QFutureWatcher<recording::ToolResultPlace>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, run, toolCallId] {
        watcher->deleteLater();
        if (generation != m_followGeneration || m_window->run() != run)
            return; // superseded, or another recording is open now
        const recording::ToolResultPlace place = watcher->result();
        m_placed.insert(toolCallId, place);
        showToolResult(place);
    });
    const std::string id = toolCallId.toStdString();
    watcher->setFuture(
        QtConcurrent::run([run, id, cancel] { return recording::locateToolResult(*run->run, id, cancel.get()); }));
}

void Navigator::showToolResult(const recording::ToolResultPlace &place)
{
    const QString toolCallId = toQString(place.toolCallId);
    if (place.entered) {
        const int ordinal = int(place.entered->ordinal);
        const int message = place.entered->messageIndex ? int(*place.entered->messageIndex) : -1;
        atCall(ordinal, [this, place, ordinal, message, toolCallId] {
            if (m_wire && message >= 0)
                m_wire->revealItem(WireModel::MessagesGroup, message);
            raise(dockNamed(m_window, "wireDock"));
            QString where = message >= 0 ? tr("The result of %1 entered at call %2 as messages[%3]")
                                               .arg(toolCallId)
                                               .arg(ordinal + 1)
                                               .arg(message)
                                         : tr("The result of %1 entered at call %2").arg(toolCallId).arg(ordinal + 1);
            if (place.entered->asTicket)
                where += tr(", as a collapse ticket");
            if (place.ranAt)
                where += tr("; call %1 asked for it").arg(*place.ranAt + 1);
            status(where + tr(". Back (Alt+Left) returns."));
            emit toolCallShown(toolCallId, ordinal);
        });
    } else if (place.ranAt) {
        const int ordinal = int(*place.ranAt);
        atCall(ordinal, [this, place, ordinal, toolCallId] {
            raise(dockNamed(m_window, "responseDock")); // first: out of sight, the pane is not given the call
            if (m_response)
                m_response->selectToolRun(toolCallId);
            status(place.resultOnRecord
                       ? tr("No later call was served the result of %1; it ran after call %2.")
                             .arg(toolCallId)
                             .arg(ordinal + 1)
                       : tr("%1 never returned a result; call %2 asked for it.").arg(toolCallId).arg(ordinal + 1));
            emit toolCallShown(toolCallId, ordinal);
        });
    } else {
        status(tr("No tool call %1 is on record.").arg(toolCallId));
    }
}

void Navigator::showLedgerRow(int ordinal, int row)
{
    atCall(ordinal, [this, row] {
        raise(dockNamed(m_window, "ledgerDock"));
        if (m_ledger && row >= 0)
            m_ledger->selectRows({row});
    });
}

void Navigator::showMessage(int ordinal, int message)
{
    atCall(ordinal, [this, message] {
        raise(dockNamed(m_window, "wireDock"));
        if (m_wire && message >= 0)
            m_wire->revealItem(WireModel::MessagesGroup, message);
    });
}

} // namespace tf::ui
