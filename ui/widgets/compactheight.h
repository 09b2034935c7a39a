#pragma once

class QAbstractScrollArea;

namespace tf::ui {

// Lets a scrolling view shrink to `rows` rows of text (an item view: its header and `rows` rows). A view's own
// minimum is its scroll bar's (two arrows and a handle, ~70 px), and a pane with three views stacked would hold its
// dock, and with it the whole window, taller than a 720-pixel screen. Measured in the view's font, so a larger font
// keeps the rows whole, and so does a sideways scroll bar (the view grows by its height while it is shown).
void setCompactHeight(QAbstractScrollArea *view, int rows);

} // namespace tf::ui
