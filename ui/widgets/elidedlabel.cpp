#include "ui/widgets/elidedlabel.h"

#include "ui/services/qtstrings.h"

#include <QPainter>

namespace tf::ui {

ElidedLabel::ElidedLabel(QWidget *parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void ElidedLabel::setText(const QString &text)
{
    // One line: newlines in an answer would otherwise vanish into the elision.
    m_text = previewLine(text, 4000);
    setToolTip(toolTipText(text));
    updateGeometry();
    update();
}

QSize ElidedLabel::sizeHint() const
{
    const int w = fontMetrics().horizontalAdvance(m_text) + 2;
    return {m_maxWidth > 0 ? qMin(w, m_maxWidth) : w, fontMetrics().height()};
}

QSize ElidedLabel::minimumSizeHint() const
{
    return {qMin(fontMetrics().horizontalAdvance(m_text) + 2, fontMetrics().averageCharWidth() * 6),
            fontMetrics().height()};
}

void ElidedLabel::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setPen(palette().color(foregroundRole()));
    p.drawText(rect(), Qt::AlignLeft | Qt::AlignVCenter, fontMetrics().elidedText(m_text, Qt::ElideRight, width()));
}

} // namespace tf::ui
