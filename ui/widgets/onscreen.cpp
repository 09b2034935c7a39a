#include "ui/widgets/onscreen.h"

#include <QAbstractScrollArea>
#include <QDockWidget>

namespace tf::ui {

bool onScreen(const QAbstractScrollArea *area)
{
    return area->isVisible() && inSight(area->viewport());
}

bool inSight(const QWidget *widget)
{
    return widget->isVisible() && !widget->visibleRegion().isEmpty();
}

bool whenDockShown(QWidget *widget, std::function<void()> shown)
{
    for (QWidget *w = widget->parentWidget(); w; w = w->parentWidget())
        if (auto *dock = qobject_cast<QDockWidget *>(w)) {
            QObject::connect(
                dock, &QDockWidget::visibilityChanged, widget,
                [shown = std::move(shown)](bool visible) {
                    if (visible)
                        shown();
                },
                Qt::QueuedConnection);
            return true;
        }
    return false;
}

} // namespace tf::ui
