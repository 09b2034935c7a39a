#include "ui/models/ledgerfiltermodel.h"

#include "ui/models/ledgermodel.h"

namespace tf::ui {

LedgerFilterModel::LedgerFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(LedgerModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void LedgerFilterModel::setScope(Scope scope)
{
    if (scope == m_scope)
        return;
    m_scope = scope;
    invalidateRowsFilter();
}

void LedgerFilterModel::setText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    invalidateRowsFilter();
}

void LedgerFilterModel::sort(int column, Qt::SortOrder order)
{
    QSortFilterProxyModel::sort(column == LedgerModel::RowColumn && order == Qt::AscendingOrder ? -1 : column, order);
}

bool LedgerFilterModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const auto *ledger = qobject_cast<const LedgerModel *>(sourceModel());
    const findings::LedgerRowView *a = ledger ? ledger->rowView(left.row()) : nullptr;
    const findings::LedgerRowView *b = ledger ? ledger->rowView(right.row()) : nullptr;
    if (a && b && left.column() == right.column()) {
        // As LedgerModel::SortRole gives them.
        switch (left.column()) {
        case LedgerModel::RowColumn:
            return left.row() < right.row();
        case LedgerModel::MarksColumn:
            return a->marks < b->marks;
        case LedgerModel::IterationColumn:
            return a->iteration.value_or(-1.0) < b->iteration.value_or(-1.0);
        default:
            break;
        }
    }
    return QSortFilterProxyModel::lessThan(left, right);
}

bool LedgerFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_scope == AllRows && m_text.isEmpty())
        return true; // every row, without asking the model for one
    const QAbstractItemModel *m = sourceModel();
    const int marks = m->index(sourceRow, 0, sourceParent).data(LedgerModel::MarksRole).toInt();
    switch (m_scope) {
    case AllRows:
        break;
    case NewRows:
        if (!(marks & LedgerModel::NewMark))
            return false;
        break;
    case CurrentRows:
        if (marks & (LedgerModel::SupersededMark | LedgerModel::UnknownKindMark))
            return false;
        break;
    case AttentionRows:
        if (!(marks & (LedgerModel::ConflictMark | LedgerModel::ContingentMark | LedgerModel::UnsettledMark |
                       LedgerModel::MalformedMark)))
            return false;
        break;
    }
    if (m_text.isEmpty())
        return true;
    for (int c = 0; c < m->columnCount(sourceParent); ++c)
        if (m->index(sourceRow, c, sourceParent).data(Qt::DisplayRole).toString().contains(m_text, Qt::CaseInsensitive))
            return true;
    return false;
}

} // namespace tf::ui
