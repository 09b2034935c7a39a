#pragma once

#include "ui/services/callbundle.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QSplitter;
class QTableView;

namespace tf::ui {

class ElidedLabel;
class GlyphLabel;
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

    ToolRunModel *toolModel() const { return m_tools; }
    QTableView *toolView() const { return m_toolView; }
    QString stateText() const;
    QString responseText() const;
    QString detailText() const;
    QString runNoteText() const; // what happened to the run at this call (failed, paused, a limit); empty if nothing

private:
    void showTool(int row);
    void setRunNote(const BundleHandle &bundle);

    BundleHandle m_bundle;
    ToolRunModel *m_tools = nullptr;
    GlyphLabel *m_glyph = nullptr;
    ElidedLabel *m_state = nullptr;
    ElidedLabel *m_facts = nullptr;
    QLabel *m_runNote = nullptr;
    QWidget *m_toolBox = nullptr;
    QPlainTextEdit *m_text = nullptr;
    QTableView *m_toolView = nullptr;
    QPlainTextEdit *m_detail = nullptr;
};

} // namespace tf::ui
