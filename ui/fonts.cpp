#include "fonts.h"

#include <QApplication>
#include <QFontDatabase>

namespace tf::ui::fonts {

namespace {

QFont withoutNeedlessShaping(QFont font)
{
    font.setStyleStrategy(QFont::StyleStrategy(font.styleStrategy() | QFont::PreferNoShaping));
    return font;
}

} // namespace

void applyApplicationFont()
{
    QApplication::setFont(withoutNeedlessShaping(QApplication::font()));
}

QFont fixedPitch()
{
    return withoutNeedlessShaping(QFontDatabase::systemFont(QFontDatabase::FixedFont));
}

} // namespace tf::ui::fonts
