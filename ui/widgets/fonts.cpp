#include "ui/widgets/fonts.h"

#include <QFontDatabase>
#include <QWidget>

namespace tf::ui::fonts {

QFont withoutNeedlessShaping(QFont font)
{
    font.setStyleStrategy(QFont::StyleStrategy(font.styleStrategy() | QFont::PreferNoShaping));
    return font;
}

void skipNeedlessShaping(QWidget *window)
{
    QFont strategyOnly; // resolves nothing but the strategy: children inherit that attribute alone
    strategyOnly.setStyleStrategy(QFont::PreferNoShaping);
    window->setFont(strategyOnly);
}

QFont fixedPitch()
{
    return withoutNeedlessShaping(QFontDatabase::systemFont(QFontDatabase::FixedFont));
}

} // namespace tf::ui::fonts
