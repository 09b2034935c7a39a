#pragma once

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace tf::ui {

class SidecarStore;

// Every call that carries a bookmark or a note, in call order, followed by what the sidecar names but the recording
// no longer holds (orphaned bookmarks and notes). Resets whenever the store changes.
class BookmarksModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        CallColumn,
        BookmarkColumn,
        NotesColumn,
        TextColumn,
        ColumnCount
    };
    enum Role
    {
        OrdinalRole = Qt::UserRole + 1, // int: the call's ordinal, -1 for an orphaned entry
        OrphanedRole,                   // bool
    };

    explicit BookmarksModel(SidecarStore *store, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The row of call `ordinal`, or -1.
    int rowOfCall(int ordinal) const;

private:
    void rebuild();

    struct Row
    {
        int ordinal = -1;
        bool bookmarked = false;
        std::vector<std::size_t> notes; // indices into the sidecar's notes
        std::optional<std::size_t> orphanBookmark;
        QString orphanReason;
    };
    SidecarStore *m_store;
    std::vector<Row> m_rows;
};

} // namespace tf::ui
