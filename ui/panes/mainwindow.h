#pragma once

#include "ui/models/callnavigation.h"
#include "ui/models/navigationhistory.h"
#include "ui/models/problemsmodel.h"
#include "ui/models/reviewmarks.h"
#include "ui/services/callbundle.h"
#include "ui/services/loadedrun.h"

#include <QMainWindow>
#include <QPointer>

#include <functional>
#include <vector>

class QDockWidget;
class QLabel;
class QMenu;
class QMessageBox;
class QProgressBar;
class QProgressDialog;
class QToolBar;

namespace tf::ui {

class CallViewService;
class ChangedBanner;
class FileWatch;
class CallsPane;
class FindingsPane;
class LedgerPane;
class ProblemsPane;
class ReceiptPane;
class ResponsePane;
class RunLoader;
class SincePreviousPane;
class StripChart;
class TimelinePane;
class TranscriptPane;
class SummaryBar;
class WelcomePage;
class WirePane;

// The Tracefold main window: the summary bar on top, the strip chart across all calls, and one dock per pane
// (calls, problems, findings, response, ledger, wire, since previous call, receipt). Loading runs in the background
// with a progress dialog; an error is shown with its reason and whatever was open stays open.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    struct Options
    {
        bool persistSettings = true; // restore and save geometry, dock state and recent files (QSettings)
        bool progressDialog = true;  // show a progress dialog for loads that take a moment
        bool errorDialogs = true;    // show load errors in a dialog (off: only loadFailed is emitted)
    };

    explicit MainWindow(QWidget *parent = nullptr);
    explicit MainWindow(const Options &options, QWidget *parent = nullptr);
    ~MainWindow() override;

    const RunHandle &run() const { return m_run; }
    BundleHandle currentBundle() const;
    int currentCall() const;
    bool isLoading() const;
    QStringList recentFiles() const;
    // The reason shown in the "file changed on disk" bar, or empty while the bar is hidden.
    QString fileChangedReason() const;

    // The default arrangement of the docks (also View > Reset Layout).
    void applyDefaultLayout();
    // Shows and raises `dock`, its pane given the call shown if it was left behind while out of sight: for whoever
    // brings a dock forward to act on its pane at once. A dock closed while behind a tab comes back behind it (Qt
    // rebuilds the tab bar later), so raising it does not always bring it into sight.
    void bringForward(QDockWidget *dock);

public slots:
    void openFile(const QString &path);
    // The call (0-based) to select when the next load finishes, instead of the first.
    void setInitialCall(int ordinal) { m_initialCall = ordinal; }
    void openBundledSample();
    void showOpenDialog();
    void reload();
    // Closes the recording; the welcome page takes the window.
    void closeRecording();
    void cancelLoading();
    // A snapshot of a followed recording (FollowTools): replaces the run shown and stays on the user's call, or goes
    // to the latest one.
    void showFollowedSnapshot(const tf::ui::RunHandle &run, bool latestCall);
    void showCall(int ordinal);
    // showCall as a jump (a link followed, a search match): Back returns here even from the adjacent call.
    void jumpToCall(int ordinal);
    // Go > Go to Call… (Ctrl+G): asks for a call number, 1..N.
    void showGoToCallDialog();
    void goBack();
    void goForward();
    // Text size of every pane, in steps of 10% (View > Zoom In / Out / Reset: Ctrl+= / Ctrl+- / Ctrl+0).
    void zoomText(int steps);
    int textZoom() const { return m_zoomSteps; }
    void toggleFullScreen();
    void showShortcuts();
    void showLegend();
    void jump(tf::ui::Jump jump);
    void stepCall(int delta);
    void showAbout();
    // The reviewer's bookmarks and notes, marked in the Calls list and the strip chart.
    void setReviewMarks(const tf::ui::ReviewMarks &marks);

signals:
    void runLoaded(const tf::ui::RunHandle &run);
    void runClosed();
    void loadStarted(const QString &path);
    // A large file's first calls are on screen while the rest is indexed; runLoaded follows.
    void runPreviewShown(const tf::ui::RunHandle &run);
    void loadFailed(const QString &path, const QString &error);
    void callShown(int ordinal);
    // Back or Forward (the menu, the keys, the mouse's buttons) is taking the window to this call.
    void travelling(int ordinal);
    // The open file changed on disk (noticed by the watch, or met by a call rebuild); the window keeps what it showed.
    void fileChanged(const QString &reason);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void arrangeDocks();
    void sizeDocks();
    int fittedCallsWidth() const;
    void refitCallsDock();
    // Gives the Calls dock `calls` pixels, Findings and the Wire the rest in their present proportion; false when
    // they are not beside each other with room to share.
    bool setCallsWidth(int calls);
    void createPanes();
    void createActions();
    void onLoadStarted(const QString &path);
    void onLoaded(const RunHandle &run);
    enum class RunSource
    {
        Opened,   // a whole file loaded
        Followed, // a snapshot of a file being written (FollowTools)
        Preview,  // the first calls of a large file, while the rest is indexed
    };
    void showRun(const RunHandle &run, int keepCall, RunSource source);
    void onPreviewReady(const RunHandle &run);
    void onLoadFailed(const QString &path, const QString &error);
    void onLoadCancelled();
    void onCallSelected(int ordinal);
    void markCurrentCall(int ordinal);
    void onBundleReady(const BundleHandle &bundle);
    void applyBundle(const BundleHandle &bundle);
    void openProblem(int ordinal, ProblemPane pane);
    // Gives the pane in `dock` the call shown, if it was left behind while out of sight.
    void bringUpToDate(const QDockWidget *dock);
    void onFileChanged(const QString &reason);
    void addRecentFile(const QString &path);
    void updateRecentMenu();
    void updateActions();
    // The welcome page shows while no recording is open and none is being opened.
    void updateWelcomePage(bool loading = false);
    void applyTextZoom();
    void holdStatusRowHeight();
    QDockWidget *addPane(QWidget *pane, const QString &title, const QString &objectName);

    Options m_options;
    RunLoader *m_loader = nullptr;
    CallViewService *m_service = nullptr;
    FileWatch *m_fileWatch = nullptr;
    QToolBar *m_changedBar = nullptr;
    ChangedBanner *m_changedBanner = nullptr;
    RunHandle m_run;
    QString m_loadingPath;
    int m_initialCall = -1;
    NavigationHistory m_history;
    int m_zoomSteps = 0;
    WelcomePage *m_welcome = nullptr;
    bool m_layoutRestored = false;
    bool m_shownOnce = false;
    int m_callsWidthBefore = 0; // the Calls dock's width as a resize of the window begins
    int m_callsFittedWidth = 0; // the width this window gave the Calls dock for its columns; 0: none yet
    bool m_keepingCallsWidth = false;

    SummaryBar *m_summary = nullptr;
    StripChart *m_strip = nullptr;
    CallsPane *m_calls = nullptr;
    FindingsPane *m_findings = nullptr;
    LedgerPane *m_ledger = nullptr;
    WirePane *m_wire = nullptr;
    SincePreviousPane *m_since = nullptr;
    ReceiptPane *m_receipt = nullptr;
    ResponsePane *m_response = nullptr;
    ProblemsPane *m_problems = nullptr;
    TimelinePane *m_timeline = nullptr;
    TranscriptPane *m_transcript = nullptr;
    QList<QDockWidget *> m_docks;
    // Panes that read nothing of another pane and that nothing reads while they are out of sight: behind another tab
    // (the default layout tabs Response, Receipt and Transcript) or closed, they are not rebuilt at every call but
    // when they are shown again (or brought up to date). At 1.5 GB those three cost 1.9 ms of every switch on the GUI
    // thread. A pane left behind holds no call: the call it showed would keep its run, and a followed log's earlier
    // snapshots, in memory, and a view with focus would offer its rows to act on.
    struct OnDemandPane
    {
        QDockWidget *dock = nullptr;
        std::function<void(const BundleHandle &)> setBundle;
        bool stale = false;
    };
    std::vector<OnDemandPane> m_onDemandPanes;
    BundleHandle m_appliedBundle; // what applyBundle last gave the panes
    QDockWidget *m_stripDock = nullptr;
    QDockWidget *m_callsDock = nullptr;
    QDockWidget *m_findingsDock = nullptr;
    QDockWidget *m_ledgerDock = nullptr;
    QDockWidget *m_wireDock = nullptr;
    QDockWidget *m_sinceDock = nullptr;
    QDockWidget *m_receiptDock = nullptr;
    QDockWidget *m_responseDock = nullptr;
    QDockWidget *m_problemsDock = nullptr;
    QDockWidget *m_timelineDock = nullptr;
    QDockWidget *m_transcriptDock = nullptr;

    QMenu *m_recentMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QList<QAction *> m_runActions;
    QAction *m_reloadAction = nullptr;
    QAction *m_copyPieceAction = nullptr;
    QAction *m_closeAction = nullptr;
    QAction *m_backAction = nullptr;
    QAction *m_forwardAction = nullptr;
    QLabel *m_statusCall = nullptr;
    QLabel *m_statusBuild = nullptr;
    QProgressBar *m_loadBar = nullptr;
    QWidget *m_statusRow = nullptr;
    QPointer<QProgressDialog> m_progress;
    QPointer<QMessageBox> m_errorBox;
};

} // namespace tf::ui
