#pragma once

#include "ui/services/callbundle.h"

#include <QAbstractTableModel>

namespace tf::ui {

// The findings ledger as of the selected call: every row at the call, in ledger order, with what the fold says
// about it (current or superseded standing, conflict witness, unsettled) and whether it was filed at this call.
// The rows and their marks are the core's (findings::LedgerRowView, built with the bundle off the GUI thread); this
// model only formats them.
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
    // The core's marks (findings::LedgerMark), under the names the delegates and filters use.
    enum Mark
    {
        NewMark = findings::MarkNew,
        SupersededMark = findings::MarkSuperseded,
        ConflictMark = findings::MarkConflict,
        ContingentMark = findings::MarkContingent,
        UnsettledMark = findings::MarkUnsettled,
        MalformedMark = findings::MarkMalformed,
        UnknownKindMark = findings::MarkUnknownKind,
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
    // Row r of the ledger (in ledger order); nullptr when out of range.
    const findings::LedgerRowView *rowView(int r) const;

private:
    BundleHandle m_bundle;
};

} // namespace tf::ui
