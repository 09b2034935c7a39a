#pragma once

#include "ui/panes/searchpanel.h"

#include "core/recording/resultentry.h"

#include <QHash>
#include <QObject>
#include <QPointer>

#include <atomic>
#include <functional>
#include <memory>

class QDockWidget;

namespace tf::ui {

class BacktrackPane;
class LedgerPane;
class MainWindow;
class ResponsePane;
class WirePane;

// Finding and moving across panes: a run search match shown where it is (the Wire's item, the response text, a tool
// call's arguments, the answer) with the match marked, F3 / Shift+F3 through every match; a tool call id followed to
// the call where its result entered and the message that carries it; the Answer Backtrack dock and its entries. Each
// move to another call is a jump in the window's history, so Back returns to where the user was. Installed into the
// window once its panes and the run search exist; it finds them by object name.
class Navigator : public QObject
{
    Q_OBJECT

public:
    explicit Navigator(MainWindow *window);
    ~Navigator() override;

    BacktrackPane *backtrackPane() const { return m_backtrack; }
    QDockWidget *backtrackDock() const { return m_backtrackDock; }

public slots:
    void revealMatch(const tf::ui::SearchMatch &match);
    // Finds (off the GUI thread) where the result of `toolCallId` entered, then shows that call with the message
    // selected; a result no call was served is shown where it ran.
    void followToolCall(const QString &toolCallId);
    void showLedgerRow(int ordinal, int row);
    void showMessage(int ordinal, int message);

signals:
    // A tool call id was followed and its destination is on screen (for tests and the status bar).
    void toolCallShown(const QString &toolCallId, int ordinal);

private:
    // Shows `ordinal` (a jump) and runs `then` once its bundle is on screen; at once when it already is.
    void atCall(int ordinal, std::function<void()> then);
    void onCallShown(int ordinal);
    void showToolResult(const recording::ToolResultPlace &place);
    void raise(QDockWidget *dock);
    void status(const QString &message);

    MainWindow *m_window;
    QPointer<SearchPanel> m_search;
    QPointer<WirePane> m_wire;
    QPointer<ResponsePane> m_response;
    QPointer<LedgerPane> m_ledger;
    BacktrackPane *m_backtrack = nullptr;
    QDockWidget *m_backtrackDock = nullptr;
    int m_pendingOrdinal = -1;
    std::function<void()> m_pending;
    quint64 m_followGeneration = 0;
    std::shared_ptr<std::atomic<bool>> m_followCancel;
    // Where each followed id's result entered, for the open run: a late result costs a pass over the calls before
    // it, so it is looked up once.
    QHash<QString, recording::ToolResultPlace> m_placed;
    // What the Wire showed at each call a jump left (group, row), brought back when Back or Forward returns there.
    QHash<int, QPair<int, int>> m_wireLeftAt;
    int m_travellingTo = -1; // the call Back or Forward is taking the window to, until its bundle is on screen
};

} // namespace tf::ui
