#pragma once

#include <QSortFilterProxyModel>

namespace tf::ui {

// Sorting and filtering over LedgerModel: a text filter across every column (case-insensitive) and a scope.
class LedgerFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    enum Scope
    {
        AllRows,
        NewRows,       // filed at this call
        CurrentRows,   // the fold's current standings and every non-standing row
        AttentionRows, // conflicts, contingent, unsettled, malformed
    };
    Q_ENUM(Scope)

    explicit LedgerFilterModel(QObject *parent = nullptr);

    void setScope(Scope scope);
    Scope scope() const { return m_scope; }
    void setText(const QString &text);
    // Ascending by row is the ledger's own order: the proxy is then left unsorted (column -1), and a new call's rows
    // are mapped without being sorted again (2 % of the GUI thread's switch at 1.5 GB). The view's header still
    // shows the row column's indicator.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    // The numeric columns (row, marks, iteration) straight from the rows: the proxy sorts a 3,300-row ledger again
    // at every call switch, and the base class's comparison through QVariant data was most of a switch's model work.
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    Scope m_scope = AllRows;
    QString m_text;
};

} // namespace tf::ui
