#pragma once

#include <QFont>

class QWidget;

// Fonts that skip the shaping pass for text that does not need it (QFont::PreferNoShaping: Latin kerning and
// ligatures are cosmetic; scripts that need shaping still get it). The item views lay out every visible cell again
// on each repaint, and shaping was most of that. Applied where the window draws, not to the application font:
// QApplication::setFont() would drop the platform's per-class fonts and stop following system font changes.
namespace tf::ui::fonts {

QFont withoutNeedlessShaping(QFont font);
// Sets only the style strategy on `window`, so every widget in it (labels, text views, the docks' titles) skips
// needless shaping while keeping its own family, size and the platform's per-class fonts.
void skipNeedlessShaping(QWidget *window);
// The system's fixed-pitch font, without needless shaping.
QFont fixedPitch();

} // namespace tf::ui::fonts
