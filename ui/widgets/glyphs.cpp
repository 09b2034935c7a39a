#include "ui/widgets/glyphs.h"

#include "ui/widgets/theme.h"

#include <QGuiApplication>
#include <QIconEngine>
#include <QImage>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

#include <cmath>

#include <array>
#include <vector>

namespace tf::ui {

namespace {

using theme::Tone;

QPainterPath shieldPath(const QRectF &r)
{
    const auto at = [&r](qreal x, qreal y) { return QPointF(r.left() + x * r.width(), r.top() + y * r.height()); };
    QPainterPath p;
    p.moveTo(at(0.5, 0.04));
    p.lineTo(at(0.9, 0.18));
    p.lineTo(at(0.9, 0.48));
    p.cubicTo(at(0.9, 0.74), at(0.72, 0.88), at(0.5, 0.97));
    p.cubicTo(at(0.28, 0.88), at(0.1, 0.74), at(0.1, 0.48));
    p.lineTo(at(0.1, 0.18));
    p.closeSubpath();
    return p;
}

void drawCheck(QPainter *p, const QRectF &r, const QColor &color, qreal width)
{
    QPainterPath path;
    path.moveTo(r.left() + r.width() * 0.27, r.top() + r.height() * 0.52);
    path.lineTo(r.left() + r.width() * 0.44, r.top() + r.height() * 0.69);
    path.lineTo(r.left() + r.width() * 0.74, r.top() + r.height() * 0.34);
    p->setPen(QPen(color, width, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p->setBrush(Qt::NoBrush);
    p->drawPath(path);
}

void drawCross(QPainter *p, const QRectF &r, const QColor &color, qreal width)
{
    const qreal a = 0.32, b = 0.68;
    p->setPen(QPen(color, width, Qt::SolidLine, Qt::RoundCap));
    p->drawLine(QPointF(r.left() + r.width() * a, r.top() + r.height() * a),
                QPointF(r.left() + r.width() * b, r.top() + r.height() * b));
    p->drawLine(QPointF(r.left() + r.width() * b, r.top() + r.height() * a),
                QPointF(r.left() + r.width() * a, r.top() + r.height() * b));
}

// A filled triangle with "!" (a damaged part, a warning), in the square `r`.
void drawAlertTriangle(QPainter *p, const QRectF &r, const QColor &fill, const QColor &onFill, qreal stroke)
{
    const qreal side = r.width();
    QPainterPath tri;
    tri.moveTo(r.left() + side * 0.5, r.top() + side * 0.06);
    tri.lineTo(r.right() - side * 0.03, r.bottom() - side * 0.08);
    tri.lineTo(r.left() + side * 0.03, r.bottom() - side * 0.08);
    tri.closeSubpath();
    p->setPen(QPen(fill, side * 0.06, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p->setBrush(fill);
    p->drawPath(tri);
    p->setPen(QPen(onFill, stroke * 0.95, Qt::SolidLine, Qt::RoundCap));
    p->drawLine(QPointF(r.center().x(), r.top() + side * 0.36), QPointF(r.center().x(), r.top() + side * 0.6));
    p->setPen(Qt::NoPen);
    p->setBrush(onFill);
    p->drawEllipse(QPointF(r.center().x(), r.top() + side * 0.76), stroke * 0.55, stroke * 0.55);
}

void drawCentredText(QPainter *p, const QRectF &r, const QString &text, const QColor &color, qreal scale)
{
    QFont f = p->font();
    f.setBold(true);
    f.setPixelSize(qMax(6, int(r.height() * scale)));
    p->setFont(f);
    p->setPen(color);
    p->drawText(r, Qt::AlignCenter, text);
}

class GlyphIconEngine : public QIconEngine
{
public:
    explicit GlyphIconEngine(Glyph glyph)
        : m_glyph(glyph)
    {
    }

    // Item views paint a glyph per row on every repaint: the vector drawing is done once per size, scale, mode
    // and palette and kept by the engine. Looked up by value, not by a QPixmapCache key: formatting that key was a
    // twentieth of a call switch's instructions on the GUI thread (a glyph in every row of the calls list).
    void paint(QPainter *painter, const QRect &rect, QIcon::Mode mode, QIcon::State) override
    {
        const qreal scale = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
        painter->drawImage(rect, rendered(rect.size(), mode, scale));
    }

    QPixmap pixmap(const QSize &size, QIcon::Mode mode, QIcon::State) override
    {
        return QPixmap::fromImage(rendered(size, mode, 1.0));
    }

    QPixmap scaledPixmap(const QSize &size, QIcon::Mode mode, QIcon::State, qreal scale) override
    {
        return QPixmap::fromImage(rendered(size, mode, scale));
    }

    QIconEngine *clone() const override { return new GlyphIconEngine(m_glyph); }
    QString key() const override { return QStringLiteral("tracefold-glyph"); }

private:
    struct Rendered
    {
        QSize size;
        qreal scale;
        QIcon::Mode mode;
        qint64 paletteKey;
        QImage image; // not a QPixmap: the icons are static, and outlive the application
    };
    // A view asks for one or two sizes; a palette change (a theme switch) adds entries, the oldest going first.
    static constexpr std::size_t kKept = 8;

    QImage rendered(const QSize &size, QIcon::Mode mode, qreal scale) const
    {
        const QPalette palette = QGuiApplication::palette();
        const qint64 paletteKey = palette.cacheKey();
        for (const Rendered &r : m_rendered)
            if (r.size == size && r.scale == scale && r.mode == mode && r.paletteKey == paletteKey)
                return r.image;
        QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(scale);
        image.fill(Qt::transparent);
        {
            QPainter p(&image);
            if (mode == QIcon::Disabled)
                p.setOpacity(0.45);
            paintGlyph(&p, QRectF(QPointF(0, 0), QSizeF(size)), m_glyph, palette);
        }
        if (m_rendered.size() == kKept)
            m_rendered.erase(m_rendered.begin());
        m_rendered.push_back({size, scale, mode, paletteKey, image});
        return image;
    }

    Glyph m_glyph;
    mutable std::vector<Rendered> m_rendered;
};

} // namespace

void paintGlyph(QPainter *p, const QRectF &rect, Glyph glyph, const QPalette &palette)
{
    const qreal side = qMin(rect.width(), rect.height());
    const QRectF r(rect.center().x() - side / 2, rect.center().y() - side / 2, side, side);
    const qreal stroke = qMax<qreal>(1.2, side * 0.12);
    const QColor onFill = theme::isDark(palette) ? QColor(0x10, 0x10, 0x10) : QColor(Qt::white);
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    const QRectF inner = r.adjusted(side * 0.08, side * 0.08, -side * 0.08, -side * 0.08);
    switch (glyph) {
    case Glyph::CacheReusable:
        p->setPen(Qt::NoPen);
        p->setBrush(theme::strong(Tone::Good, palette));
        p->drawEllipse(inner);
        drawCheck(p, inner, onFill, stroke);
        break;
    case Glyph::CacheReusableUnmeasured: {
        const QColor c = theme::strong(Tone::Good, palette);
        QPen pen(c, qMax<qreal>(1.0, side * 0.08));
        pen.setDashPattern({2.0, 1.5});
        p->setPen(pen);
        p->setBrush(theme::tint(Tone::Good, palette, 0.12));
        p->drawEllipse(inner.adjusted(pen.widthF() / 2, pen.widthF() / 2, -pen.widthF() / 2, -pen.widthF() / 2));
        drawCheck(p, inner, c, stroke);
        break;
    }
    case Glyph::CacheRewritten:
        p->setPen(Qt::NoPen);
        p->setBrush(theme::strong(Tone::Bad, palette));
        p->drawEllipse(inner);
        drawCross(p, inner, onFill, stroke);
        break;
    case Glyph::CacheUnknown: {
        QPen pen(theme::strong(Tone::Neutral, palette), qMax<qreal>(1.0, side * 0.08));
        pen.setDashPattern({2.0, 1.5});
        p->setPen(pen);
        p->setBrush(Qt::NoBrush);
        p->drawEllipse(inner.adjusted(pen.widthF() / 2, pen.widthF() / 2, -pen.widthF() / 2, -pen.widthF() / 2));
        drawCentredText(p, inner, QStringLiteral("?"), theme::strong(Tone::Neutral, palette), 0.62);
        break;
    }
    case Glyph::Verified:
        p->setPen(Qt::NoPen);
        p->setBrush(theme::strong(Tone::Good, palette));
        p->drawPath(shieldPath(r));
        drawCheck(p, r.adjusted(0, -side * 0.04, 0, -side * 0.04), onFill, stroke);
        break;
    case Glyph::Reconstructed: {
        const QColor c = theme::strong(Tone::Info, palette);
        p->setPen(QPen(c, qMax<qreal>(1.0, side * 0.09)));
        p->setBrush(theme::tint(Tone::Info, palette, 0.18));
        p->drawPath(shieldPath(r.adjusted(side * 0.04, side * 0.04, -side * 0.04, -side * 0.04)));
        p->setPen(QPen(c, qMax<qreal>(1.0, side * 0.1), Qt::SolidLine, Qt::RoundCap));
        p->drawLine(QPointF(r.left() + side * 0.34, r.top() + side * 0.42),
                    QPointF(r.left() + side * 0.66, r.top() + side * 0.42));
        p->drawLine(QPointF(r.left() + side * 0.34, r.top() + side * 0.6),
                    QPointF(r.left() + side * 0.66, r.top() + side * 0.6));
        break;
    }
    case Glyph::Damaged:
        drawAlertTriangle(p, r, theme::strong(Tone::Bad, palette), onFill, stroke);
        break;
    case Glyph::NotOnRecord: {
        QPen pen(theme::strong(Tone::Neutral, palette), qMax<qreal>(1.0, side * 0.08));
        pen.setDashPattern({2.0, 1.6});
        p->setPen(pen);
        p->setBrush(Qt::NoBrush);
        p->drawPath(shieldPath(r.adjusted(side * 0.05, side * 0.05, -side * 0.05, -side * 0.05)));
        p->setPen(
            QPen(theme::strong(Tone::Neutral, palette), qMax<qreal>(1.0, side * 0.1), Qt::SolidLine, Qt::RoundCap));
        p->drawLine(QPointF(r.left() + side * 0.36, r.top() + side * 0.5),
                    QPointF(r.left() + side * 0.64, r.top() + side * 0.5));
        break;
    }
    case Glyph::LedgerChanged: {
        QPainterPath d;
        const QPointF c = r.center();
        const qreal h = side * 0.36;
        d.moveTo(c.x(), c.y() - h);
        d.lineTo(c.x() + h, c.y());
        d.lineTo(c.x(), c.y() + h);
        d.lineTo(c.x() - h, c.y());
        d.closeSubpath();
        p->setPen(Qt::NoPen);
        p->setBrush(theme::strong(Tone::Accent, palette));
        p->drawPath(d);
        break;
    }
    case Glyph::Collapsed: {
        // A ticket: a rounded bar with a notch on each side.
        const QRectF t(r.left() + side * 0.06, r.top() + side * 0.26, side * 0.88, side * 0.48);
        QPainterPath ticket;
        ticket.addRoundedRect(t, side * 0.08, side * 0.08);
        QPainterPath notches;
        notches.addEllipse(QPointF(t.left(), t.center().y()), side * 0.1, side * 0.1);
        notches.addEllipse(QPointF(t.right(), t.center().y()), side * 0.1, side * 0.1);
        p->setPen(Qt::NoPen);
        p->setBrush(theme::strong(Tone::Warn, palette));
        p->drawPath(ticket.subtracted(notches));
        p->setPen(QPen(onFill, qMax<qreal>(1.0, side * 0.07), Qt::DotLine));
        p->drawLine(QPointF(t.left() + side * 0.3, t.top() + side * 0.07),
                    QPointF(t.left() + side * 0.3, t.bottom() - side * 0.07));
        break;
    }
    case Glyph::Undeclared: {
        QPen pen(theme::strong(Tone::Accent, palette), qMax<qreal>(1.0, side * 0.09));
        pen.setDashPattern({1.8, 1.4});
        p->setPen(pen);
        p->setBrush(Qt::NoBrush);
        p->drawRoundedRect(r.adjusted(side * 0.16, side * 0.16, -side * 0.16, -side * 0.16), side * 0.08, side * 0.08);
        break;
    }
    case Glyph::ToolError: {
        QPainterPath octagon;
        const QPointF c = r.center();
        const qreal radius = side * 0.46;
        for (int k = 0; k < 8; ++k) {
            const qreal a = (22.5 + 45.0 * k) * 3.14159265358979 / 180.0;
            const QPointF pt(c.x() + radius * std::cos(a), c.y() + radius * std::sin(a));
            k ? octagon.lineTo(pt) : octagon.moveTo(pt);
        }
        octagon.closeSubpath();
        p->setPen(Qt::NoPen);
        p->setBrush(theme::strong(Tone::Bad, palette));
        p->drawPath(octagon);
        p->setPen(QPen(onFill, stroke * 0.95, Qt::SolidLine, Qt::RoundCap));
        p->drawLine(QPointF(c.x(), r.top() + side * 0.24), QPointF(c.x(), r.top() + side * 0.58));
        p->setPen(Qt::NoPen);
        p->setBrush(onFill);
        p->drawEllipse(QPointF(c.x(), r.top() + side * 0.74), stroke * 0.55, stroke * 0.55);
        break;
    }
    case Glyph::NeverReturned: {
        QPen pen(theme::strong(Tone::Warn, palette), qMax<qreal>(1.0, side * 0.08));
        pen.setDashPattern({2.0, 1.6});
        p->setPen(pen);
        p->setBrush(Qt::NoBrush);
        p->drawEllipse(r.center(), side * 0.4, side * 0.4);
        p->setPen(Qt::NoPen);
        p->setBrush(theme::strong(Tone::Warn, palette));
        for (int k = -1; k <= 1; ++k)
            p->drawEllipse(QPointF(r.center().x() + k * side * 0.17, r.center().y()), stroke * 0.5, stroke * 0.5);
        break;
    }
    case Glyph::Bookmark: {
        QPainterPath star;
        for (int i = 0; i < 10; ++i) {
            const qreal radius = (i % 2 ? 0.2 : 0.47) * side;
            const qreal angle = -M_PI / 2 + i * M_PI / 5;
            const QPointF pt(r.center().x() + radius * std::cos(angle),
                             r.center().y() + 0.04 * side + radius * std::sin(angle));
            if (i == 0)
                star.moveTo(pt);
            else
                star.lineTo(pt);
        }
        star.closeSubpath();
        p->setPen(QPen(theme::strong(Tone::Accent, palette), qMax<qreal>(1.0, side * 0.05), Qt::SolidLine, Qt::RoundCap,
                       Qt::RoundJoin));
        p->setBrush(theme::strong(Tone::Accent, palette));
        p->drawPath(star);
        break;
    }
    case Glyph::Note: {
        const QColor c = theme::strong(Tone::Accent, palette);
        const QRectF page = r.adjusted(side * 0.2, side * 0.1, -side * 0.2, -side * 0.1);
        const qreal fold = side * 0.18;
        QPainterPath path;
        path.moveTo(page.topLeft());
        path.lineTo(page.right() - fold, page.top());
        path.lineTo(page.right(), page.top() + fold);
        path.lineTo(page.bottomRight());
        path.lineTo(page.bottomLeft());
        path.closeSubpath();
        p->setPen(QPen(c, qMax<qreal>(1.0, side * 0.08), Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p->setBrush(theme::tint(Tone::Accent, palette, 0.18));
        p->drawPath(path);
        p->setPen(QPen(c, qMax<qreal>(1.0, side * 0.07), Qt::SolidLine, Qt::RoundCap));
        for (const qreal y : {0.45, 0.62, 0.79})
            p->drawLine(QPointF(page.left() + side * 0.1, page.top() + page.height() * y),
                        QPointF(page.right() - side * 0.1, page.top() + page.height() * y));
        break;
    }
    case Glyph::ProblemError:
    case Glyph::ProblemInfo: {
        const bool error = glyph == Glyph::ProblemError;
        p->setPen(Qt::NoPen);
        p->setBrush(theme::strong(error ? Tone::Bad : Tone::Info, palette));
        p->drawEllipse(inner);
        // "!" for an error, "i" for info: a bar and a dot, the dot above for "i".
        const qreal x = r.center().x(), dot = stroke * 0.6;
        const qreal barTop = r.top() + side * (error ? 0.26 : 0.44), barBottom = r.top() + side * (error ? 0.56 : 0.74);
        p->setPen(QPen(onFill, stroke, Qt::SolidLine, Qt::RoundCap));
        p->drawLine(QPointF(x, barTop), QPointF(x, barBottom));
        p->setPen(Qt::NoPen);
        p->setBrush(onFill);
        p->drawEllipse(QPointF(x, r.top() + side * (error ? 0.73 : 0.28)), dot, dot);
        break;
    }
    case Glyph::ProblemWarning:
        drawAlertTriangle(p, r, theme::strong(Tone::Warn, palette), onFill, stroke);
        break;
    case Glyph::Miss: {
        QPainterPath tri;
        tri.moveTo(r.left() + side * 0.1, r.top() + side * 0.2);
        tri.lineTo(r.right() - side * 0.1, r.top() + side * 0.2);
        tri.lineTo(r.center().x(), r.bottom() - side * 0.15);
        tri.closeSubpath();
        p->setPen(Qt::NoPen);
        p->setBrush(theme::strong(Tone::Bad, palette));
        p->drawPath(tri);
        break;
    }
    }
    p->restore();
}

QIcon glyphIcon(Glyph glyph)
{
    // One icon per glyph: delegates ask for one per cell and repaint.
    static const auto icons = [] {
        std::array<QIcon, std::size_t(Glyph::Miss) + 1> all;
        for (std::size_t i = 0; i < all.size(); ++i)
            all[i] = QIcon(new GlyphIconEngine(Glyph(i)));
        return all;
    }();
    return icons.at(std::size_t(glyph));
}

} // namespace tf::ui
