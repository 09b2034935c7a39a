#include "ui/models/bookmarksmodel.h"

#include "ui/services/sidecarstore.h"

#include <QFont>

#include <map>

namespace tf::ui {

BookmarksModel::BookmarksModel(SidecarStore *store, QObject *parent)
    : QAbstractTableModel(parent)
    , m_store(store)
{
    connect(m_store, &SidecarStore::changed, this, &BookmarksModel::rebuild);
    rebuild();
}

void BookmarksModel::rebuild()
{
    beginResetModel();
    m_rows.clear();
    const notes::Resolution &resolution = m_store->resolution();
    std::map<int, Row> byCall;
    std::vector<Row> orphans;
    for (const notes::Resolved &r : resolution.bookmarks) {
        if (r.ordinal) {
            Row &row = byCall[int(*r.ordinal)];
            row.ordinal = int(*r.ordinal);
            row.bookmarked = true;
        } else {
            Row row;
            row.orphanBookmark = r.index;
            row.orphanReason = QString::fromStdString(r.reason);
            orphans.push_back(std::move(row));
        }
    }
    for (const notes::Resolved &r : resolution.notes) {
        if (r.ordinal) {
            Row &row = byCall[int(*r.ordinal)];
            row.ordinal = int(*r.ordinal);
            row.notes.push_back(r.index);
        } else {
            Row row;
            row.notes.push_back(r.index);
            row.orphanReason = QString::fromStdString(r.reason);
            orphans.push_back(std::move(row));
        }
    }
    for (auto &[ordinal, row] : byCall)
        m_rows.push_back(std::move(row));
    for (Row &row : orphans)
        m_rows.push_back(std::move(row));
    endResetModel();
}

int BookmarksModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int BookmarksModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

int BookmarksModel::rowOfCall(int ordinal) const
{
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].ordinal == ordinal)
            return int(i);
    return -1;
}

QVariant BookmarksModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Row &row = m_rows[std::size_t(index.row())];
    const notes::Sidecar &sidecar = m_store->sidecar();
    const bool orphaned = row.ordinal < 0;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case CallColumn: {
            int epoch = 0;
            if (!orphaned && m_store->run())
                epoch = m_store->run()->calls[std::size_t(row.ordinal)].epoch;
            else if (row.orphanBookmark)
                epoch = sidecar.bookmarks[*row.orphanBookmark].call.epoch;
            else if (!row.notes.empty())
                epoch = sidecar.notes[row.notes.front()].target.call.epoch;
            return orphaned ? tr("Call %1 (orphaned)").arg(epoch) : tr("Call %1").arg(epoch);
        }
        case BookmarkColumn:
            return row.bookmarked || row.orphanBookmark ? QStringLiteral("\u2605") : QString();
        case NotesColumn:
            return row.notes.empty() ? QVariant() : QVariant(qulonglong(row.notes.size()));
        case TextColumn:
            if (!row.notes.empty()) {
                const notes::Note &n = sidecar.notes[row.notes.front()];
                QString text = QString::fromStdString(n.text).simplified();
                if (n.target.kind == notes::TargetKind::LedgerRow)
                    text = tr("Row #%1: %2").arg(n.target.rowIndex.value_or(0)).arg(text);
                return text;
            }
            return orphaned ? row.orphanReason : QString();
        }
        break;
    case Qt::ToolTipRole:
        if (orphaned)
            return row.orphanReason;
        if (!row.notes.empty()) {
            QStringList all;
            for (std::size_t n : row.notes)
                all << QString::fromStdString(sidecar.notes[n].text);
            return all.join(QStringLiteral("\n\u2014\n"));
        }
        break;
    case Qt::FontRole:
        if (orphaned) {
            QFont f;
            f.setItalic(true);
            return f;
        }
        break;
    case OrdinalRole:
        return row.ordinal;
    case OrphanedRole:
        return orphaned;
    }
    return {};
}

QVariant BookmarksModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case CallColumn:
        return tr("Call");
    case BookmarkColumn:
        return tr("\u2605");
    case NotesColumn:
        return tr("Notes");
    case TextColumn:
        return tr("Note");
    }
    return {};
}

} // namespace tf::ui
