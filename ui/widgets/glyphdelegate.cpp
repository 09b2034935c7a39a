#include "ui/widgets/glyphdelegate.h"

#include "ui/widgets/glyphs.h"

namespace tf::ui {

GlyphDelegate::GlyphDelegate(int glyphRole, QObject *parent)
    : ItemDelegate(parent)
    , m_role(glyphRole)
{
}

void GlyphDelegate::initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const
{
    ItemDelegate::initStyleOption(option, index);
    const QVariant glyph = index.data(m_role);
    if (!glyph.isValid())
        return;
    option->icon = glyphIcon(Glyph(glyph.toInt()));
    option->features |= QStyleOptionViewItem::HasDecoration;
    const int side = qMax(12, option->fontMetrics.height() - 2);
    option->decorationSize = QSize(side, side);
    if (m_glyphOnly.contains(index.column())) {
        option->text.clear();
        option->features &= ~QStyleOptionViewItem::HasDisplay;
        option->decorationAlignment = Qt::AlignCenter;
        option->displayAlignment = Qt::AlignCenter;
    }
}

} // namespace tf::ui
