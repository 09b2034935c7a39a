#include "ui/widgets/layoutfence.h"

namespace tf::ui {

LayoutFence::LayoutFence(QWidget *child, QWidget *parent)
    : QWidget(parent)
    , m_child(child)
{
    m_child->setParent(this);
    setSizePolicy(m_child->sizePolicy());
    setFocusProxy(m_child);
    m_child->show();
}

QSize LayoutFence::sizeHint() const
{
    return m_child->sizeHint();
}

QSize LayoutFence::minimumSizeHint() const
{
    return m_child->minimumSizeHint();
}

void LayoutFence::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    m_child->setGeometry(rect());
}

} // namespace tf::ui
