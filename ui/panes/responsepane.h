#pragma once

#include "ui/services/callbundle.h"
#include "ui/widgets/findhighlight.h"

#include <QWidget>

class QPlainTextEdit;
class QSplitter;
class QTableView;

namespace tf::ui {

class AnnotatedTextView;
class ColumnFitter;
class ElidedLabel;
class GlyphLabel;
class SelectableLabel;
class ToolRunModel;

// What the model answered at the selected call (spec/runs.md §2-§3): its text, its stop reason, latency and usage,
// and each tool call it asked for as it ran, with the arguments, the model's _findings declaration and the result
// (or the error, or why it never returned). A call with no llm_end says "no response on record", never nothing.
class ResponsePane : public QWidget
{
    Q_OBJECT

public:
    explicit ResponsePane(QWidget *parent = nullptr);
    void setBundle(const BundleHandle &bundle);
    const BundleHandle &bundle() const { return m_bundle; }

    ToolRunModel *toolModel() const { return m_tools; }
    QTableView *toolView() const { return m_toolView; }
    QString stateText() const;
    QString responseText() const;
    QString detailText() const;
    QString runNoteText() const; // what happened to the run at this call (failed, paused, a limit); empty if nothing
    QPlainTextEdit *textView() const;
    // The tool run's detail, its text set first if it waits for the pane to be on screen.
    QPlainTextEdit *detailView() const;

    // The run search's text: its matches are marked in the response text and the tool run shown.
    void setFindQuery(const FindQuery &query);
    // Marks the `occurrence`-th match in the response text and scrolls to it.
    void revealInText(int occurrence);
    // Selects the tool run with this id (its arguments and result below); with `occurrence` >= 0 that match in
    // the detail is marked and scrolled to. False when the call ran no such tool.
    bool selectToolRun(const QString &toolCallId, int occurrence = -1);

signals:
    // A tool call id was clicked in the tool runs.
    void toolCallFollowed(const QString &toolCallId);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void showTool(int row);
    // A tool's result runs to tens of kilobytes, and laying it out was a call switch's dearest work at 60 KB results
    // (more than every other pane) for a pane most often behind the Findings tab: the text waits until the detail
    // is on screen (or read).
    bool detailOnScreen() const;
    void setDetailText(const QString &text);
    void flushDetail() const;
    void watchDock();
    void setRunNote(const BundleHandle &bundle);

    BundleHandle m_bundle;
    mutable QString m_pendingDetail;
    mutable bool m_detailPending = false;
    bool m_watchingDock = false;
    ToolRunModel *m_tools = nullptr;
    GlyphLabel *m_glyph = nullptr;
    ElidedLabel *m_state = nullptr;
    ElidedLabel *m_facts = nullptr;
    SelectableLabel *m_runNote = nullptr;
    QWidget *m_toolBox = nullptr;
    AnnotatedTextView *m_text = nullptr;
    QTableView *m_toolView = nullptr;
    ColumnFitter *m_toolFitter = nullptr;
    AnnotatedTextView *m_detail = nullptr;
    FindQuery m_find;
};

} // namespace tf::ui
