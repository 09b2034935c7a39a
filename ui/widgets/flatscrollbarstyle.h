#pragma once

#include <QProxyStyle>

namespace tf::ui {

// Fusion with flat scroll bars: a plain groove, a rounded handle and small chevrons, in palette colours, at
// Fusion's own geometry (so hit testing, sizes and keyboard behaviour are Fusion's). Fusion paints its groove and
// handle with gradients, 0.2-1 ms per scroll bar per repaint in software rendering; a call switch repaints half a
// dozen of them, which made them a quarter of the window's painting.
class FlatScrollBarStyle : public QProxyStyle
{
    Q_OBJECT

public:
    explicit FlatScrollBarStyle(QStyle *base = nullptr); // takes ownership of `base`

    void drawComplexControl(ComplexControl control, const QStyleOptionComplex *option, QPainter *painter,
                            const QWidget *widget = nullptr) const override;
};

// The name of the style that draws, seen through any proxies ("fusion", "windows", ...; lower case).
QString drawingStyleName(const QStyle *style);

// Installs FlatScrollBarStyle over the application style when that style is Fusion (the style on Linux desktops
// without a platform theme, and offscreen); native styles keep their own scroll bars.
void installFlatScrollBars();

} // namespace tf::ui
