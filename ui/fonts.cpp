#include "fonts.h"

#include <QFontDatabase>

namespace tf::ui::fonts {

QFont withoutNeedlessShaping(QFont font)
{
    font.setStyleStrategy(QFont::StyleStrategy(font.styleStrategy() | QFont::PreferNoShaping));
    return font;
}

QFont fixedPitch()
{
    return withoutNeedlessShaping(QFontDatabase::systemFont(QFontDatabase::FixedFont));
}

} // namespace tf::ui::fonts
