#include "ui/widgets/itemdelegate.h"

#include "ui/widgets/flatscrollbarstyle.h"
#include "ui/widgets/fonts.h"
#include "ui/widgets/textlayoutcache.h"

#include <QApplication>
#include <QPainter>
#include <QTextLayout>

namespace tf::ui {

namespace {

bool isOneLine(const QString &text)
{
    return !text.contains(QLatin1Char('\n')) && !text.contains(QChar::LineSeparator);
}

// The fast path draws text the way QCommonStyle's CE_ItemViewItem does; Fusion and Windows use that drawing as is.
// Other styles (Windows Vista and 11, macOS, a style sheet's) draw item text themselves, with their own colours and
// focus frames, so their items take QStyledItemDelegate's path.
bool drawsItemsLikeCommonStyle(const QStyle *style)
{
    const QString name = drawingStyleName(style);
    return name == QLatin1String("fusion") || name == QLatin1String("windows");
}

// The colour group QCommonStyle draws item text in.
QPalette::ColorGroup colorGroup(const QStyleOptionViewItem &opt)
{
    if (!(opt.state & QStyle::State_Enabled))
        return QPalette::Disabled;
    return (opt.state & QStyle::State_Active) ? QPalette::Normal : QPalette::Inactive;
}

} // namespace

void ItemDelegate::initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    option->font = fonts::withoutNeedlessShaping(option->font);
    option->fontMetrics = QFontMetrics(option->font);
    if (m_elideMiddle.contains(index.column()))
        option->textElideMode = Qt::ElideMiddle;
}

void ItemDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QWidget *widget = opt.widget;
    const QStyle *style = widget ? widget->style() : QApplication::style();
    if (!drawsItemsLikeCommonStyle(style) ||
        (opt.features & (QStyleOptionViewItem::HasCheckIndicator | QStyleOptionViewItem::WrapText)) ||
        (opt.state & QStyle::State_Editing) || !isOneLine(opt.text)) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    const QString text = opt.text;
    // The style lays out the rest with the display area still in place but empty, so nothing is shaped; the text
    // rectangle it reports is the one it would have drawn the text into.
    // The focus frame goes over the text, as the style draws it (Fusion's is a translucent fill).
    const QStyle::State state = opt.state;
    opt.text.clear();
    opt.state &= ~QStyle::State_HasFocus;
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
    const QRect displayRect = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget);
    const QRect focusRect = style->subElementRect(QStyle::SE_ItemViewItemFocusRect, &opt, widget);
    if (!text.isEmpty() && (opt.features & QStyleOptionViewItem::HasDisplay))
        drawText(painter, opt, text, displayRect, style);
    if (state & QStyle::State_HasFocus) {
        QStyleOptionFocusRect focus;
        focus.QStyleOption::operator=(opt);
        focus.state = state | QStyle::State_KeyboardFocusChange | QStyle::State_Item;
        focus.rect = focusRect;
        const QPalette::ColorGroup group = (state & QStyle::State_Enabled) ? QPalette::Normal : QPalette::Disabled;
        focus.backgroundColor =
            opt.palette.color(group, (state & QStyle::State_Selected) ? QPalette::Highlight : QPalette::Window);
        painter->save();
        painter->setClipRect(opt.rect, Qt::IntersectClip);
        style->drawPrimitive(QStyle::PE_FrameFocusRect, &focus, painter, widget);
        painter->restore();
    }
}

void ItemDelegate::drawText(QPainter *painter, const QStyleOptionViewItem &opt, const QString &text,
                            const QRect &displayRect, const QStyle *style)
{
    const int textMargin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, opt.widget) + 1;
    const QRect textRect = displayRect.adjusted(textMargin, 0, -textMargin, 0);
    if (textRect.width() <= 0)
        return;
    const Qt::Alignment align = QStyle::visualAlignment(opt.direction, opt.displayAlignment);
    const TextLayoutCache::Line &line = TextLayoutCache::instance().line(
        text, opt.font, textRect.width(), opt.textElideMode, align & Qt::AlignHorizontal_Mask, opt.direction);
    // Where QCommonStyle puts the layout: at the text rectangle's left, aligned vertically by the line's height.
    const QRect band = QStyle::alignedRect(Qt::LayoutDirectionAuto, opt.displayAlignment,
                                           QSizeF(textRect.width(), line.height).toSize(), textRect);
    painter->save();
    painter->setClipRect(opt.rect, Qt::IntersectClip); // as the style clips the whole item
    const QPalette::ColorRole role = (opt.state & QStyle::State_Selected) ? QPalette::HighlightedText : QPalette::Text;
    painter->setPen(opt.palette.color(colorGroup(opt), role));
    line.layout.draw(painter, QPointF(textRect.x(), band.top()));
    painter->restore();
}

} // namespace tf::ui
