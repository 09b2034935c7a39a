#include "ui/models/alignedcallsmodel.h"

#include "ui/services/qtstrings.h"

#include <QBrush>
#include <QPalette>

namespace tf::ui {

namespace {

QString didText(const compare::CallSignature &s)
{
    if (!s.responseOnRecord)
        return AlignedCallsModel::tr("no response on record");
    if (s.toolCallsMade.empty())
        return AlignedCallsModel::tr("answered");
    QStringList names;
    for (const std::string &n : s.toolCallsMade)
        names << toQString(n);
    return QStringLiteral("\u2192 ") + names.join(QStringLiteral(", "));
}

} // namespace

QString AlignedCallsModel::gapText()
{
    return tr("no call");
}

int AlignedCallsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AlignedCallsModel::data(const QModelIndex &index, int role) const
{
    if (!comparison() || !index.isValid() || index.row() >= rowCount())
        return {};
    const compare::RunDiff &diff = comparison()->diff;
    const compare::AlignedCall &c = diff.aligned[std::size_t(index.row())];
    const bool thisSide = index.column() <= ThisDidColumn;
    const std::optional<std::size_t> call = thisSide ? c.a : c.b;
    const RowState rowState = state(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case ThisCallColumn:
        case BaselineCallColumn:
            return call ? QString::number(*call + 1) : QString();
        case ThisDidColumn:
        case BaselineDidColumn: {
            const auto &signatures = thisSide ? diff.signaturesA : diff.signaturesB;
            if (!call)
                return gapText();
            return *call < signatures.size() ? didText(signatures[*call]) : QString();
        }
        case MarkColumn:
            switch (rowState) {
            case RowState::Same:
                return QStringLiteral("=");
            case RowState::Differs:
                return QStringLiteral("\u2260");
            case RowState::OnlyThisRun:
            case RowState::OnlyBaseline:
                return QStringLiteral("+");
            case RowState::NotComparable:
                return QStringLiteral("?");
            }
            return {};
        default:
            return {};
        }
    case Qt::ForegroundRole:
        if (index.column() != MarkColumn && !call)
            return QPalette().brush(QPalette::PlaceholderText);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == ThisCallColumn || index.column() == BaselineCallColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        if (index.column() == MarkColumn)
            return QVariant(Qt::AlignCenter);
        return {};
    case Qt::ToolTipRole: {
        // The Comparison dock's words for the row: served the same or not, and what differs.
        const QString served =
            AlignmentModel::data(AlignmentModel::index(index.row(), ServedColumn), Qt::DisplayRole).toString();
        const QString parts =
            AlignmentModel::data(AlignmentModel::index(index.row(), DiffersColumn), Qt::DisplayRole).toString();
        return parts.isEmpty() ? served : served + QStringLiteral(": ") + parts;
    }
    default:
        // The roles that say which calls and what state (ThisCallRole, DivergentRole, ...) are the row's.
        return AlignmentModel::data(AlignmentModel::index(index.row(), 0), role);
    }
}

QVariant AlignedCallsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole && section == MarkColumn)
        return tr("= served the same, \u2260 served differently, + a call one run made and the other did not, "
                  "? a part on record in one run only");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ThisCallColumn:
        return tr("A #");
    case ThisDidColumn:
        return tr("This run");
    case MarkColumn:
        return QString();
    case BaselineCallColumn:
        return tr("B #");
    case BaselineDidColumn:
        return tr("Baseline");
    default:
        return {};
    }
}

} // namespace tf::ui
