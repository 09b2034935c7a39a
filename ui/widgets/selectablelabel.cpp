#include "ui/widgets/selectablelabel.h"

namespace tf::ui {

SelectableLabel::SelectableLabel(QWidget *parent)
    : QLabel(parent)
{
    setTextFormat(Qt::PlainText); // model and tool text never reaches a label as markup
    setCursor(Qt::IBeamCursor);   // what a selectable label shows, before the mouse has made it one
}

void SelectableLabel::setText(const QString &text)
{
    if (text == QLabel::text())
        return;
    if (!underMouse()) {
        setTextInteractionFlags(Qt::NoTextInteraction);
        setCursor(Qt::IBeamCursor); // kept for the mouse's return, however QLabel left it
    }
    QLabel::setText(text);
}

void SelectableLabel::enterEvent(QEnterEvent *event)
{
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    QLabel::enterEvent(event);
}

} // namespace tf::ui
