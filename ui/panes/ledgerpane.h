#pragma once

#include "ui/widgets/immediateitemlayout.h"

#include <QTableView>

#include "ui/services/callbundle.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;

namespace tf::ui {

class ColumnFitter;
class LedgerFilterModel;
class LedgerModel;

// The findings ledger folded as of the selected call: every row, sortable and filterable, with the rows filed at
// this call highlighted and conflicts, contingent and unsettled rows marked.
class LedgerPane : public QWidget
{
    Q_OBJECT

public:
    explicit LedgerPane(QWidget *parent = nullptr);

    void setBundle(const BundleHandle &bundle);
    LedgerModel *model() const { return m_model; }
    LedgerFilterModel *proxy() const { return m_proxy; }
    QTableView *view() const { return m_view; }

public slots:
    void focusFilter();
    // Selects ledger rows (indices into the ledger) and scrolls to the first; rows hidden by the filter are shown by
    // clearing it.
    void selectRows(const QList<int> &rows);

private:
    void updateCounts();

    LedgerModel *m_model = nullptr;
    LedgerFilterModel *m_proxy = nullptr;
    QLineEdit *m_filter = nullptr;
    QComboBox *m_scope = nullptr;
    QLabel *m_counts = nullptr;
    QStackedWidget *m_stack = nullptr;
    ImmediateItemLayout<QTableView> *m_view = nullptr;
    ColumnFitter *m_fitter = nullptr;
    QLabel *m_empty = nullptr;
};

} // namespace tf::ui
