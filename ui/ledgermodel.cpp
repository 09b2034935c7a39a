#include "ledgermodel.h"

#include "qtstrings.h"

#include <QSet>

namespace tf::ui {

using findings::RowKind;

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
    for (const Row &r : m_rows)
        n += (r.marks & NewMark) ? 1 : 0;
    return n;
}

void LedgerModel::setBundle(const BundleHandle &bundle)
{
    beginResetModel();
    m_bundle = bundle;
    m_rows.clear();
    if (bundle && bundle->view->ledgerOnRecord && bundle->view->ledger.isArray()) {
        const recording::CallView &v = *bundle->view;
        const findings::LedgerFold &fold = bundle->fold;
        QSet<int> current, conflictRows, unsettled;
        for (const auto &e : fold.standingOf.entries())
            current.insert(int(e.rowIndex));
        for (const findings::Conflict &c : fold.conflicts)
            for (const findings::AssertionRef &w : c.witnesses)
                conflictRows.insert(int(w.rowIndex));
        for (const findings::UnsettledEntry &u : fold.unsettled)
            unsettled.insert(int(u.rowIndex));
        QHash<int, QString> issues;
        for (const findings::RowIssue &i : v.ledgerIssues)
            if (i.index != findings::kLedgerIssue)
                issues[int(i.index)] +=
                    (issues.contains(int(i.index)) ? QStringLiteral("; ") : QString()) + toQString(i.reason);

        m_rows.reserve(qsizetype(v.ledger.size()));
        for (std::size_t i = 0; i < v.ledger.size(); ++i) {
            const json::Value &row = v.ledger.at(i);
            Row r;
            r.fields = ledgerRowFields(row);
            const RowKind kind = findings::rowKindOf(row);
            r.kind = int(kind);
            const int idx = int(i);
            // At the first call every row is new: ledgerRowsAtPrevious is 0.
            if (i >= v.ledgerRowsAtPrevious)
                r.marks |= NewMark;
            if (kind == RowKind::Standing && !current.contains(idx))
                r.marks |= SupersededMark;
            if (kind == RowKind::Conflict || conflictRows.contains(idx))
                r.marks |= ConflictMark;
            if (kind == RowKind::Contingent)
                r.marks |= ContingentMark;
            if (kind == RowKind::UnsettledByAbsence && unsettled.contains(idx))
                r.marks |= UnsettledMark;
            if (kind == RowKind::Unknown)
                r.marks |= UnknownKindMark;
            if (issues.contains(idx)) {
                r.marks |= MalformedMark;
                r.issue = issues.value(idx);
            }
            m_rows.append(std::move(r));
        }
    }
    endResetModel();
}

int LedgerModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int LedgerModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QStringList LedgerModel::markNames(int marks)
{
    QStringList out;
    if (marks & NewMark)
        out << tr("new");
    if (marks & ConflictMark)
        out << tr("conflict");
    if (marks & ContingentMark)
        out << tr("contingent");
    if (marks & UnsettledMark)
        out << tr("unsettled");
    if (marks & SupersededMark)
        out << tr("superseded");
    if (marks & MalformedMark)
        out << tr("malformed");
    if (marks & UnknownKindMark)
        out << tr("ignored");
    return out;
}

QVariant LedgerModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows[index.row()];
    const LedgerRowFields &f = r.fields;
    switch (role) {
    case RowIndexRole:
        return index.row();
    case RowKindRole:
        return r.kind;
    case MarksRole:
        return r.marks;
    case IsNewRole:
        return bool(r.marks & NewMark);
    case SortRole:
        switch (index.column()) {
        case RowColumn:
            return index.row();
        case IterationColumn:
            return f.iteration ? *f.iteration : -1.0;
        case MarksColumn:
            return r.marks;
        default:
            return data(index, Qt::DisplayRole);
        }
    case Qt::DisplayRole:
        switch (index.column()) {
        case RowColumn:
            return QString::number(index.row());
        case MarksColumn:
            return markNames(r.marks).join(QStringLiteral(" "));
        case ResultIdColumn:
            return f.resultId;
        case ToolColumn:
            return f.tool;
        case KindColumn:
            return f.kind;
        case StandingColumn:
            return f.standing;
        case DetailColumn:
            return f.detail;
        case DeclaredOnColumn:
            return f.declaredOn;
        case IterationColumn:
            return f.iteration ? compactJson(json::Value::number(*f.iteration)) : QString();
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
            tip = f.detail;
        if (index.column() == MarksColumn) {
            QStringList why;
            if (r.marks & NewMark)
                why << tr("Filed at this call (since the previous call).");
            if (r.marks & SupersededMark)
                why << tr("Superseded: a later standing on the same result replaced it.");
            if (r.marks & ConflictMark)
                why << tr("Conflict: its assertion disagrees with another current fact.");
            if (r.marks & ContingentMark)
                why << tr("Contingent: a value used that came only from results the model set aside.");
            if (r.marks & UnsettledMark)
                why << tr("Unsettled by absence: the ruled-out standing rests only on an absence.");
            if (r.marks & UnknownKindMark)
                why << tr("Unknown kind: every reader ignores this row.");
            if (r.marks & MalformedMark)
                why << tr("Malformed: %1").arg(r.issue);
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
