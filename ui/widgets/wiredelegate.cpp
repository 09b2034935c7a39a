#include "ui/widgets/wiredelegate.h"

#include "ui/models/wiremodel.h"
#include "ui/widgets/chippainter.h"
#include "ui/widgets/glyphs.h"
#include "ui/widgets/theme.h"

#include <QPainter>

namespace tf::ui {

using theme::Tone;

namespace {

struct Badge
{
    Chip chip;
    Glyph glyph;
};

QList<Badge> badgesFor(const QModelIndex &index)
{
    QList<Badge> out;
    if (index.data(WireModel::ToolErrorRole).toBool())
        out.append({{WireModel::tr("tool error"), Tone::Bad, false}, Glyph::ToolError});
    if (index.data(WireModel::StrippedRole).toBool())
        out.append({{WireModel::tr("stripped"), Tone::Info, true}, Glyph::Reconstructed});
    if (index.data(WireModel::RedactedRole).toBool())
        out.append({{WireModel::tr("redacted"), Tone::Neutral, false}, Glyph::NotOnRecord});
    if (index.data(WireModel::CollapsedRole).toBool())
        out.append(
            {{WireModel::tr("collapsed · %1").arg(index.data(WireModel::StandingRole).toString()), Tone::Warn, false},
             Glyph::Collapsed});
    if (index.data(WireModel::UndeclaredRole).toBool())
        out.append({{WireModel::tr("undeclared"), Tone::Accent, true}, Glyph::Undeclared});
    if (index.data(WireModel::DamagedRole).toBool())
        out.append({{WireModel::tr("damaged"), Tone::Bad, false}, Glyph::Damaged});
    return out;
}

} // namespace

QBrush WireDelegate::rowBackground(const QModelIndex &index, const QPalette &palette)
{
    if (index.data(WireModel::ToolErrorRole).toBool())
        return theme::tint(Tone::Bad, palette, 0.14);
    if (index.data(WireModel::CollapsedRole).toBool())
        return theme::tint(Tone::Warn, palette, 0.14);
    if (index.data(WireModel::DamagedRole).toBool())
        return theme::tint(Tone::Bad, palette, 0.10);
    return {};
}

void WireDelegate::initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const
{
    ItemDelegate::initStyleOption(option, index);
    const QBrush bg = rowBackground(index, option->palette);
    if (bg.style() != Qt::NoBrush)
        option->backgroundBrush = bg;
    if (!index.parent().isValid()) {
        option->font.setBold(index.column() == WireModel::ItemColumn);
        if (index.column() != WireModel::ItemColumn)
            option->palette.setColor(QPalette::Text, theme::mutedText(option->palette));
    }
    if (index.column() == WireModel::StatusColumn && index.parent().isValid())
        option->text.clear();
    if (index.column() == WireModel::RoleColumn && index.parent().isValid()) {
        const QString role = index.data().toString();
        if (role == QLatin1String("assistant"))
            option->palette.setColor(QPalette::Text, theme::modelText(option->palette));
    }
}

void WireDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    ItemDelegate::paint(painter, option, index);
    if (index.column() == WireModel::ItemColumn && index.data(WireModel::CollapsedRole).toBool())
        painter->fillRect(QRect(option.rect.left(), option.rect.top(), 3, option.rect.height()),
                          theme::strong(Tone::Warn, option.palette));
    if (index.column() != WireModel::StatusColumn || !index.parent().isValid())
        return;
    const QList<Badge> badges = badgesFor(index);
    if (badges.isEmpty())
        return;
    painter->save();
    painter->setClipRect(option.rect);
    qreal x = option.rect.left() + 4;
    const qreal side = qMin<qreal>(option.rect.height() - 4, 14);
    for (const Badge &b : badges) {
        paintGlyph(painter, QRectF(x, option.rect.center().y() - side / 2 + 0.5, side, side), b.glyph, option.palette);
        x += side + 3;
        x += paintChip(painter, x, option.rect, b.chip, option.palette, option.font) + 6;
    }
    painter->restore();
}

QSize WireDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    if (index.column() == WireModel::StatusColumn && index.parent().isValid()) {
        qreal w = 8;
        for (const Badge &b : badgesFor(index))
            w += 17 + chipWidth(b.chip, option.font) + 6;
        s.setWidth(int(w));
    }
    return s;
}

} // namespace tf::ui
