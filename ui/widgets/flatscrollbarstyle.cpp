#include "ui/widgets/flatscrollbarstyle.h"

#include "ui/widgets/theme.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>
#include <QStyleFactory>
#include <QStyleOptionSlider>

namespace tf::ui {

namespace {

// A small chevron pointing along `direction` in the middle of `r`.
void drawChevron(QPainter *p, const QRect &r, Qt::ArrowType direction, const QColor &color)
{
    const qreal s = qMin(r.width(), r.height()) / 5.0;
    if (s < 1)
        return;
    const QPointF c = QRectF(r).center();
    QPointF a, tip, b;
    switch (direction) {
    case Qt::UpArrow:
        a = c + QPointF(-s, s / 2), tip = c + QPointF(0, -s / 2), b = c + QPointF(s, s / 2);
        break;
    case Qt::DownArrow:
        a = c + QPointF(-s, -s / 2), tip = c + QPointF(0, s / 2), b = c + QPointF(s, -s / 2);
        break;
    case Qt::LeftArrow:
        a = c + QPointF(s / 2, -s), tip = c + QPointF(-s / 2, 0), b = c + QPointF(s / 2, s);
        break;
    default:
        a = c + QPointF(-s / 2, -s), tip = c + QPointF(s / 2, 0), b = c + QPointF(-s / 2, s);
        break;
    }
    p->setPen(QPen(color, 1.2, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    const QPointF points[] = {a, tip, b};
    p->drawPolyline(points, 3);
}

} // namespace

FlatScrollBarStyle::FlatScrollBarStyle(QStyle *base)
    : QProxyStyle(base)
{
}

QString drawingStyleName(const QStyle *style)
{
    while (const auto *proxy = qobject_cast<const QProxyStyle *>(style))
        style = proxy->baseStyle();
    return style ? style->name().toLower() : QString();
}

void FlatScrollBarStyle::drawComplexControl(ComplexControl control, const QStyleOptionComplex *option,
                                            QPainter *painter, const QWidget *widget) const
{
    const auto *bar = qstyleoption_cast<const QStyleOptionSlider *>(option);
    if (control != CC_ScrollBar || !bar) {
        QProxyStyle::drawComplexControl(control, option, painter, widget);
        return;
    }
    const QPalette &pal = bar->palette;
    const bool horizontal = bar->orientation == Qt::Horizontal;
    const bool enabled = bar->state & State_Enabled;
    painter->save();
    painter->fillRect(bar->rect, theme::mix(pal.color(QPalette::Base), pal.color(QPalette::Window), 0.7));
    // A hairline towards the content, as Fusion's groove has.
    painter->setPen(theme::gridLine(pal));
    if (horizontal)
        painter->drawLine(bar->rect.topLeft(), bar->rect.topRight());
    else
        painter->drawLine(bar->rect.topLeft(), bar->rect.bottomLeft());

    const auto hot = [&](SubControl sc) { return (bar->activeSubControls & sc) && (bar->state & State_MouseOver); };
    const auto pressed = [&](SubControl sc) { return (bar->activeSubControls & sc) && (bar->state & State_Sunken); };
    const QColor text = pal.color(QPalette::WindowText);
    const QColor handleBase = theme::mix(pal.color(QPalette::Window), text, 0.28);

    const QRect slider = subControlRect(CC_ScrollBar, bar, SC_ScrollBarSlider, widget);
    if (enabled && slider.isValid() && bar->maximum > bar->minimum) {
        const QColor handle = pressed(SC_ScrollBarSlider) ? theme::mix(handleBase, text, 0.35)
                              : hot(SC_ScrollBarSlider)   ? theme::mix(handleBase, text, 0.18)
                                                          : handleBase;
        const QRectF r =
            QRectF(slider).adjusted(horizontal ? 1 : 3, horizontal ? 3 : 1, horizontal ? -1 : -2, horizontal ? -2 : -1);
        const qreal radius = qMin(r.width(), r.height()) / 2;
        painter->setRenderHint(QPainter::Antialiasing, true);
        painter->setPen(Qt::NoPen);
        painter->setBrush(handle);
        painter->drawRoundedRect(r, radius, radius);
    }

    painter->setRenderHint(QPainter::Antialiasing, true);
    for (const SubControl sc : {SC_ScrollBarSubLine, SC_ScrollBarAddLine}) {
        const QRect r = subControlRect(CC_ScrollBar, bar, sc, widget);
        if (!r.isValid())
            continue;
        if (pressed(sc))
            painter->fillRect(r, theme::mix(pal.color(QPalette::Window), text, 0.12));
        const bool sub = sc == SC_ScrollBarSubLine;
        const Qt::ArrowType direction =
            horizontal ? (sub != (bar->direction == Qt::RightToLeft) ? Qt::LeftArrow : Qt::RightArrow)
                       : (sub ? Qt::UpArrow : Qt::DownArrow);
        const bool atEnd = sub ? bar->sliderValue <= bar->minimum : bar->sliderValue >= bar->maximum;
        drawChevron(painter, r, direction,
                    enabled && !atEnd ? theme::mix(pal.color(QPalette::Window), text, hot(sc) ? 0.8 : 0.55)
                                      : theme::mix(pal.color(QPalette::Window), text, 0.25));
    }
    painter->restore();
}

void installFlatScrollBars()
{
    QStyle *current = QApplication::style();
    if (drawingStyleName(current) != QLatin1String("fusion") || qobject_cast<FlatScrollBarStyle *>(current))
        return;
    // A fresh Fusion as the base: the application owns its current style and deletes it when replaced.
    QApplication::setStyle(new FlatScrollBarStyle(QStyleFactory::create(QStringLiteral("Fusion"))));
}

} // namespace tf::ui
