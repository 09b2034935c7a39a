#include "ui/models/calllistmodel.h"

#include "ui/models/callstatus.h"
#include "ui/models/problemsmodel.h"
#include "ui/services/qtstrings.h"

namespace tf::ui {

namespace {

QString dash()
{
    return QStringLiteral("—");
}

QString optionalCount(const std::optional<double> &v)
{
    return v ? formatCount(*v) : dash();
}

// The response in a word: where the run failed or paused, none on record, a tool error, or the stop reason.
QString responseWord(const recording::Run &run, const recording::CallSummary &c)
{
    if (run.outcome.call == c.ordinal && run.outcome.status == recording::OutcomeStatus::Failed)
        return CallListModel::tr("failed");
    if (run.outcome.call == c.ordinal && run.outcome.status == recording::OutcomeStatus::Paused)
        return CallListModel::tr("paused");
    if (!c.response)
        return CallListModel::tr("none");
    if (c.anyToolError())
        return CallListModel::tr("tool error");
    return c.response->stopReason ? toQString(*c.response->stopReason) : dash();
}

QString responseTip(const recording::Run &run, const recording::CallSummary &c)
{
    QString tip;
    if (!c.response) {
        tip = CallListModel::tr("No response on record: the call has no llm_end.");
    } else {
        tip = c.response->text.empty() ? CallListModel::tr("The model wrote no text.")
                                       : CallListModel::tr("Model: %1").arg(previewLine(toQString(c.response->text)));
        for (const auto &t : c.toolResults)
            tip += QLatin1Char('\n') + CallListModel::tr("%1 %2: %3")
                                           .arg(toQString(t.name), toQString(t.id),
                                                t.error      ? CallListModel::tr("threw")
                                                : t.returned ? CallListModel::tr("returned")
                                                             : CallListModel::tr("never returned"));
    }
    if (run.outcome.call == c.ordinal && run.outcome.message)
        tip += QLatin1Char('\n') + CallListModel::tr("The run %1 here: %2")
                                       .arg(QString::fromLatin1(recording::outcomeStatusId(run.outcome.status)),
                                            previewLine(toQString(*run.outcome.message)));
    for (const recording::RunLimit &l : run.limits)
        if (l.call == c.ordinal)
            tip += QLatin1Char('\n') + CallListModel::tr("Limit: %1 (%2)").arg(toQString(l.kind), toQString(l.message));
    return tip;
}

} // namespace

CallListModel::CallListModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void CallListModel::setRun(const RunHandle &run)
{
    // More of the same run indexed: the summaries already listed are final, so the rows are appended and the view keeps
    // its selection and scroll; the marks (the audit's, once it has run) may change on every row.
    if (run && m_run && run->run == m_run->run && run->calls.size() >= m_run->calls.size()) {
        const int before = rowCount();
        const int after = int(run->calls.size());
        if (after > before)
            beginInsertRows({}, before, after - 1);
        m_run = run;
        if (after > before)
            endInsertRows();
        if (before > 0)
            emit dataChanged(index(0, 0), index(before - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_run = run;
    m_marks = {};
    endResetModel();
}

void CallListModel::setReviewMarks(const ReviewMarks &marks)
{
    if (marks == m_marks)
        return;
    m_marks = marks;
    if (rowCount() > 0)
        emit dataChanged(index(0, CallColumn), index(rowCount() - 1, CallColumn),
                         {GlyphRole, BookmarkedRole, NotesRole, Qt::ToolTipRole});
}

int CallListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_run ? 0 : int(m_run->calls.size());
}

int CallListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CallListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_run)
        return {};
    const std::size_t row = std::size_t(index.row());
    const recording::CallSummary &c = m_run->calls[row];
    const recording::CallRecord &record = m_run->run->calls[row];
    const CacheStatus cache = cacheStatusOf(c.prefixReusable, c.verdict);
    const recording::Badge badge = callBadge(c);
    const int ledgerDelta = int(c.ledgerRows) - (row > 0 ? int(m_run->calls[row - 1].ledgerRows) : 0);

    switch (role) {
    case OrdinalRole:
        return int(row);
    case CacheStatusRole:
        return int(cache);
    case BadgeRole:
        return int(badge);
    case LedgerChangedRole:
        return c.ledgerChanged;
    case LedgerDeltaRole:
        return c.ledgerChanged ? ledgerDelta : 0;
    case CollapsedCountRole:
        return int(c.collapsedIds.size());
    case CacheMissRole:
        return isCacheMiss(c);
    case DamagedRole:
        return c.damaged || c.damagedParts > 0;
    case TurnStartRole:
        return row == 0 || m_run->calls[row - 1].turn != c.turn;
    case ToolErrorRole:
        return c.anyToolError();
    case NoResponseRole:
        return !c.response;
    case BookmarkedRole:
        return m_marks.bookmarked.contains(int(row));
    case NotesRole:
        return m_marks.notes.value(int(row));
    case ProblemRole:
        return m_run->problemAt(row) ? QVariant(int(*m_run->problemAt(row))) : QVariant();
    case GlyphRole:
        switch (index.column()) {
        case CallColumn:
            // What went wrong outranks what the reviewer marked; both are in the tooltip.
            if (m_run->problemAt(row))
                return int(severityGlyph(*m_run->problemAt(row)));
            if (m_marks.bookmarked.contains(int(row)))
                return int(Glyph::Bookmark);
            return m_marks.notes.contains(int(row)) ? QVariant(int(Glyph::Note)) : QVariant();
        case CacheColumn:
            return int(glyphFor(cache));
        case VerificationColumn:
            return int(glyphFor(badge));
        case LedgerColumn:
            return c.ledgerChanged ? QVariant(int(Glyph::LedgerChanged)) : QVariant();
        case CollapsedColumn:
            return c.collapsedIds.empty() ? QVariant() : QVariant(int(Glyph::Collapsed));
        case ResponseColumn:
            if (!c.response || c.anyToolError())
                return int(!c.response ? Glyph::NeverReturned : Glyph::ToolError);
            for (const auto &t : c.toolResults)
                if (!t.returned)
                    return int(Glyph::NeverReturned);
            return {};
        default:
            return {};
        }
    case SortRole:
        switch (index.column()) {
        case CallColumn:
        case EpochColumn:
            return int(row);
        case TurnColumn:
            return qlonglong(c.turn);
        case ResponseColumn:
            return responseWord(*m_run->run, c);
        case ModelColumn:
            return toQString(c.model);
        case MessagesColumn:
            return c.messageCount ? qlonglong(*c.messageCount) : -1LL;
        case CacheColumn:
            return int(cache);
        case VerificationColumn:
            return int(badge);
        case LedgerColumn:
            return qlonglong(c.ledgerRows);
        case CollapsedColumn:
            return qlonglong(c.collapsedIds.size());
        case PieceColumn:
            return c.pieceSizeUtf8 ? qlonglong(*c.pieceSizeUtf8) : -1LL;
        case CacheReadColumn:
            return c.cacheRead.value_or(-1);
        case CacheWriteColumn:
            return c.cacheWrite.value_or(-1);
        default:
            return {};
        }
    case Qt::DisplayRole:
        switch (index.column()) {
        case CallColumn:
            return QString::number(row + 1);
        case TurnColumn:
            return QString::number(c.turn + 1);
        case EpochColumn:
            return QString::number(c.epoch);
        case ResponseColumn:
            return responseWord(*m_run->run, c);
        case ModelColumn:
            return c.model.empty() ? dash() : toQString(c.model);
        case MessagesColumn:
            return c.messageCount ? formatCount(*c.messageCount) : dash();
        case CacheColumn:
            return StatusText::cacheStatus(cache);
        case VerificationColumn:
            return StatusText::badge(badge);
        case LedgerColumn:
            // The mark: rows filed at this call. The total is in the tooltip and the Ledger pane.
            if (!c.ledgerChanged)
                return QString();
            return ledgerDelta > 0 ? QStringLiteral("+%1").arg(ledgerDelta) : QString::number(ledgerDelta);
        case CollapsedColumn:
            return c.messageCount ? QString::number(c.collapsedIds.size()) : dash();
        case PieceColumn:
            return c.pieceSizeUtf8 ? tr("%1 B").arg(formatCount(*c.pieceSizeUtf8)) : dash();
        case CacheReadColumn:
            return optionalCount(c.cacheRead);
        case CacheWriteColumn:
            return optionalCount(c.cacheWrite);
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        switch (index.column()) {
        case ModelColumn:
        case ResponseColumn:
            return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
        case CacheColumn:
        case VerificationColumn:
            return QVariant(Qt::AlignCenter);
        default:
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        }
    case Qt::ToolTipRole: {
        QString tip;
        switch (index.column()) {
        case TurnColumn: {
            const recording::Turn &turn = m_run->run->turns.at(c.turn);
            tip = tr("Turn %1 of %2").arg(c.turn + 1).arg(m_run->run->turns.size());
            tip += QLatin1Char('\n') + (turn.userPrompt ? tr("User: %1").arg(previewLine(toQString(*turn.userPrompt)))
                                                        : tr("The user's prompt is not on record."));
            break;
        }
        case ResponseColumn:
            tip = responseTip(*m_run->run, c);
            break;
        case CallColumn:
        case EpochColumn:
            tip = tr("Call %1 of %2 · turn %3 · iteration %4 · %5")
                      .arg(row + 1)
                      .arg(m_run->calls.size())
                      .arg(c.turn + 1)
                      .arg(c.epoch)
                      .arg(toQString(c.callRuntimeStageId));
            if (record.duplicateEpoch)
                tip += QLatin1Char('\n') + tr("Another call of this run has the same epoch.");
            if (record.epochByPosition)
                tip += QLatin1Char('\n') + tr("The epoch is not on record; it is the call's position.");
            for (const audit::Problem &p : m_run->problems)
                if (p.call == row)
                    tip += QLatin1Char('\n') + problemLine(p);
            if (m_marks.bookmarked.contains(int(row)))
                tip += QLatin1Char('\n') + tr("Bookmarked");
            if (const int n = m_marks.notes.value(int(row)))
                tip += QLatin1Char('\n') + tr("%n note(s)", nullptr, n);
            break;
        case MessagesColumn:
            tip = c.messageCount ? tr("%n message(s) sent", nullptr, int(*c.messageCount))
                                 : tr("The conversation at this call is not on record.");
            break;
        case CacheColumn:
            tip = StatusText::cacheStatusExplained(cache) + QLatin1Char('\n') +
                  tr("Provider cache verdict: %1").arg(StatusText::verdict(c.verdict));
            if (isCacheMiss(c))
                tip += QLatin1Char('\n') + tr("Counted as a cache miss (M jumps to the next one).");
            break;
        case VerificationColumn:
            tip = tr("Receipt: %1\n%2").arg(StatusText::badge(badge), StatusText::verificationCounts(c));
            break;
        case LedgerColumn:
            tip = c.ledgerChanged ? tr("%n ledger row(s) at this call; rows were filed since the previous call",
                                       nullptr, int(c.ledgerRows))
                                  : tr("%n ledger row(s) at this call; unchanged", nullptr, int(c.ledgerRows));
            break;
        case CollapsedColumn: {
            QStringList ids;
            for (const std::string &id : c.collapsedIds)
                ids << toQString(id);
            tip = ids.isEmpty() ? tr("No tool result was sent as a collapse ticket.")
                                : tr("Sent as collapse tickets: %1").arg(ids.join(QStringLiteral(", ")));
            break;
        }
        case PieceColumn:
            tip = c.pieceSizeUtf8
                      ? tr("Findings piece: %1 UTF-8 bytes, %2 UTF-16 units%3")
                            .arg(formatCount(*c.pieceSizeUtf8), formatCount(c.pieceLengthU16.value_or(0)),
                                 c.pieceChangedSincePrevious ? tr(", changed since the previous call") : QString())
                      : tr("No findings piece at this call.");
            break;
        case CacheReadColumn:
        case CacheWriteColumn:
            tip = c.cacheRead || c.cacheWrite ? tr("Cache tokens reported by the provider")
                                              : tr("The provider reported no cache usage for this call.");
            break;
        default:
            break;
        }
        return toolTipText(tip);
    }
    default:
        return {};
    }
}

QVariant CallListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::TextAlignmentRole)
        return QVariant(section == ModelColumn || section == ResponseColumn       ? Qt::AlignLeft | Qt::AlignVCenter
                        : section == CacheColumn || section == VerificationColumn ? Qt::AlignCenter
                                                                                  : Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case CacheColumn:
            return tr("Could the cached prefix (tools and system block) be reused at this call?");
        case VerificationColumn:
            return tr("How the parts of this call check against the recording's receipt");
        case LedgerColumn:
            return tr("Findings ledger rows at this call; the mark shows rows filed since the previous call");
        case CollapsedColumn:
            return tr("Tool results sent as collapse tickets instead of their content");
        case CallColumn:
            return tr("Calls are numbered 1..N across the whole recording, every turn included");
        case TurnColumn:
            return tr("The turn of the conversation (run, then each followUp)");
        case EpochColumn:
            return tr("The iteration within its run");
        case ResponseColumn:
            return tr("What the model answered: its stop reason, a tool that threw, or none on record");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case CallColumn:
        return tr("#");
    case TurnColumn:
        return tr("Turn");
    case EpochColumn:
        return tr("Iter");
    case ResponseColumn:
        return tr("Response");
    case ModelColumn:
        return tr("Model");
    case MessagesColumn:
        return tr("Msgs");
    case CacheColumn:
        return tr("Cache");
    case VerificationColumn:
        return tr("Rcpt");
    case LedgerColumn:
        return tr("Ledger");
    case CollapsedColumn:
        return tr("Coll.");
    case PieceColumn:
        return tr("Piece");
    case CacheReadColumn:
        return tr("Read");
    case CacheWriteColumn:
        return tr("Write");
    default:
        return {};
    }
}

} // namespace tf::ui
