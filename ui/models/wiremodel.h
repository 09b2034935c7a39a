#pragma once

#include "ui/services/callbundle.h"

#include <QAbstractItemModel>
#include <QPoint>

namespace tf::ui {

// The Wire's rows of one call, per group (WireModel::Group), made from its bundle by WireModel::itemsFor: on the
// worker that builds the bundle (CallBundle::wire), so a switch's GUI thread does not decode and measure the call's
// tool results (2 ms of a switch at 60 KB results). Immutable once built but for the texts converted on demand, which
// only the GUI thread fills in.
struct WireItems
{
    struct Item
    {
        QString item, role, id, status, preview, ticket, standing, extra, reason;
        // A message's text is converted only when a view asks for it: a call serves dozens of tool results of
        // tens of kilobytes each, and converting them all on every switch would be most of the switch.
        mutable QString content, original;
        json::Value contentSource, originalSource; // string values, converted into content/original on demand
        int size = 0;
        int originalSize = 0;
        int badge = -1;
        QList<QPoint> lone, originalLone; // lone surrogates (position, code unit), shown as U+FFFD
        bool collapsed = false, undeclared = false, damaged = false, toolError = false, stripped = false,
             redacted = false;
        QString rawResult;
        QStringList toolIds; // the result's id, or the ids an assistant turn called
    };
    QList<Item> groups[3]; // WireModel::GroupCount
};

// What went over the wire at the selected call, as three groups: the system prompt pieces, the messages as sent
// (after the collapse), and the tools offered. A collapsed tool result keeps its ticket as content here and its
// original result one role away (OriginalContentRole).
class WireModel : public QAbstractItemModel
{
    Q_OBJECT

public:
    enum Group
    {
        SystemGroup,
        MessagesGroup,
        ToolsGroup,
        GroupCount
    };
    enum Column
    {
        ItemColumn,
        RoleColumn,
        IdColumn,
        StatusColumn,
        SizeColumn,
        PreviewColumn,
        ColumnCount
    };
    enum Role
    {
        GroupRole = Qt::UserRole + 1, // int (Group), on groups and items
        ItemIndexRole,                // int: position in its group (message index for messages)
        CollapsedRole,                // bool
        UndeclaredRole,               // bool: a result no standing names
        ToolErrorRole,                // bool: a tool result whose tool threw (its content is the error text)
        StrippedRole,                 // bool: the model was served modelResult, not the tool's own result
        RawResultRole,                // QString: the tool's own result, when stripped
        RedactedRole,                 // bool: the content is a placeholder the run's redaction policy put there
        DamagedRole,                  // bool: its receipt check is damaged
        BadgeRole,                    // int (recording::Badge) of its receipt check, or invalid
        CheckReasonRole,              // QString: why the badge
        TicketRole,                   // QString: the ticket sent instead of the result
        StandingRole,                 // QString: the standing that collapsed it
        ContentRole,                  // QString: the full content as sent
        OriginalContentRole,          // QString: a collapsed result's original content
        ExtraRole,                    // QString: tool calls / schema, pretty JSON
        LoneSurrogatesRole,           // QList<QPoint>: (position, code unit) of each lone surrogate in ContentRole
        OriginalLoneSurrogatesRole,   // the same for OriginalContentRole
    };
    Q_ENUM(Column)

    explicit WireModel(QObject *parent = nullptr);

    // Shows the bundle's rows (CallBundle::wire), or makes them here when the bundle came without.
    void setBundle(const BundleHandle &bundle);
    static std::shared_ptr<const WireItems> itemsFor(const CallBundle &bundle);
    const BundleHandle &bundle() const { return m_bundle; }
    QModelIndex messageIndex(int message, int column = 0) const;
    int collapsedCount() const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    using Item = WireItems::Item;
    static const QString &text(QString &cache, const json::Value &source);
    BundleHandle m_bundle;
    std::shared_ptr<const WireItems> m_rows;
    static const WireItems kNoItems;
    const QList<Item> &items(int group) const { return (m_rows ? *m_rows : kNoItems).groups[group]; }
};

} // namespace tf::ui
