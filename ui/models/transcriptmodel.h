#pragma once

#include "ui/services/callbundle.h"

#include <QAbstractListModel>
#include <QSet>

namespace tf::ui {

// The conversation at the selected call, one row per message as sent (recording::Transcript): who spoke, what was
// said, the tools an assistant asked for, tool results (folded until unfolded), collapse tickets as sent, and the
// messages the previous call did not send. Model and tool text is untrusted: every role gives plain text.
class TranscriptModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum class Kind
    {
        System,
        User,
        Assistant,
        ToolResult,
        Other,
    };
    Q_ENUM(Kind)
    enum Role
    {
        KindRole = Qt::UserRole + 1, // Kind
        HeaderRole,                  // QString: "User", "Assistant", "Tool result · lookup_order · ci-1"
        BodyRole,                    // QString: the text (a ticket as sent when collapsed), at most kMaxBodyChars
        BodyTruncatedRole,           // bool: the text was longer than kMaxBodyChars
        ToolCallsRole,               // QStringList: "lookup_order (ci-1)" for each tool an assistant asked for
        ToolCallsJsonRole,           // QString: those calls with their arguments, pretty JSON (shown unfolded)
        NewRole,                     // bool: the previous call did not send it
        CollapsedRole,               // bool: sent as a collapse ticket
        StandingRole,                // QString: the standing that collapsed it
        ToolErrorRole,               // bool: the tool threw
        RedactedRole,                // bool: a redaction placeholder
        StrippedRole,                // bool: the model was served modelResult
        FoldableRole,                // bool: shown folded until unfolded (tool results, tool calls, long messages)
        ExpandedRole,                // bool, settable: unfolded
        MessageIndexRole,            // int: messages[i] as sent
    };
    static constexpr qsizetype kMaxBodyChars = 20000;

    explicit TranscriptModel(QObject *parent = nullptr);
    void setBundle(const BundleHandle &bundle);
    const BundleHandle &bundle() const { return m_bundle; }
    const recording::Transcript *transcript() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

    // Unfolds (or folds) every foldable message.
    void setAllExpanded(bool expanded);

private:
    QString body(const recording::MessageView &m, bool *truncated) const;

    BundleHandle m_bundle;
    QSet<int> m_expanded;
};

} // namespace tf::ui
