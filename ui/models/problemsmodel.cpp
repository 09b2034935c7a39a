#include "ui/models/problemsmodel.h"

#include "ui/services/qtstrings.h"

namespace tf::ui {

ProblemPane paneFor(audit::AuditRule rule)
{
    using audit::AuditRule;
    switch (rule) {
    case AuditRule::ReceiptDamaged:
        return ProblemPane::Receipt;
    case AuditRule::CacheRewriteStreak:
    case AuditRule::TtlGap:
        return ProblemPane::SincePrevious;
    case AuditRule::BudgetPressure:
    case AuditRule::EvidenceCollapsed:
        return ProblemPane::Wire;
    case AuditRule::ConflictAtAnswer:
    case AuditRule::ContingentAtAnswer:
    case AuditRule::UndeclaredAtAnswer:
        return ProblemPane::Findings;
    case AuditRule::RunFailed:
    case AuditRule::RunIncomplete:
    case AuditRule::NoResponse:
    case AuditRule::ToolError:
    case AuditRule::ToolNeverReturned:
    case AuditRule::LimitHit:
    case AuditRule::Paused:
        return ProblemPane::Response;
    }
    return ProblemPane::Response;
}

Glyph severityGlyph(audit::Severity severity)
{
    switch (severity) {
    case audit::Severity::Error:
        return Glyph::ProblemError;
    case audit::Severity::Warning:
        return Glyph::ProblemWarning;
    case audit::Severity::Info:
        return Glyph::ProblemInfo;
    }
    return Glyph::ProblemInfo;
}

QString problemText(const audit::Problem &p)
{
    return p.part.empty() ? toQString(p.message) : toQString(p.part) + QStringLiteral(": ") + toQString(p.message);
}

QString problemCountsText(const audit::ProblemCounts &n, bool everyKind)
{
    QStringList parts;
    if (n.errors || everyKind)
        parts << (n.errors == 1 ? ProblemsModel::tr("1 error") : ProblemsModel::tr("%1 errors").arg(n.errors));
    if (n.warnings || everyKind)
        parts << (n.warnings == 1 ? ProblemsModel::tr("1 warning") : ProblemsModel::tr("%1 warnings").arg(n.warnings));
    if (n.infos || everyKind)
        parts << ProblemsModel::tr("%1 info").arg(n.infos);
    return parts.isEmpty() ? ProblemsModel::tr("none") : parts.join(QStringLiteral(" \u00B7 "));
}

QString problemLine(const audit::Problem &p)
{
    return QString::fromLatin1(audit::severityId(p.severity)) + QLatin1Char(' ') +
           QString::fromLatin1(audit::auditRuleId(p.rule)) + QStringLiteral(": ") + previewLine(problemText(p), 120);
}

ProblemsModel::ProblemsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

QString ProblemsModel::severityText(audit::Severity severity)
{
    switch (severity) {
    case audit::Severity::Error:
        return tr("Error");
    case audit::Severity::Warning:
        return tr("Warning");
    case audit::Severity::Info:
        return tr("Info");
    }
    return {};
}

void ProblemsModel::setRun(const RunHandle &run)
{
    beginResetModel();
    m_run = run;
    endResetModel();
}

int ProblemsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_run ? 0 : int(m_run->problems.size());
}

int ProblemsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProblemsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_run)
        return {};
    const audit::Problem &p = m_run->problems[std::size_t(index.row())];
    // The message quotes the recording: shown as plain text on one line, in full in the tooltip.
    const auto message = [&p] { return problemText(p); };
    switch (role) {
    case OrdinalRole:
        return p.call ? int(*p.call) : -1;
    case SeverityRole:
        return int(p.severity);
    case RuleRole:
        return int(p.rule);
    case PaneRole:
        return int(paneFor(p.rule));
    case GlyphRole:
        return index.column() == SeverityColumn ? QVariant(int(severityGlyph(p.severity))) : QVariant();
    case SortRole:
        switch (index.column()) {
        case SeverityColumn:
            return int(p.severity);
        case RuleColumn:
            return int(p.rule);
        case CallColumn:
            return p.call ? qlonglong(*p.call) : -1LL;
        default:
            return message();
        }
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeverityColumn:
            return severityText(p.severity);
        case RuleColumn:
            return QString::fromLatin1(audit::auditRuleId(p.rule));
        case CallColumn:
            return p.call ? QString::number(*p.call + 1) : tr("run");
        case MessageColumn:
            return previewLine(message(), 400);
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        return index.column() == CallColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                            : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        return toolTipText(message() + QStringLiteral("\n\n") + QString::fromLatin1(audit::auditRuleId(p.rule)) +
                           QStringLiteral(": ") + QString::fromLatin1(audit::auditRuleCondition(p.rule)));
    default:
        return {};
    }
}

QVariant ProblemsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case RuleColumn:
        return tr("Rule");
    case CallColumn:
        return tr("Call");
    case MessageColumn:
        return tr("Message");
    default:
        return {};
    }
}

} // namespace tf::ui
