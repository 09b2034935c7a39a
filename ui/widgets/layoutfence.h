#pragma once

#include <QWidget>

namespace tf::ui {

// Holds one widget and stops its layout changes from travelling further up. Qt passes every layout activation on
// to the parent (QLayout::activate ends in updateGeometry()), so a label whose text changes in a pane makes its dock
// and then the whole main window lay out again, moving every dock and repainting the window's frame, at each call
// switch. A fence has no layout: it sizes its child to itself and answers size hints from it, so the dock still
// learns the pane's needs when it lays out for its own reasons (the user resizing, a dock moving).
class LayoutFence : public QWidget
{
    Q_OBJECT

public:
    explicit LayoutFence(QWidget *child, QWidget *parent = nullptr);

    QWidget *child() const { return m_child; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    QWidget *m_child;
};

} // namespace tf::ui
