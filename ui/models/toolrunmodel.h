#pragma once

#include "ui/services/callbundle.h"

#include <QAbstractTableModel>

namespace tf::ui {

// The tools the selected call's response asked for, as they ran (core ToolRun): status, tool, call id, duration,
// parallel group. Tool text is untrusted and only ever shown as plain text.
class ToolRunModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        StatusColumn,
        ToolColumn,
        IdColumn,
        DurationColumn,
        ParallelColumn,
        ColumnCount
    };
    enum Role
    {
        ErrorRole = Qt::UserRole + 1, // bool: the tool threw
        ReturnedRole,                 // bool: a tool_end is on record
    };

    explicit ToolRunModel(QObject *parent = nullptr);
    void setBundle(const BundleHandle &bundle);
    const recording::ToolRun *toolRun(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // "error", "returned", "never returned", "not run": one word for a run's state, shared with the Wire pane.
    static QString statusText(const recording::ToolRun &run);

private:
    BundleHandle m_bundle;
};

} // namespace tf::ui
