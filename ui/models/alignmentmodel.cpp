#include "ui/models/alignmentmodel.h"

#include "ui/services/qtstrings.h"

namespace tf::ui {

namespace {

QString joined(const std::vector<std::string> &names)
{
    QStringList out;
    for (const std::string &n : names)
        out << toQString(n);
    return out.join(QStringLiteral(", "));
}

QString callNumber(const std::optional<std::size_t> &ordinal)
{
    return ordinal ? QString::number(*ordinal + 1) : QStringLiteral("\u2013");
}

} // namespace

AlignmentModel::AlignmentModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void AlignmentModel::setComparison(const ComparisonHandle &comparison)
{
    beginResetModel();
    m_comparison = comparison;
    endResetModel();
}

int AlignmentModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_comparison ? 0 : int(m_comparison->diff.aligned.size());
}

int AlignmentModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

AlignmentModel::RowState AlignmentModel::state(int row) const
{
    const compare::AlignedCall &c = m_comparison->diff.aligned[std::size_t(row)];
    if (!c.a)
        return RowState::OnlyBaseline;
    if (!c.b)
        return RowState::OnlyThisRun;
    if (c.servedParts > 0)
        return RowState::Differs;
    return c.notCompared.empty() ? RowState::Same : RowState::NotComparable;
}

bool AlignmentModel::isDivergent(int row) const
{
    if (!m_comparison || row < 0 || row >= rowCount())
        return false;
    const RowState s = state(row);
    return s == RowState::Differs || s == RowState::OnlyThisRun || s == RowState::OnlyBaseline;
}

QVariant AlignmentModel::data(const QModelIndex &index, int role) const
{
    if (!m_comparison || !index.isValid() || index.row() >= rowCount())
        return {};
    const compare::AlignedCall &c = m_comparison->diff.aligned[std::size_t(index.row())];
    switch (role) {
    case ThisCallRole:
        return c.a ? int(*c.a) : -1;
    case BaselineCallRole:
        return c.b ? int(*c.b) : -1;
    case DivergentRole:
        return isDivergent(index.row());
    case Qt::TextAlignmentRole:
        return index.column() <= BaselineColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case StateRole:
        return int(state(index.row()));
    case Qt::DisplayRole:
        switch (index.column()) {
        case ThisRunColumn:
            return callNumber(c.a);
        case BaselineColumn:
            return callNumber(c.b);
        case ServedColumn:
            switch (state(index.row())) {
            case RowState::Same:
                return tr("same");
            case RowState::Differs:
                return tr("differs");
            case RowState::OnlyThisRun:
                return tr("only in this run");
            case RowState::OnlyBaseline:
                return tr("only in the baseline");
            case RowState::NotComparable:
                return tr("not comparable");
            }
            return {};
        case DiffersColumn: {
            QString text = joined(c.parts);
            if (!c.notCompared.empty())
                text += (text.isEmpty() ? QString() : QStringLiteral("; ")) +
                        tr("on record in one run only: %1").arg(joined(c.notCompared));
            return text;
        }
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant AlignmentModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case ThisRunColumn:
        return tr("This run");
    case BaselineColumn:
        return tr("Baseline");
    case ServedColumn:
        return tr("Served");
    case DiffersColumn:
        return tr("What differs");
    default:
        return {};
    }
}

int AlignmentModel::rowOfThisCall(int ordinal) const
{
    if (!m_comparison || ordinal < 0)
        return -1;
    const auto &rows = m_comparison->diff.aligned;
    for (std::size_t r = 0; r < rows.size(); ++r)
        if (rows[r].a && int(*rows[r].a) == ordinal)
            return int(r);
    return -1;
}

int AlignmentModel::divergentRow(int fromRow, int step) const
{
    for (int r = fromRow + step; r >= 0 && r < rowCount(); r += step)
        if (isDivergent(r))
            return r;
    return -1;
}

} // namespace tf::ui
