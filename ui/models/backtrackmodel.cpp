#include "ui/models/backtrackmodel.h"

#include "ui/services/qtstrings.h"

namespace tf::ui {

namespace {

using Target = BacktrackModel::Target;

QList<QStandardItem *> entry(const QString &what, const QString &where, Target target, int ordinal = -1, int row = -1,
                             const QString &toolCallId = {})
{
    auto *w = new QStandardItem(what);
    auto *p = new QStandardItem(where);
    for (QStandardItem *item : {w, p}) {
        item->setEditable(false);
        item->setData(int(target), BacktrackModel::TargetRole);
        item->setData(ordinal, BacktrackModel::OrdinalRole);
        item->setData(row, BacktrackModel::RowRole);
        item->setData(toolCallId, BacktrackModel::ToolCallIdRole);
        item->setToolTip(toolTipText(what + (where.isEmpty() ? QString() : QStringLiteral("\n") + where)));
    }
    return {w, p};
}

QString quoted(const QString &s)
{
    return QStringLiteral("\u201C%1\u201D").arg(s);
}

// "entered at call 4 as messages[5]" and the entry that goes there, or one that follows the id when no call was
// served the result.
QList<QStandardItem *> resultEntry(const QString &what, const std::string &toolCallId,
                                   std::optional<std::size_t> ordinal, std::optional<std::size_t> message,
                                   bool asTicket)
{
    if (!ordinal)
        return entry(what, BacktrackModel::tr("no call was served it"), Target::ToolResult, -1, -1,
                     toQString(toolCallId));
    QString where = message ? BacktrackModel::tr("entered at call %1 as messages[%2]").arg(*ordinal + 1).arg(*message)
                            : BacktrackModel::tr("entered at call %1").arg(*ordinal + 1);
    if (asTicket)
        where += BacktrackModel::tr(" (as a collapse ticket)");
    return entry(what, where, message ? Target::Message : Target::Call, int(*ordinal), message ? int(*message) : -1,
                 toQString(toolCallId));
}

} // namespace

BacktrackModel::BacktrackModel(QObject *parent)
    : QStandardItemModel(0, ColumnCount, parent)
{
    setHorizontalHeaderLabels({tr("What the answer rests on"), tr("Where")});
}

void BacktrackModel::clearBacktrack()
{
    // Rows only: the columns stay, and with them the view's sizing of each.
    removeRows(0, rowCount());
}

void BacktrackModel::setBacktrack(const report::Backtrack &b, const recording::Run &run)
{
    clearBacktrack();
    QStandardItem *root = invisibleRootItem();
    const int final = b.finalOrdinal ? int(*b.finalOrdinal) : -1;
    if (b.finalOrdinal) {
        const recording::CallRecord &call = run.calls[*b.finalOrdinal];
        root->appendRow(entry(b.answer ? tr("The answer") : tr("The last call (no final answer on record)"),
                              tr("call %1 \u00B7 turn %2 \u00B7 %3")
                                  .arg(final + 1)
                                  .arg(call.turn + 1)
                                  .arg(toQString(call.callRuntimeStageId)),
                              Target::Call, final));
    }
    for (const report::BacktrackValue &v : b.values) {
        const QString value = toQString(v.value);
        QList<QStandardItem *> valueRow =
            entry(tr("Fact value %1").arg(quoted(value)), tr("%n fact assertion(s)", nullptr, int(v.sources.size())),
                  Target::None);
        for (QStandardItem *item : valueRow)
            item->setData(value, ValueRole);
        for (const report::ValueSource &s : v.sources) {
            QString line = toQString(s.factLine.text);
            if (!s.factLineInPiece)
                line += tr("  (past the piece's line cap)");
            QList<QStandardItem *> fact = entry(tr("fact line: %1").arg(line),
                                                tr("ledger row %1 at call %2").arg(s.standingRowIndex).arg(final + 1),
                                                Target::LedgerRow, final, int(s.standingRowIndex));
            QString result = tr("result tool:%1").arg(toQString(s.toolCallId));
            if (s.toolName)
                result += QStringLiteral(" (") + toQString(*s.toolName) + QLatin1Char(')');
            if (s.conflicted)
                result += tr(" \u00B7 in conflict");
            if (s.resultContent && !s.valueInResult)
                result += tr(" \u00B7 its content does not hold the value");
            if (!s.resultMessage)
                result += tr(" \u00B7 not in the final call's history");
            fact.front()->appendRow(
                resultEntry(result, s.toolCallId, s.enteredOrdinal, s.enteredMessage, s.enteredAsTicket));
            for (QStandardItem *item : fact)
                item->setData(value, ValueRole);
            valueRow.front()->appendRow(fact);
        }
        root->appendRow(valueRow);
    }
    for (const report::ContingentUse &use : b.contingent) {
        QList<QStandardItem *> row = entry(
            tr("Contingent value %1%2")
                .arg(quoted(toQString(use.value)), use.inAnswer ? QString() : tr(" (not in the answer as written)")),
            tr("ledger row %1 at call %2").arg(use.rowIndex).arg(final + 1), Target::LedgerRow, final,
            int(use.rowIndex));
        for (const report::ContingentUse::Carrier &c : use.carriers)
            row.front()->appendRow(
                resultEntry(tr("carrier tool:%1 (%2)").arg(toQString(c.toolCallId), toQString(c.standing)),
                            c.toolCallId, c.enteredOrdinal, c.enteredMessage, false));
        root->appendRow(row);
    }
    if (!b.undeclaredAtFinal.empty()) {
        QList<QStandardItem *> group =
            entry(tr("Served in full, never declared"),
                  tr("%n result(s) at call %1", nullptr, int(b.undeclaredAtFinal.size())).arg(final + 1), Target::None);
        for (const std::string &id : b.undeclaredAtFinal)
            group.front()->appendRow(entry(tr("result tool:%1").arg(toQString(id)), tr("follow to where it entered"),
                                           Target::ToolResult, -1, -1, toQString(id)));
        root->appendRow(group);
    }
    if (!b.details.empty()) {
        QList<QStandardItem *> group =
            entry(tr("Caveats"), tr("%n on single sources", nullptr, int(b.details.size())), Target::None);
        for (const std::string &d : b.details)
            group.front()->appendRow(entry(toQString(d), QString(), Target::None));
        root->appendRow(group);
    }
    if (!b.conflictsAtFinal.empty()) {
        QList<QStandardItem *> group =
            entry(tr("Conflicts left at the end"), tr("%n conflict(s)", nullptr, int(b.conflictsAtFinal.size())),
                  Target::None);
        for (const std::string &c : b.conflictsAtFinal)
            group.front()->appendRow(entry(toQString(c), tr("ledger at call %1").arg(final + 1), Target::Call, final));
        root->appendRow(group);
    }
}

} // namespace tf::ui
