#include "ui/models/ledgermodel.h"

#include "ui/services/qtstrings.h"

namespace tf::ui {

LedgerModel::LedgerModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

bool LedgerModel::ledgerOnRecord() const
{
    return m_bundle && m_bundle->view->ledgerOnRecord;
}

int LedgerModel::newRowCount() const
{
    int n = 0;
    if (m_bundle)
        for (const findings::LedgerRowView &r : m_bundle->ledgerRows)
            n += (r.marks & NewMark) ? 1 : 0;
    return n;
}

void LedgerModel::setBundle(const BundleHandle &bundle)
{
    beginResetModel();
    m_bundle = bundle;
    endResetModel();
}

const findings::LedgerRowView *LedgerModel::rowView(int r) const
{
    return m_bundle && r >= 0 && std::size_t(r) < m_bundle->ledgerRows.size() ? &m_bundle->ledgerRows[std::size_t(r)]
                                                                              : nullptr;
}

int LedgerModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_bundle ? 0 : int(m_bundle->ledgerRows.size());
}

int LedgerModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QStringList LedgerModel::markNames(int marks)
{
    QStringList out;
    for (const std::string &name : findings::ledgerMarkNames(unsigned(marks)))
        out << toQString(name);
    return out;
}

QVariant LedgerModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const findings::LedgerRowView *r = rowView(index.row());
    if (!r)
        return {};
    const findings::LedgerRowView &f = *r;
    const int marks = int(f.marks);
    switch (role) {
    case RowIndexRole:
        return index.row();
    case RowKindRole:
        return int(f.kind);
    case MarksRole:
        return marks;
    case IsNewRole:
        return bool(marks & NewMark);
    case SortRole:
        switch (index.column()) {
        case RowColumn:
            return index.row();
        case IterationColumn:
            return f.iteration ? *f.iteration : -1.0;
        case MarksColumn:
            return marks;
        default:
            return data(index, Qt::DisplayRole);
        }
    case Qt::DisplayRole:
        switch (index.column()) {
        case RowColumn:
            return QString::number(index.row());
        case MarksColumn:
            return markNames(marks).join(QStringLiteral(" "));
        case ResultIdColumn:
            return toQString(f.resultId);
        case ToolColumn:
            return toQString(f.tool);
        case KindColumn:
            return toQString(f.kindName);
        case StandingColumn:
            return toQString(f.standing);
        case DetailColumn:
            return toQString(f.detailText());
        case DeclaredOnColumn:
            return toQString(f.declaredOn);
        case IterationColumn:
            return toQString(f.iterationText());
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        return index.column() == RowColumn || index.column() == IterationColumn
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ToolTipRole: {
        QString tip;
        if (index.column() == DetailColumn || index.column() == ResultIdColumn)
            tip = toQString(f.detailText());
        if (index.column() == MarksColumn) {
            QStringList why;
            for (const std::string &w : findings::ledgerMarkExplanations(f.marks, f.issue))
                why << toQString(w);
            tip = why.join(QLatin1Char('\n'));
        }
        if (f.unknownId && index.column() == ResultIdColumn)
            tip += QLatin1Char('\n') + tr("The id resolved to no known result.");
        return tip.isEmpty() ? QVariant() : QVariant(toolTipText(tip));
    }
    default:
        return {};
    }
}

QVariant LedgerModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RowColumn:
        return tr("#");
    case MarksColumn:
        return tr("Marks");
    case ResultIdColumn:
        return tr("Result");
    case ToolColumn:
        return tr("Tool");
    case KindColumn:
        return tr("Kind");
    case StandingColumn:
        return tr("Standing");
    case DetailColumn:
        return tr("Line and assertions");
    case DeclaredOnColumn:
        return tr("Declared on");
    case IterationColumn:
        return tr("Iter.");
    default:
        return {};
    }
}

} // namespace tf::ui
