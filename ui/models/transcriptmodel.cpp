#include "ui/models/transcriptmodel.h"

#include "ui/services/qtstrings.h"

namespace tf::ui {

namespace {

TranscriptModel::Kind kindOf(const recording::MessageView &m)
{
    if (m.role == "system")
        return TranscriptModel::Kind::System;
    if (m.role == "user")
        return TranscriptModel::Kind::User;
    if (m.role == "assistant")
        return TranscriptModel::Kind::Assistant;
    if (m.role == "tool" || !m.toolCallId.empty())
        return TranscriptModel::Kind::ToolResult;
    return TranscriptModel::Kind::Other;
}

// Long enough that a user question or an answer reads whole when folded; tool results fold whatever their length.
constexpr qsizetype kFoldChars = 600;

} // namespace

TranscriptModel::TranscriptModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

void TranscriptModel::setBundle(const BundleHandle &bundle)
{
    beginResetModel();
    m_bundle = bundle;
    m_expanded.clear();
    endResetModel();
}

const recording::Transcript *TranscriptModel::transcript() const
{
    return m_bundle ? &m_bundle->transcript : nullptr;
}

int TranscriptModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_bundle ? 0 : int(m_bundle->transcript.messages.size());
}

Qt::ItemFlags TranscriptModel::flags(const QModelIndex &index) const
{
    return index.isValid() ? Qt::ItemIsEnabled | Qt::ItemIsSelectable : Qt::NoItemFlags;
}

QString TranscriptModel::body(const recording::MessageView &m, bool *truncated) const
{
    // Only the first kMaxBodyChars are converted: a result can be megabytes, and the Wire shows all of it.
    std::string scratch;
    std::string_view text;
    if (m.collapsed)
        text = m.ticket;
    else if (m.contentIsText)
        text = m.content.stringView(scratch);
    else
        text = m.contentJson;
    const std::size_t limit = std::size_t(kMaxBodyChars) * 3; // UTF-8 bytes enough for kMaxBodyChars
    QString out = toQString(text.substr(0, std::min(text.size(), limit)));
    *truncated = text.size() > limit || out.size() > kMaxBodyChars;
    if (out.size() > kMaxBodyChars)
        out.truncate(kMaxBodyChars);
    return out;
}

QVariant TranscriptModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || !m_bundle || index.row() >= rowCount())
        return {};
    const std::size_t row = std::size_t(index.row());
    const recording::MessageView &m = m_bundle->transcript.messages[row];
    const Kind kind = kindOf(m);
    switch (role) {
    case Qt::DisplayRole:
    case BodyRole: {
        bool truncated = false;
        return body(m, &truncated);
    }
    case BodyTruncatedRole: {
        bool truncated = false;
        body(m, &truncated);
        return truncated;
    }
    case KindRole:
        return QVariant::fromValue(kind);
    case HeaderRole:
        switch (kind) {
        case Kind::System:
            return tr("System");
        case Kind::User:
            return tr("User");
        case Kind::Assistant:
            return m.toolCalls.empty() ? tr("Assistant")
                                       : tr("Assistant · asks for %n tool(s)", nullptr, int(m.toolCalls.size()));
        case Kind::ToolResult:
            return tr("Tool result · %1 · %2")
                .arg(m.toolName.empty() ? tr("tool not named") : toQString(m.toolName), toQString(m.toolCallId));
        case Kind::Other:
            return m.role.empty() ? tr("(no role)") : toQString(m.role);
        }
        return {};
    case ToolCallsRole: {
        QStringList calls;
        for (const recording::MessageView::ToolCall &c : m.toolCalls)
            calls << tr("%1 (%2)").arg(toQString(c.name), toQString(c.id));
        return calls;
    }
    case ToolCallsJsonRole:
        return toQString(m.toolCallsJson);
    case NewRole:
        return row < m_bundle->transcript.isNew.size() && m_bundle->transcript.isNew[row];
    case CollapsedRole:
        return m.collapsed;
    case StandingRole:
        return toQString(m.standing);
    case ToolErrorRole:
        return m.toolError;
    case RedactedRole:
        return m.redacted;
    case StrippedRole:
        return m.stripped;
    case FoldableRole: {
        if ((kind == Kind::ToolResult && !m.collapsed) || !m.toolCalls.empty())
            return true;
        std::string scratch;
        const std::size_t size = m.collapsed       ? m.ticket.size()
                                 : m.contentIsText ? m.content.stringView(scratch).size()
                                                   : m.contentJson.size();
        return qsizetype(size) > kFoldChars;
    }
    case ExpandedRole:
        return m_expanded.contains(index.row());
    case MessageIndexRole:
        return int(m.index);
    case Qt::ToolTipRole:
        if (m.collapsed)
            return toolTipText(tr("Sent as a collapse ticket (standing: %1) instead of the result; the Wire shows the "
                                  "original one click away.")
                                   .arg(toQString(m.standing)));
        return {};
    default:
        return {};
    }
}

bool TranscriptModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != ExpandedRole || !index.isValid() || index.row() >= rowCount())
        return false;
    if (value.toBool())
        m_expanded.insert(index.row());
    else
        m_expanded.remove(index.row());
    emit dataChanged(index, index, {ExpandedRole});
    return true;
}

void TranscriptModel::setAllExpanded(bool expanded)
{
    if (!rowCount())
        return;
    m_expanded.clear();
    if (expanded)
        for (int r = 0; r < rowCount(); ++r)
            if (data(index(r), FoldableRole).toBool())
                m_expanded.insert(r);
    emit dataChanged(index(0), index(rowCount() - 1), {ExpandedRole});
}

} // namespace tf::ui
