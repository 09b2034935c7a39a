#include "ui/widgets/elidedlabel.h"

#include "ui/services/qtstrings.h"

#include <QPainter>
#include <QTextLayout>

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

void ElidedLabel::setMaximumLines(int lines)
{
    m_maxLines = qMax(1, lines);
    QSizePolicy policy = sizePolicy();
    policy.setVerticalPolicy(m_maxLines > 1 ? QSizePolicy::Preferred : QSizePolicy::Fixed);
    policy.setHeightForWidth(m_maxLines > 1);
    setSizePolicy(policy);
    updateGeometry();
}

QStringList ElidedLabel::linesAt(int width) const
{
    const QFontMetrics fm = fontMetrics();
    if (m_maxLines == 1 || fm.horizontalAdvance(m_text) <= width)
        return {fm.elidedText(m_text, Qt::ElideRight, width)};
    QTextLayout layout(m_text, font());
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    QStringList lines;
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(width);
        if (lines.size() == m_maxLines - 1) {
            lines << fm.elidedText(m_text.mid(line.textStart()), Qt::ElideRight, width);
            break;
        }
        lines << m_text.mid(line.textStart(), line.textLength()).trimmed();
    }
    layout.endLayout();
    return lines;
}

int ElidedLabel::heightForWidth(int width) const
{
    return int(linesAt(width).size()) * fontMetrics().lineSpacing();
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
    if (m_maxLines == 1) {
        p.drawText(rect(), Qt::AlignLeft | Qt::AlignVCenter, fontMetrics().elidedText(m_text, Qt::ElideRight, width()));
        return;
    }
    const QStringList lines = linesAt(width());
    const int step = fontMetrics().lineSpacing();
    const int top = qMax(0, (height() - int(lines.size()) * step) / 2);
    for (int i = 0; i < lines.size(); ++i)
        p.drawText(QRect(0, top + i * step, width(), step), Qt::AlignLeft | Qt::AlignVCenter, lines[i]);
}

} // namespace tf::ui
