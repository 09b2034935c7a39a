#include "ui/widgets/layoutfence.h"

#include <QCoreApplication>
#include <QEvent>
#include <QLayout>
#include <QResizeEvent>
#include <QScrollBar>
#include <QStyle>
#include <QWheelEvent>

namespace tf::ui {

namespace {

// What a layout would grant the child at the least: its minimum size hint, or the minimum set on it.
QSize childMinimum(const QWidget *w)
{
    return w->minimumSizeHint().expandedTo(w->minimumSize()).expandedTo(QSize(0, 0));
}

} // namespace

LayoutFence::LayoutFence(QWidget *child, QWidget *parent)
    : QWidget(parent)
    , m_child(child)
    , m_bar(new QScrollBar(Qt::Vertical, this))
{
    m_child->setParent(this);
    setSizePolicy(m_child->sizePolicy());
    setFocusProxy(m_child);
    m_bar->hide();
    connect(m_bar, &QScrollBar::valueChanged, this, &LayoutFence::placeChild);
    m_child->show();
    m_publishedMinimum = childMinimum(m_child);
    m_publishedHint = sizeHint();
}

void LayoutFence::setCompactHeight(int height)
{
    m_compactHeight = height;
    updateGeometry();
}

void LayoutFence::setPassesSizeHint(bool passes)
{
    m_passesSizeHint = passes;
    updateGeometry();
}

bool LayoutFence::isScrolling() const
{
    return !m_bar->isHidden();
}

QSize LayoutFence::sizeHint() const
{
    QSize hint = m_child->sizeHint();
    // Inside a pane, what the child's words wrap to at the width it has (the fence itself does not trade height for
    // width: its minimum stays the compact one).
    if (m_passesSizeHint && m_child->hasHeightForWidth() && width() > 0)
        hint.setHeight(qMax(hint.height(), m_child->heightForWidth(width())));
    return hint;
}

QSize LayoutFence::minimumSizeHint() const
{
    QSize min = childMinimum(m_child);
    if (m_compactHeight > 0)
        min.setHeight(qMin(min.height(), m_compactHeight));
    return min;
}

int LayoutFence::neededHeight(int width) const
{
    // Words that wrap need more height when narrow: the least the child's layout takes at this width.
    int height = childMinimum(m_child).height();
    if (const QLayout *layout = m_child->layout(); layout && layout->hasHeightForWidth())
        height = qMax(height, layout->minimumHeightForWidth(width));
    else if (!layout && m_child->hasHeightForWidth())
        height = qMax(height, m_child->heightForWidth(width));
    return height;
}

bool LayoutFence::event(QEvent *event)
{
    // The child laid itself out again (its text changed, a part was shown or hidden).
    if (event->type() == QEvent::LayoutRequest) {
        const QSize min = childMinimum(m_child);
        const QSize hint = sizeHint();
        if (min != m_publishedMinimum || (m_passesSizeHint && hint != m_publishedHint)) {
            m_publishedMinimum = min;
            m_publishedHint = hint;
            updateGeometry();
        }
        placeChild();
    }
    return QWidget::event(event);
}

void LayoutFence::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (m_passesSizeHint && m_child->hasHeightForWidth() && event->oldSize().width() != width()) {
        const QSize hint = sizeHint();
        if (hint != m_publishedHint) {
            m_publishedHint = hint;
            updateGeometry();
        }
    }
    placeChild();
}

void LayoutFence::wheelEvent(QWheelEvent *event)
{
    // Only what the child's own views did not take (they scroll themselves first).
    if (isScrolling())
        QCoreApplication::sendEvent(m_bar, event);
    else
        event->ignore();
}

void LayoutFence::placeChild()
{
    const int needed = neededHeight(width());
    if (needed <= height()) {
        m_bar->hide();
        m_child->setGeometry(rect());
        return;
    }
    const int barWidth = style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
    const int width = qMax(0, this->width() - barWidth);
    const int full = qMax(neededHeight(width), height());
    m_bar->setGeometry(width, 0, barWidth, height());
    const QSignalBlocker quiet(m_bar);
    m_bar->setRange(0, full - height());
    m_bar->setPageStep(height());
    m_bar->setSingleStep(fontMetrics().height());
    m_bar->show();
    m_bar->raise();
    m_child->setGeometry(0, -m_bar->value(), width, full);
}

} // namespace tf::ui
