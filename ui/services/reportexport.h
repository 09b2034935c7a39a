#pragma once

#include "core/recording/run.h"
#include "core/report/notes.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>

class QWidget;

namespace tf::ui {

// Lays an HTML report out with QTextDocument and writes it as a paged A4 PDF, atomically (QSaveFile). Used by the
// GUI's File > Export Report and by the tracefold-report-pdf helper that `tracefold-cli report --pdf` runs, so both
// produce the same PDF. Safe off the GUI thread (QTextDocument and QPdfWriter are reentrant).
bool writeReportPdf(const QString &html, const QString &path, const QString &title, QString *error = nullptr);

// Writes the report for `run` to `path`: PDF when the name ends in .pdf (any case), HTML otherwise. Blocking; the
// HTML file is written with QSaveFile too.
bool writeReport(const recording::Run &run, const notes::Sidecar *sidecar, const QString &path,
                 QString *error = nullptr);

// The report title both formats carry ("Tracefold report run-…").
QString reportTitle(const recording::Run &run);

// File > Export Report: asks for a file (HTML or PDF, by the chosen filter), then writes it on a worker thread and
// reports the outcome in a message box. `format` preselects the filter. Returns immediately; the exporter deletes
// itself when done.
enum class ReportFormat
{
    Html,
    Pdf
};
void exportReport(QWidget *parent, std::shared_ptr<const recording::Run> run, const notes::Sidecar *sidecar,
                  ReportFormat format);

class MainWindow;

// The review tools, installed into the main window through its public API only (menus, docks, runLoaded,
// callShown, currentCall, showCall), so the window needs one line to get them:
//   File > Export Report as HTML… (Ctrl+E) / as PDF… (Ctrl+Shift+E)
//   Edit > Toggle Bookmark (Ctrl+B), Notes on This Call… (Ctrl+Shift+N), Find in Run… (Ctrl+Shift+F)
//   docks "Find in Run" (SearchPanel) and "Bookmarks and Notes" (BookmarksModel), listed under View.
// Bookmarks and notes are kept in the sidecar beside the open recording (SidecarStore). Returns the object that
// owns the tools (a child of the window).
QObject *installReviewTools(MainWindow *window);

// The asynchronous part of exportReport, usable without a dialog (tests, scripted exports).
class ReportExporter : public QObject
{
    Q_OBJECT

public:
    explicit ReportExporter(QObject *parent = nullptr);
    ~ReportExporter() override;

    // Copies the sidecar, so the caller may keep editing notes while the export runs.
    void start(std::shared_ptr<const recording::Run> run, std::optional<notes::Sidecar> sidecar, const QString &path);
    bool isRunning() const;

signals:
    void finished(bool ok, const QString &path, const QString &error);

private:
    struct State;
    std::shared_ptr<State> m_state;
};

} // namespace tf::ui
