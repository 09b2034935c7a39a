#pragma once

#include <QLabel>

namespace tf::ui {

// A plain-text label whose text the mouse can select, which costs nothing for that while the mouse is elsewhere.
//
// QLabel makes a selectable label a text document: every setText lays the document out, and every height the layout
// asks for lays it out again at that width. The Since Previous facts change at every call, and as documents they were
// a tenth of a call switch's instructions on the GUI thread. This label is a document only while the mouse is over
// it (where a selection starts and its context menu opens); a text set while the mouse is elsewhere drops it, and the
// label sizes and draws its text the cheap way. Selecting looks and works as before: the I-beam cursor, the
// selection, Copy and Select All in the context menu.
class SelectableLabel : public QLabel
{
    Q_OBJECT

public:
    explicit SelectableLabel(QWidget *parent = nullptr);

    // Hides QLabel::setText (call it through this type): the same text keeps a selection in it.
    void setText(const QString &text);

protected:
    void enterEvent(QEnterEvent *event) override;
};

} // namespace tf::ui
