#pragma once

#include "core/recording/run.h"
#include "core/report/backtrack.h"

#include <QStandardItemModel>

namespace tf::ui {

// The answer's backtrack (core report::backtrackAnswer, the same the HTML report's "backtrack" section shows) as a
// tree of places to go: the answering call; each fact value of the answer with the fact lines, ledger rows and tool
// results behind it and the call each result entered at; the contingent rows filed on the answer and their carriers;
// the results served to the final call that no standing names; the conflicts left at the end. Text from the
// recording is display text only (never markup).
class BacktrackModel : public QStandardItemModel
{
    Q_OBJECT

public:
    enum Column
    {
        WhatColumn,
        WhereColumn,
        ColumnCount
    };
    // Where an entry goes.
    enum class Target
    {
        None,
        Call,       // OrdinalRole: a call (the answering call: its response)
        LedgerRow,  // OrdinalRole, RowRole: a ledger row at a call
        Message,    // OrdinalRole, RowRole: a message as sent at a call (a tool result where it entered)
        ToolResult, // ToolCallIdRole: a result to follow to where it entered (not yet placed)
    };
    enum Role
    {
        TargetRole = Qt::UserRole + 1, // int (Target)
        OrdinalRole,
        RowRole,
        ToolCallIdRole,
        ValueRole, // QString: the fact value an entry traces (on the value row and its sources)
    };

    explicit BacktrackModel(QObject *parent = nullptr);
    void setBacktrack(const report::Backtrack &backtrack, const recording::Run &run);
    void clearBacktrack();
};

} // namespace tf::ui
