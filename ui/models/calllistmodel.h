#pragma once

#include "ui/services/loadedrun.h"

#include <QAbstractTableModel>

namespace tf::ui {

// One row per LLM call of the run, over the summaries the loader computed (immutable; reset on a new run).
class CallListModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        CallColumn,  // 1..N across the whole recording, every turn included
        TurnColumn,  // 1-based; its tooltip is the turn's user prompt
        EpochColumn, // the iteration within its run
        ResponseColumn,
        ModelColumn,
        MessagesColumn,
        CacheColumn,
        VerificationColumn,
        LedgerColumn,
        CollapsedColumn,
        PieceColumn,
        CacheReadColumn,
        CacheWriteColumn,
        ColumnCount
    };
    enum Role
    {
        OrdinalRole = Qt::UserRole + 1, // int, 0-based
        GlyphRole,                      // int (Glyph) for the column's glyph, or invalid
        CacheStatusRole,                // int (CacheStatus)
        BadgeRole,                      // int (recording::Badge), the call's overall badge
        LedgerChangedRole,              // bool: rows were filed at this call
        LedgerDeltaRole,                // int: rows filed since the previous call
        CollapsedCountRole,             // int
        CacheMissRole,                  // bool (callstatus.h isCacheMiss)
        DamagedRole,                    // bool: a part of this call is damaged
        SortRole,                       // a number or string to sort by
        TurnStartRole,                  // bool: the first call of its turn
        ToolErrorRole,                  // bool: a tool the response asked for threw
        NoResponseRole,                 // bool: no llm_end on record
    };
    Q_ENUM(Column)

    explicit CallListModel(QObject *parent = nullptr);

    void setRun(const RunHandle &run);
    const RunHandle &run() const { return m_run; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    RunHandle m_run;
};

} // namespace tf::ui
