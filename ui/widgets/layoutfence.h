#pragma once

#include <QWidget>

class QScrollBar;

namespace tf::ui {

// Holds one widget and stops its layout changes from travelling further up. Qt passes every layout activation on
// to the parent (QLayout::activate ends in updateGeometry()), so a label whose text changes in a pane makes its dock
// and then the whole main window lay out again, moving every dock and repainting the window's frame, at each call
// switch. A fence has no layout: it sizes its child to itself and answers size hints from it, so the dock still
// learns the pane's needs when it lays out for its own reasons (the user resizing, a dock moving). Only a change of
// the child's minimum is passed on (rare: it does not follow the text shown), so a dock is never left believing a
// stale minimum.
//
// Squeezed below its child's minimum (a small screen, a large font), a fence never lays its child out smaller than
// that minimum, where the child's rows would be drawn over each other: the child keeps its minimum height and a
// scroll bar beside it scrolls it. With a compact height set, the fence asks its parent for no more than that, so a
// pane with a tall minimum does not hold the whole window taller than the screen.
class LayoutFence : public QWidget
{
    Q_OBJECT

public:
    explicit LayoutFence(QWidget *child, QWidget *parent = nullptr);

    QWidget *child() const { return m_child; }
    // The most this fence asks for as its minimum height (0: the child's whole minimum).
    void setCompactHeight(int height);
    // Also pass on every change of the child's size hint (for a fence inside a pane, whose layout should follow the
    // text shown; the dock's fence stops it there).
    void setPassesSizeHint(bool passes);
    // Whether the child is scrolled because the fence is shorter than it needs.
    bool isScrolling() const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;

private:
    // The height the child needs at `width` (its minimum, or what its words wrap to).
    int neededHeight(int width) const;
    void placeChild();

    QWidget *m_child;
    QScrollBar *m_bar;
    int m_compactHeight = 0;
    bool m_passesSizeHint = false;
    QSize m_publishedMinimum;
    QSize m_publishedHint;
};

} // namespace tf::ui
