#pragma once

#include <QAbstractItemView>

namespace tf::ui {

// An item view that can lay its rows out on demand. After a model reset a view lays its rows out on a zero timer,
// which runs after the window has repainted; a pane that then scrolls to or selects what is new at the call paints
// its view twice per call switch. Laying out before scrolling makes it once.
template <class View>
class ImmediateItemLayout : public View
{
public:
    using View::View;
    void layoutNow() { this->executeDelayedItemsLayout(); }
};

} // namespace tf::ui
