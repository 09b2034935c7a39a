#include "ui/widgets/theme.h"

namespace tf::ui::theme {

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

QColor mix(const QColor &a, const QColor &b, qreal t)
{
    const auto lerp = [t](qreal x, qreal y) { return x + (y - x) * t; };
    return QColor::fromRgbF(float(lerp(a.redF(), b.redF())), float(lerp(a.greenF(), b.greenF())),
                            float(lerp(a.blueF(), b.blueF())), float(lerp(a.alphaF(), b.alphaF())));
}

QColor strong(Tone tone, const QPalette &palette)
{
    const bool dark = isDark(palette);
    switch (tone) {
    case Tone::Good:
        return dark ? QColor(0x3c, 0xc8, 0xa0) : QColor(0x00, 0x9e, 0x73);
    case Tone::Info:
        return dark ? QColor(0x6c, 0xb8, 0xf0) : QColor(0x00, 0x72, 0xb2);
    case Tone::Bad:
        return dark ? QColor(0xff, 0x80, 0x4a) : QColor(0xd5, 0x5e, 0x00);
    case Tone::Warn:
        return dark ? QColor(0xf0, 0xb0, 0x30) : QColor(0xc7, 0x86, 0x00);
    case Tone::Neutral:
        return dark ? QColor(0x9a, 0x9a, 0x9a) : QColor(0x80, 0x80, 0x80);
    case Tone::Accent:
        return dark ? QColor(0xe3, 0x94, 0xc6) : QColor(0xb0, 0x4f, 0x8f);
    }
    return palette.color(QPalette::Text);
}

QColor tint(Tone tone, const QPalette &palette, qreal amount)
{
    const qreal t = isDark(palette) ? amount * 1.5 : amount;
    return mix(palette.color(QPalette::Base), strong(tone, palette), qMin<qreal>(t, 1.0));
}

QColor textOn(Tone tone, const QPalette &palette)
{
    return mix(palette.color(QPalette::Text), strong(tone, palette), isDark(palette) ? 0.35 : 0.55);
}

QColor libraryText(const QPalette &palette)
{
    return mix(palette.color(QPalette::Text), palette.color(QPalette::Base), isDark(palette) ? 0.38 : 0.42);
}

QColor modelText(const QPalette &palette)
{
    return isDark(palette) ? QColor(0x9c, 0xd2, 0xff) : QColor(0x0b, 0x4f, 0x8a);
}

QColor modelBackground(const QPalette &palette)
{
    return tint(Tone::Info, palette, 0.07);
}

QColor foldBackground(const QPalette &palette)
{
    return mix(palette.color(QPalette::Base), palette.color(QPalette::Window), 0.5);
}

QColor mutedText(const QPalette &palette)
{
    return mix(palette.color(QPalette::WindowText), palette.color(QPalette::Window), 0.45);
}

QColor gridLine(const QPalette &palette)
{
    return mix(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.12);
}

} // namespace tf::ui::theme
