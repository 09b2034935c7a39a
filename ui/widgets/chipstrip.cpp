#include "ui/widgets/chipstrip.h"

#include "ui/services/qtstrings.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

namespace tf::ui {

namespace {
constexpr qreal kGap = 4;
}

ChipStrip::ChipStrip(QWidget *parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void ChipStrip::setChips(const QList<Chip> &chips, const QStringList &toolTips)
{
    m_chips = chips;
    m_toolTips = toolTips;
    updateGeometry();
    update();
}

QSize ChipStrip::sizeHint() const
{
    qreal w = 0;
    for (const Chip &c : m_chips)
        w += chipWidth(c, font()) + kGap;
    return {int(w) + 2, fontMetrics().height() + 4};
}

QSize ChipStrip::minimumSizeHint() const
{
    return {m_chips.isEmpty() ? 0 : int(chipWidth(m_chips.front(), font())) + 2, fontMetrics().height() + 4};
}

void ChipStrip::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    qreal x = 0;
    for (const Chip &c : m_chips) {
        const qreal w = chipWidth(c, font());
        if (x + w > width())
            break;
        x += paintChip(&p, x, QRectF(rect()), c, palette(), font()) + kGap;
    }
}

bool ChipStrip::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        qreal x = 0;
        for (int i = 0; i < m_chips.size(); ++i) {
            const qreal w = chipWidth(m_chips[i], font());
            if (help->pos().x() >= x && help->pos().x() < x + w) {
                QToolTip::showText(help->globalPos(), toolTipText(m_toolTips.value(i)), this);
                return true;
            }
            x += w + kGap;
        }
        QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace tf::ui
