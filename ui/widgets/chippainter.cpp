#include "ui/widgets/chippainter.h"

#include <QFontMetricsF>
#include <QPainter>

namespace tf::ui {

QFont chipFont(const QFont &base)
{
    QFont f = base;
    f.setPointSizeF(qMax(6.5, base.pointSizeF() * 0.84));
    f.setWeight(QFont::DemiBold);
    return f;
}

qreal chipWidth(const Chip &chip, const QFont &font)
{
    return QFontMetricsF(chipFont(font)).horizontalAdvance(chip.text) + 10;
}

qreal paintChip(QPainter *p, qreal x, const QRectF &band, const Chip &chip, const QPalette &palette, const QFont &font)
{
    const QFont f = chipFont(font);
    const QFontMetricsF fm(f);
    const qreal h = qMin(band.height() - 2, fm.height() + 3);
    const qreal w = fm.horizontalAdvance(chip.text) + 10;
    const QRectF r(x, band.top() + (band.height() - h) / 2, w, h);
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    const QColor strong = theme::strong(chip.tone, palette);
    if (chip.outlined) {
        QPen pen(strong, 1.0);
        pen.setDashPattern({3, 2});
        p->setPen(pen);
        p->setBrush(Qt::NoBrush);
    } else {
        p->setPen(QPen(theme::mix(strong, palette.color(QPalette::Base), 0.35), 1.0));
        p->setBrush(theme::tint(chip.tone, palette, 0.22));
    }
    p->drawRoundedRect(r.adjusted(0.5, 0.5, -0.5, -0.5), h / 2, h / 2);
    p->setFont(f);
    p->setPen(theme::textOn(chip.tone, palette));
    p->drawText(r, Qt::AlignCenter, chip.text);
    p->restore();
    return w;
}

} // namespace tf::ui
