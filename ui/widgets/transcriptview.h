#pragma once

#include "ui/widgets/chippainter.h"

#include <QCache>
#include <QListView>
#include <QPersistentModelIndex>
#include <QStyledItemDelegate>
#include <QTextLayout>

#include <memory>

namespace tf::ui {

// Paints one TranscriptModel message as a chat bubble: the user on the right, the assistant on the left with the
// tools it asked for, tool results indented under it in a fixed-pitch font (folded to a few lines until clicked),
// collapse tickets with a dashed outline and the ticket as sent, and a bar and a "new" chip on messages the previous
// call did not send. Text is laid out with QTextLayout: plain text, never markup.
class TranscriptDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    explicit TranscriptDelegate(QListView *view);

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    void clearCache() { m_layouts.clear(); }
    // Messages laid out since the last reset: none while the list is off screen (TranscriptView::doItemsLayout).
    int laidOutMessages() const { return int(m_layouts.size()); }

    static constexpr int kFoldedLines = 3;

private:
    // One message laid out at one width (in item coordinates): what sizeHint measures is what paint draws.
    struct Bubble
    {
        QRectF bubble;
        qreal height = 0; // the item's
        QString header;
        QList<Chip> chips;
        std::unique_ptr<QTextLayout> body;
        int bodyLines = 0; // lines of `body` drawn
        qreal bodyHeight = 0;
        QStringList toolCalls;
        std::unique_ptr<QTextLayout> args; // the tools' arguments, when unfolded
        int argsLines = 0;
        qreal argsHeight = 0;
        QString foldLine; // "▸ Click to unfold · 1,234 characters", or empty
        int kind = 0;     // TranscriptModel::Kind
        bool isNew = false, collapsed = false, error = false;
    };
    const Bubble &bubbleFor(const QStyleOptionViewItem &option, const QModelIndex &index) const;

    QListView *m_view = nullptr;
    mutable QCache<QString, Bubble> m_layouts{400};
};

// The list the transcript is read in: per-pixel scrolling, bubbles that reflow with the width, a click on a foldable
// message folds or unfolds it.
class TranscriptView : public QListView
{
    Q_OBJECT

public:
    explicit TranscriptView(QWidget *parent = nullptr);
    void setModel(QAbstractItemModel *model) override;
    // Folds or unfolds the message at `row` (what a click does).
    void toggleFolded(int row);
    // scrollTo(index, hint) now when the view is on screen, else when it is next shown: placing a message lays out
    // every message above it, which is a call switch's dearest work for a list nobody sees (a tab behind another).
    void scrollToWhenShown(const QModelIndex &index, ScrollHint hint = EnsureVisible);
    // Shown and not wholly covered: a dock behind another's tab is "visible" to Qt, with nothing of it on screen.
    bool onScreen() const;
    // Lays the messages out only when the list is on screen: Qt's delayed layout after every model reset runs for a
    // dock behind another's tab too (it is "visible"), and measuring every bubble of a 40-message conversation was a
    // tenth of a call switch's GUI time for a list nobody saw. Put off, it runs once the list is shown or painted.
    void doItemsLayout() override;
    QRect visualRect(const QModelIndex &index) const override;
    QModelIndex indexAt(const QPoint &point) const override;

protected:
    void mouseReleaseEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override; // a splitter opening a view it had closed to nothing
    void paintEvent(QPaintEvent *event) override;

private:
    // The layout put off while the list was off screen, then the scroll asked for meanwhile.
    void scrollPending();
    void layOutPending();
    // Lays the messages out now; a scroll asked for meanwhile comes right after (queued).
    void layOut();
    // Before a place in the list is read (visualRect, indexAt): the layout put off, if the list is on screen now.
    void layOutBeforeReading() const;
    // Calls scrollPending once the dock holding the list has its tab brought to the front.
    void watchDock();

    TranscriptDelegate *m_delegate = nullptr;
    bool m_watchingDock = false;
    bool m_layoutPending = false; // a layout was asked for while the list was off screen
    bool m_layingOut = false;
    // The scroll asked for while hidden; invalid once done, or once the model is reset under it.
    QPersistentModelIndex m_pendingScroll;
    ScrollHint m_pendingHint = EnsureVisible;
};

} // namespace tf::ui
