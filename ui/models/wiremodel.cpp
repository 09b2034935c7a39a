#include "ui/models/wiremodel.h"

#include "ui/models/callstatus.h"
#include "ui/models/toolcalllink.h"
#include "ui/services/qtstrings.h"

#include "core/json/stringbody.h"
#include "core/recording/messageview.h"
#include "core/text/utf.h"

#include <QHash>

#include <optional>
#include <type_traits>

namespace tf::ui {

namespace {

constexpr quintptr kGroupId = 0;

QList<QPoint> lonePoints(std::string_view wtf8)
{
    QList<QPoint> out;
    for (const LoneSurrogate &s : loneSurrogates(wtf8))
        out.append(QPoint(int(s.position), int(s.unit)));
    return out;
}

constexpr std::size_t kPreviewPrefixBytes = 2048;

// The preview when the text's first kPreviewPrefixBytes (or more) already fill the line; nullopt when the line needs
// more of it.
std::optional<QString> previewOfPrefix(std::string_view wtf8)
{
    if (wtf8.size() <= kPreviewPrefixBytes)
        return std::nullopt;
    std::size_t cut = kPreviewPrefixBytes;
    while (cut > 0 && (static_cast<unsigned char>(wtf8[cut]) & 0xC0) == 0x80)
        --cut; // never split a character
    QString line = previewLine(toQString(wtf8.substr(0, cut)));
    if (!line.endsWith(QChar(0x2026)))
        return std::nullopt;
    return line;
}

// The one-line preview of a long WTF-8 text, converting only a prefix when the prefix already fills the line.
QString previewOf(std::string_view wtf8)
{
    if (std::optional<QString> line = previewOfPrefix(wtf8))
        return *line;
    return previewLine(toQString(wtf8));
}

// What the Wire lists of a message's text: its length (UTF-16 units), its lone surrogates and its preview. A
// deferred string is read from its body, decoded whole only when the preview needs more than its start or it
// may hold a lone surrogate: a call lists dozens of tool results of tens of kilobytes each.
struct TextFacts
{
    int size = 0;
    QList<QPoint> lone;
    QString preview;
};
TextFacts textFactsOf(const json::Value &value)
{
    TextFacts facts;
    std::string scratch;
    std::string_view body;
    if (value.deferredBody(body)) {
        const json::DecodedTextFacts decoded = json::decodedTextFacts(body);
        facts.size = int(decoded.lengthU16);
        if (!decoded.mayHoldLoneSurrogate) {
            const bool whole = json::decodeStringBodyPrefix(body, scratch, kPreviewPrefixBytes + 1);
            if (std::optional<QString> line = previewOfPrefix(scratch)) {
                facts.preview = *line;
                return facts;
            }
            if (whole) {
                facts.preview = previewLine(toQString(scratch));
                return facts;
            }
        }
    }
    const std::string_view text = value.stringView(scratch);
    facts.size = int(text::lengthU16(text));
    facts.lone = lonePoints(text);
    facts.preview = previewOf(text);
    return facts;
}

// Receipt part ids (callview.h PartCheck::part): "messages[4]", "system.pieces[2]", "tools.schema[NAME]".
std::optional<std::pair<std::string, std::string>> splitPart(const std::string &part)
{
    const auto open = part.find('[');
    if (open == std::string::npos || part.empty() || part.back() != ']')
        return std::nullopt;
    return std::make_pair(part.substr(0, open), part.substr(open + 1, part.size() - open - 2));
}

} // namespace

static_assert(std::extent_v<decltype(WireItems::groups)> == WireModel::GroupCount);

const WireItems WireModel::kNoItems;

WireModel::WireModel(QObject *parent)
    : QAbstractItemModel(parent)
{
}

int WireModel::collapsedCount() const
{
    int n = 0;
    for (const Item &i : items(MessagesGroup))
        n += i.collapsed ? 1 : 0;
    return n;
}

void WireModel::setBundle(const BundleHandle &bundle)
{
    beginResetModel();
    m_bundle = bundle;
    m_rows = !bundle ? nullptr : bundle->wire ? bundle->wire : itemsFor(*bundle);
    endResetModel();
}

std::shared_ptr<const WireItems> WireModel::itemsFor(const CallBundle &bundle)
{
    auto rows = std::make_shared<WireItems>();
    QList<Item> *groups = rows->groups;
    const recording::CallView &v = *bundle.view;
    QHash<QString, const recording::PartCheck *> checks;
    for (const recording::PartCheck &c : v.checks)
        if (auto split = splitPart(c.part))
            checks.insert(toQString(split->first) + QLatin1Char('/') + toQString(split->second), &c);
    const auto applyCheck = [&checks](Item &item, const QString &key) {
        if (const recording::PartCheck *c = checks.value(key)) {
            item.badge = int(c->badge);
            item.reason = toQString(c->reason);
            item.damaged = c->badge == recording::Badge::Damaged;
        }
    };

    for (std::size_t i = 0; i < v.systemPieces.size(); ++i) {
        const recording::SystemPieceView &p = v.systemPieces[i];
        Item item;
        item.item = QString::number(i);
        item.role = toQString(p.slot);
        item.id = toQString(p.source);
        item.content = toQString(p.text);
        item.size = int(text::lengthU16(p.text));
        item.lone = lonePoints(p.text);
        item.preview = previewLine(item.content);
        applyCheck(item, QStringLiteral("system.pieces/") + QString::number(i));
        groups[SystemGroup].append(item);
    }

    // The transcript's messages are the call's messages as sent (recording::messageViews), made once per bundle.
    for (const recording::MessageView &mv : bundle.transcript.messages) {
        const std::size_t i = mv.index;
        QStringList calls, ids;
        for (const recording::MessageView::ToolCall &c : mv.toolCalls) {
            calls << toQString(c.name) + QLatin1Char('(') + toQString(c.id) + QLatin1Char(')');
            ids << toQString(c.id);
        }
        Item item;
        item.toolIds = !mv.toolCallId.empty() ? QStringList{toQString(mv.toolCallId)} : ids;
        item.item = QString::number(i);
        item.role = toQString(mv.role);
        item.id = !mv.toolCallId.empty() ? toQString(mv.toolCallId) : calls.join(QStringLiteral(", "));
        item.extra = toQString(mv.toolCallsJson);
        if (mv.contentIsText) {
            TextFacts text = textFactsOf(mv.content);
            item.contentSource = mv.content;
            item.size = text.size;
            item.lone = std::move(text.lone);
            item.preview = text.size > 0 ? std::move(text.preview) : previewLine(calls.join(QStringLiteral(", ")));
        } else {
            item.content = toQString(mv.contentJson);
            item.size = int(item.content.size());
            item.preview = previewLine(!item.content.isEmpty() ? item.content : calls.join(QStringLiteral(", ")));
        }
        if (mv.collapsed) {
            item.collapsed = true;
            item.ticket = toQString(mv.ticket);
            item.standing = toQString(mv.standing);
            if (mv.original.isString()) {
                TextFacts text = textFactsOf(mv.original);
                item.originalSource = mv.original;
                item.originalSize = text.size;
                item.originalLone = std::move(text.lone);
            } else {
                item.original = toQString(mv.originalJson);
                item.originalSize = int(item.original.size());
            }
            item.lone.clear(); // the ticket is pure UTF-8
            item.size = item.originalSize;
        }
        item.undeclared = mv.undeclared;
        item.toolError = mv.toolError;
        item.stripped = mv.stripped;
        if (mv.rawResult)
            item.rawResult = toQString(*mv.rawResult);
        item.redacted = mv.redacted;
        applyCheck(item, QStringLiteral("messages/") + QString::number(i));
        QStringList status;
        if (item.toolError)
            status << tr("tool error");
        if (item.stripped)
            status << tr("stripped");
        if (item.redacted)
            status << tr("redacted");
        if (item.collapsed)
            status << tr("collapsed (%1)").arg(item.standing);
        if (item.undeclared)
            status << tr("undeclared");
        if (item.damaged)
            status << tr("damaged");
        item.status = status.join(QStringLiteral(" · "));
        groups[MessagesGroup].append(item);
    }

    for (const recording::ToolView &t : v.tools) {
        Item item;
        // The name goes where pieces and messages show their source and ids: the # column is sized for numbers.
        item.item = QString::number(groups[ToolsGroup].size());
        item.role = tr("tool");
        item.id = toQString(t.name);
        item.content = t.description ? toQString(*t.description) : QString();
        item.extra = t.schema ? toQString(t.schemaText()) : QString();
        item.size = t.description ? int(text::lengthU16(*t.description)) : 0;
        item.preview = t.description ? previewLine(item.content) : StatusText::notOnRecord();
        if (!t.schema)
            item.status = tr("schema not on record");
        applyCheck(item, QStringLiteral("tools.schema/") + toQString(t.name));
        if (item.damaged)
            item.status = tr("damaged");
        groups[ToolsGroup].append(item);
    }
    return rows;
}

QModelIndex WireModel::messageIndex(int message, int column) const
{
    return index(message, column, index(MessagesGroup, 0));
}

QModelIndex WireModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, kGroupId);
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex WireModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == kGroupId)
        return {};
    return createIndex(int(child.internalId() - 1), 0, kGroupId);
}

int WireModel::rowCount(const QModelIndex &parent) const
{
    if (!m_bundle)
        return 0;
    if (!parent.isValid())
        return GroupCount;
    if (parent.internalId() != kGroupId || parent.column() != 0)
        return 0;
    return int(items(parent.row()).size());
}

int WireModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant WireModel::data(const QModelIndex &index, int role) const
{
    if (!m_bundle || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const recording::CallView &v = *m_bundle->view;
    if (index.internalId() == kGroupId) {
        const int group = index.row();
        if (role == GroupRole)
            return group;
        if (role == Qt::ToolTipRole && group == MessagesGroup && !v.conversationOnRecord)
            return toolTipText(tr("The conversation at this call is not on record."));
        if (role != Qt::DisplayRole)
            return {};
        const auto &rows = items(group);
        if (index.column() != ItemColumn)
            return {};
        // One line per group (the view spans it over every column): the name, then what it holds.
        switch (group) {
        case SystemGroup: {
            QString s = tr("System prompt");
            if (!v.systemOnRecord && rows.isEmpty())
                return QString(s + QStringLiteral(" · ") + StatusText::notOnRecord());
            s += QStringLiteral(" · ") + tr("%n piece(s)", nullptr, int(rows.size()));
            s += v.systemOnRecord ? tr(" · %1 UTF-16 units").arg(formatCount(text::lengthU16(v.systemText)))
                                  : tr(" · the whole text is not on record");
            return s;
        }
        case MessagesGroup: {
            QString s = tr("Messages as sent");
            if (!v.conversationOnRecord)
                return QString(s + QStringLiteral(" · ") + StatusText::notOnRecord());
            int undeclared = 0;
            for (const Item &i : rows)
                undeclared += i.undeclared ? 1 : 0;
            s += QStringLiteral(" · ") + tr("%n message(s)", nullptr, int(rows.size()));
            if (const int c = collapsedCount())
                s += tr(" · %n collapsed", nullptr, c);
            if (undeclared)
                s += tr(" · %n undeclared", nullptr, undeclared);
            return s;
        }
        case ToolsGroup: {
            QString s = tr("Tools") + QStringLiteral(" · ") + tr("%n tool(s)", nullptr, int(rows.size()));
            if (v.forcedTool)
                s += tr(" · forced: %1").arg(toQString(*v.forcedTool));
            if (v.withheld)
                s += tr(" · withheld: %1").arg(toQString(*v.withheld));
            return s;
        }
        }
        return {};
    }

    const int group = int(index.internalId() - 1);
    const Item &item = items(group)[index.row()];
    switch (role) {
    case GroupRole:
        return group;
    case ItemIndexRole:
        return index.row();
    case CollapsedRole:
        return item.collapsed;
    case UndeclaredRole:
        return item.undeclared;
    case ToolErrorRole:
        return item.toolError;
    case StrippedRole:
        return item.stripped;
    case RawResultRole:
        return item.rawResult;
    case RedactedRole:
        return item.redacted;
    case DamagedRole:
        return item.damaged;
    case BadgeRole:
        return item.badge >= 0 ? QVariant(item.badge) : QVariant();
    case CheckReasonRole:
        return item.reason;
    case TicketRole:
        return item.ticket;
    case StandingRole:
        return item.standing;
    case ContentRole:
        return text(item.content, item.contentSource);
    case OriginalContentRole:
        return text(item.original, item.originalSource);
    case ExtraRole:
        return item.extra;
    case LoneSurrogatesRole:
        return QVariant::fromValue(item.lone);
    case ToolCallIdsRole:
        return index.column() == IdColumn ? QVariant(item.toolIds) : QVariant();
    case Qt::ForegroundRole:
    case Qt::FontRole:
        return index.column() == IdColumn && !item.toolIds.isEmpty() ? toolCallLinkData(role) : QVariant();
    case OriginalLoneSurrogatesRole:
        return QVariant::fromValue(item.originalLone);
    case Qt::DisplayRole:
        switch (index.column()) {
        case ItemColumn:
            return item.item;
        case RoleColumn:
            return item.role;
        case IdColumn:
            return item.id;
        case StatusColumn:
            return item.status;
        case SizeColumn:
            return formatCount(std::size_t(item.size));
        case PreviewColumn:
            return item.preview;
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        return index.column() == SizeColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                            : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ToolTipRole: {
        QStringList tip;
        if (index.column() == IdColumn && !item.toolIds.isEmpty())
            return toolTipText(tr("Click to go to the result of %1 and the call where it entered the messages")
                                   .arg(item.toolIds.join(QStringLiteral(", "))));
        if (item.collapsed)
            tip << tr("Sent as a collapse ticket (standing %1) instead of its %2 UTF-16 units:")
                       .arg(item.standing, formatCount(std::size_t(item.originalSize)))
                << item.ticket;
        if (item.toolError)
            tip << tr("The tool threw: this message is its error text, and the model read it as the result.");
        if (item.stripped)
            tip << tr("Stripped: the model was served the library's modelResult; the tool's own result is one click "
                      "away in the detail.");
        if (item.redacted)
            tip << tr("Redacted: the run's redaction policy kept this value out; its receipt hash is of the original.");
        if (item.undeclared)
            tip << tr("Undeclared: no standing names this result, so it was served in full.");
        if (item.badge >= 0)
            tip << tr("Receipt: %1 — %2").arg(StatusText::badge(recording::Badge(item.badge)), item.reason);
        if (const int lone = int(item.lone.size() + item.originalLone.size()))
            tip << tr("%n lone surrogate(s) in the content are shown as U+FFFD.", nullptr, lone);
        return tip.isEmpty() ? QVariant() : QVariant(toolTipText(tip.join(QLatin1Char('\n'))));
    }
    default:
        return {};
    }
}

const QString &WireModel::text(QString &cache, const json::Value &source)
{
    if (cache.isNull() && source.isString()) {
        std::string scratch;
        cache = toQString(source.stringView(scratch));
    }
    return cache;
}

QVariant WireModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ItemColumn:
        return tr("#");
    case RoleColumn:
        return tr("Role");
    case IdColumn:
        return tr("Id / source");
    case StatusColumn:
        return tr("Status");
    case SizeColumn:
        return tr("Size");
    case PreviewColumn:
        return tr("Content");
    default:
        return {};
    }
}

} // namespace tf::ui
