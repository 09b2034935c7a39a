#pragma once

#include "ui/services/loadedrun.h"
#include "ui/widgets/glyphs.h"

#include "core/audit/problem.h"
#include "core/audit/runaudit.h"

#include <QAbstractTableModel>

namespace tf::ui {

// The pane that shows what a problem is about: a double-click on the problem opens its call there.
enum class ProblemPane
{
    Response,      // the response and its tool runs, or the lack of one
    Receipt,       // the verification rows
    SincePrevious, // cache reuse and the gap since the previous call
    Wire,          // what went over the wire: collapsed and evicted results, the context under pressure
    Findings,      // the piece: conflicts, contingent values, undeclared results
};
ProblemPane paneFor(audit::AuditRule rule);

Glyph severityGlyph(audit::Severity severity);
// The problem's text as plain text: its part, then its message (which quotes the recording; never rich text).
QString problemText(const audit::Problem &problem);
// "2 errors · 1 warning" (the kinds present; all three with `everyKind`), or "none".
QString problemCountsText(const audit::ProblemCounts &counts, bool everyKind = false);
// One line for a tooltip: "warning tool-error: …", the text previewed.
QString problemLine(const audit::Problem &problem);

// One row per problem the audit found (LoadedRun::problems, computed by the loader off the GUI thread), in the
// core's order: run-level first, then by call. Immutable; reset on a new run.
class ProblemsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        SeverityColumn,
        RuleColumn,
        CallColumn, // 1..N, or "run"
        MessageColumn,
        ColumnCount
    };
    enum Role
    {
        OrdinalRole = Qt::UserRole + 1, // int: the call, 0-based; -1 for the run as a whole
        GlyphRole,                      // int (Glyph) on the severity column
        SeverityRole,                   // int (audit::Severity)
        RuleRole,                       // int (audit::AuditRule)
        PaneRole,                       // int (ProblemPane)
        SortRole,
    };
    Q_ENUM(Column)

    explicit ProblemsModel(QObject *parent = nullptr);

    void setRun(const RunHandle &run);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString severityText(audit::Severity severity);

private:
    RunHandle m_run;
};

} // namespace tf::ui
