#pragma once

#include "callbundle.h"
#include "recordfields.h"

#include <QAbstractTableModel>

namespace tf::ui {

// The findings ledger as of the selected call: every row at the call, in ledger order, with what the fold says
// about it (current or superseded standing, conflict witness, unsettled) and whether it was filed at this call.
class LedgerModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        RowColumn,
        MarksColumn,
        ResultIdColumn,
        ToolColumn,
        KindColumn,
        StandingColumn,
        DetailColumn,
        DeclaredOnColumn,
        IterationColumn,
        ColumnCount
    };
    enum Role
    {
        RowIndexRole = Qt::UserRole + 1, // int: position in the ledger array
        RowKindRole,                     // int (findings::RowKind)
        MarksRole,                       // int: Mark flags
        IsNewRole,                       // bool: filed at this call
        SortRole,
    };
    enum Mark
    {
        NewMark = 1 << 0,        // filed since the previous call
        SupersededMark = 1 << 1, // a later standing on the same result replaced it
        ConflictMark = 1 << 2,   // a conflict row, or a current fact row whose assertion conflicts
        ContingentMark = 1 << 3, // a contingent row
        UnsettledMark = 1 << 4,  // an unsettled-by-absence row the fold keeps
        MalformedMark = 1 << 5,  // breaks the types upstream relies on
        UnknownKindMark = 1 << 6,
    };
    Q_ENUM(Column)

    explicit LedgerModel(QObject *parent = nullptr);

    void setBundle(const BundleHandle &bundle);
    bool ledgerOnRecord() const;
    int newRowCount() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QStringList markNames(int marks);

private:
    struct Row
    {
        LedgerRowFields fields;
        int kind = 0;
        int marks = 0;
        QString issue;
    };
    BundleHandle m_bundle;
    QList<Row> m_rows;
};

} // namespace tf::ui
