#include "ui/widgets/glyphlabel.h"

#include <QPainter>

namespace tf::ui {

GlyphLabel::GlyphLabel(QWidget *parent, int side)
    : QWidget(parent)
    , m_side(side)
{
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
}

void GlyphLabel::setGlyph(std::optional<Glyph> glyph)
{
    m_glyph = glyph;
    update();
}

QSize GlyphLabel::sizeHint() const
{
    return {m_side, m_side};
}

void GlyphLabel::paintEvent(QPaintEvent *)
{
    if (!m_glyph)
        return;
    QPainter p(this);
    paintGlyph(&p, QRectF(rect()), *m_glyph, palette());
}

} // namespace tf::ui
