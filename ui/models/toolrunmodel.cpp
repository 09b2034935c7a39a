#include "ui/models/toolrunmodel.h"

#include "ui/models/toolcalllink.h"
#include "ui/services/qtstrings.h"
#include "ui/widgets/glyphs.h"

namespace tf::ui {

ToolRunModel::ToolRunModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void ToolRunModel::setBundle(const BundleHandle &bundle)
{
    beginResetModel();
    m_bundle = bundle;
    endResetModel();
}

const recording::ToolRun *ToolRunModel::toolRun(int row) const
{
    if (!m_bundle || row < 0 || std::size_t(row) >= m_bundle->view->toolRuns.size())
        return nullptr;
    return &m_bundle->view->toolRuns[std::size_t(row)];
}

int ToolRunModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_bundle ? 0 : int(m_bundle->view->toolRuns.size());
}

int ToolRunModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ToolRunModel::statusText(const recording::ToolRun &run)
{
    if (run.error)
        return tr("error");
    if (run.returned)
        return tr("returned");
    return run.started ? tr("never returned") : tr("not run");
}

QVariant ToolRunModel::data(const QModelIndex &index, int role) const
{
    const recording::ToolRun *run = toolRun(index.row());
    if (!run)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case StatusColumn:
            return statusText(*run);
        case ToolColumn:
            return toQString(run->name);
        case IdColumn:
            return toQString(run->id);
        case DurationColumn:
            return run->durationMs ? tr("%1 ms").arg(formatCount(*run->durationMs)) : QString();
        case ParallelColumn:
            return run->parallelCount ? tr("%1 in parallel").arg(*run->parallelCount) : QString();
        }
        break;
    case Qt::DecorationRole:
        if (index.column() == StatusColumn) {
            if (run->error)
                return glyphIcon(Glyph::ToolError);
            if (!run->returned)
                return glyphIcon(Glyph::NeverReturned);
        }
        break;
    case ToolCallIdsRole:
        if (index.column() == IdColumn)
            return QStringList{toQString(run->id)};
        break;
    case Qt::ForegroundRole:
    case Qt::FontRole:
        if (index.column() == IdColumn)
            return toolCallLinkData(role);
        break;
    case Qt::ToolTipRole:
        if (index.column() == IdColumn)
            return toolTipText(tr("Click to go to the call where this result entered the messages"));
        if (!run->returned)
            return toolTipText(toQString(run->missingReason));
        if (run->error && run->result)
            return toolTipText(
                tr("The tool threw; the model was sent its error text:\n%1").arg(previewLine(toQString(*run->result))));
        break;
    case Qt::TextAlignmentRole:
        if (index.column() == DurationColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case ErrorRole:
        return run->error;
    case ReturnedRole:
        return run->returned;
    }
    return {};
}

QVariant ToolRunModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StatusColumn:
        return tr("Status");
    case ToolColumn:
        return tr("Tool");
    case IdColumn:
        return tr("Call id");
    case DurationColumn:
        return tr("Duration");
    case ParallelColumn:
        return tr("Parallel");
    }
    return {};
}

} // namespace tf::ui
