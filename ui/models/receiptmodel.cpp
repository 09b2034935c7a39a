#include "ui/models/receiptmodel.h"

#include "ui/models/callstatus.h"
#include "ui/services/qtstrings.h"

namespace tf::ui {

ReceiptModel::ReceiptModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void ReceiptModel::setBundle(const BundleHandle &bundle)
{
    beginResetModel();
    m_bundle = bundle;
    endResetModel();
}

int ReceiptModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_bundle ? 0 : int(m_bundle->view->checks.size());
}

int ReceiptModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ReceiptModel::data(const QModelIndex &index, int role) const
{
    if (!m_bundle || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const recording::PartCheck &c = m_bundle->view->checks[std::size_t(index.row())];
    switch (role) {
    case BadgeRole:
        return int(c.badge);
    case GlyphRole:
        return index.column() == StatusColumn ? QVariant(int(glyphFor(c.badge))) : QVariant();
    case PartIdRole:
        return toQString(c.part);
    case Qt::DisplayRole:
        switch (index.column()) {
        case PartColumn:
            return toQString(c.part);
        case StatusColumn:
            return StatusText::badge(c.badge);
        case ReasonColumn:
            return toQString(c.reason);
        default:
            return {};
        }
    case Qt::ToolTipRole:
        return index.column() == ReasonColumn ? QVariant(toolTipText(toQString(c.reason))) : QVariant();
    default:
        return {};
    }
}

QVariant ReceiptModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case PartColumn:
        return tr("Part");
    case StatusColumn:
        return tr("Status");
    case ReasonColumn:
        return tr("Reason");
    default:
        return {};
    }
}

} // namespace tf::ui
