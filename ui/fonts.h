#pragma once

#include <QFont>

// The fonts the window draws with. Both skip the shaping pass for text that does not need it (QFont::PreferNoShaping:
// Latin kerning and ligatures are cosmetic; scripts that need shaping still get it). Every repaint of an item view
// shapes each visible cell again, and that pass was most of the cost of switching calls.
namespace tf::ui::fonts {

// Sets the application font (the system's, with the strategy above); setupApplication() calls it.
void applyApplicationFont();
// The system's fixed-pitch font, with the same strategy.
QFont fixedPitch();

} // namespace tf::ui::fonts
