#include "ui/widgets/toolcalllinks.h"

#include "ui/models/toolcalllink.h"
#include "ui/services/qtstrings.h"

#include <QAbstractItemView>
#include <QCursor>
#include <QEvent>
#include <QMenu>
#include <QMouseEvent>

namespace tf::ui {

namespace {

// The pointing hand over a link cell, the view's own cursor elsewhere.
class LinkCursor : public QObject
{
public:
    explicit LinkCursor(QAbstractItemView *view)
        : QObject(view)
        , m_view(view)
    {
        view->viewport()->setMouseTracking(true);
        view->viewport()->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::MouseMove) {
            const auto *mouse = static_cast<QMouseEvent *>(event);
            const bool onLink =
                !m_view->indexAt(mouse->position().toPoint()).data(ToolCallIdsRole).toStringList().isEmpty();
            if (onLink != m_onLink) {
                m_onLink = onLink;
                if (onLink)
                    m_view->viewport()->setCursor(Qt::PointingHandCursor);
                else
                    m_view->viewport()->unsetCursor();
            }
        } else if (event->type() == QEvent::Leave && m_onLink) {
            m_onLink = false;
            m_view->viewport()->unsetCursor();
        }
        return false;
    }

private:
    QAbstractItemView *m_view;
    bool m_onLink = false;
};

} // namespace

void installToolCallLinks(QAbstractItemView *view, std::function<void(const QString &)> follow)
{
    new LinkCursor(view);
    QObject::connect(view, &QAbstractItemView::clicked, view, [view, follow](const QModelIndex &index) {
        chooseToolCallId(view, QCursor::pos(), index.data(ToolCallIdsRole).toStringList(), follow);
    });
}

QStringList toolCallIdsOfRow(const QModelIndex &index)
{
    if (!index.isValid())
        return {};
    for (int c = 0; c < index.model()->columnCount(index.parent()); ++c)
        if (const QStringList ids = index.siblingAtColumn(c).data(ToolCallIdsRole).toStringList(); !ids.isEmpty())
            return ids;
    return {};
}

void chooseToolCallId(QWidget *anchor, const QPoint &globalPos, const QStringList &ids,
                      const std::function<void(const QString &)> &follow)
{
    if (ids.size() == 1) {
        follow(ids.front());
        return;
    }
    if (ids.isEmpty())
        return;
    auto *menu = new QMenu(anchor);
    menu->setObjectName(QStringLiteral("toolCallLinkMenu"));
    menu->setAttribute(Qt::WA_DeleteOnClose);
    for (const QString &id : ids)
        menu->addAction(QObject::tr("Go to the result of %1").arg(escapeMnemonic(id)), anchor,
                        [follow, id] { follow(id); });
    menu->popup(globalPos);
}

} // namespace tf::ui
