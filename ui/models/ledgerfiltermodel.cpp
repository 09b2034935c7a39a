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

bool LedgerFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
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
