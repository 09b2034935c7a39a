#include "ui/models/gapmodel.h"

#include "ui/models/callstatus.h"
#include "ui/services/qtstrings.h"

namespace tf::ui {

GapModel::GapModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void GapModel::setGaps(std::vector<recording::Gap> gaps)
{
    beginResetModel();
    m_gaps = std::move(gaps);
    endResetModel();
}

int GapModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_gaps.size());
}

int GapModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GapModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const recording::Gap &g = m_gaps[std::size_t(index.row())];
    switch (role) {
    case KindRole:
        return int(g.kind);
    case Qt::DisplayRole:
        switch (index.column()) {
        case GapColumn:
            return g.cause.empty() ? toQString(g.name) : tr("%1 (%2)").arg(toQString(g.name), toQString(g.cause));
        case KindColumn:
            return StatusText::gapKind(g.kind);
        case WhyColumn:
            return toQString(g.why);
        case FieldsColumn: {
            QStringList fields;
            for (const std::string &f : g.fields)
                fields << toQString(f);
            return fields.join(QStringLiteral(", "));
        }
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == WhyColumn || index.column() == FieldsColumn)
            return toolTipText(data(index, Qt::DisplayRole).toString());
        return {};
    default:
        return {};
    }
}

QVariant GapModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    // A short label: the pane is a third of the window; what it means is the tooltip.
    if (role == Qt::ToolTipRole && section == FieldsColumn)
        return tr("The receipt fields this gap covers");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case GapColumn:
        return tr("Gap");
    case KindColumn:
        return tr("Kind");
    case WhyColumn:
        return tr("Why");
    case FieldsColumn:
        return tr("Fields");
    default:
        return {};
    }
}

} // namespace tf::ui
