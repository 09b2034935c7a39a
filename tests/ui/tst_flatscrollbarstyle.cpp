// FlatScrollBarStyle: installed over Fusion only, Fusion's geometry kept, and a flat drawing that actually shows the
// handle where Fusion puts it and a chevron in each arrow button.

#include "ui/widgets/flatscrollbarstyle.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QScrollBar>
#include <QStyleFactory>
#include <QStyleOptionSlider>
#include <QTest>

#include <memory>

using namespace tf::ui;

namespace {

QStyleOptionSlider sliderOption(const QScrollBar &bar)
{
    QStyleOptionSlider opt;
    opt.initFrom(&bar);
    opt.orientation = bar.orientation();
    opt.minimum = bar.minimum();
    opt.maximum = bar.maximum();
    opt.pageStep = bar.pageStep();
    opt.singleStep = bar.singleStep();
    opt.sliderPosition = bar.sliderPosition();
    opt.sliderValue = bar.value();
    opt.subControls = QStyle::SC_All;
    return opt;
}

QImage painted(const QScrollBar &bar, const QStyle &style)
{
    QImage image(bar.size(), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::magenta);
    QPainter p(&image);
    const QStyleOptionSlider opt = sliderOption(bar);
    style.drawComplexControl(QStyle::CC_ScrollBar, &opt, &p, &bar);
    return image;
}

// How many pixels of `rect` differ from `color`.
int differing(const QImage &image, const QRect &rect, QRgb color)
{
    int n = 0;
    for (int y = rect.top(); y <= rect.bottom(); ++y)
        for (int x = rect.left(); x <= rect.right(); ++x)
            n += image.pixel(x, y) != color;
    return n;
}

} // namespace

class TestFlatScrollBarStyle : public QObject
{
    Q_OBJECT

private slots:
    void installsOverFusionOnly();
    void keepsFusionGeometry_data();
    void keepsFusionGeometry();
    void drawsHandleAndChevrons_data();
    void drawsHandleAndChevrons();
};

void TestFlatScrollBarStyle::installsOverFusionOnly()
{
    QApplication::setStyle(QStringLiteral("Windows"));
    installFlatScrollBars();
    QVERIFY(!qobject_cast<FlatScrollBarStyle *>(QApplication::style()));
    QCOMPARE(drawingStyleName(QApplication::style()), QStringLiteral("windows"));

    QApplication::setStyle(QStringLiteral("Fusion"));
    installFlatScrollBars();
    QVERIFY(qobject_cast<FlatScrollBarStyle *>(QApplication::style()));
    // Item delegates ask which style draws: Fusion, through the proxy.
    QCOMPARE(drawingStyleName(QApplication::style()), QStringLiteral("fusion"));
    QStyle *installed = QApplication::style();
    installFlatScrollBars(); // once is enough
    QCOMPARE(QApplication::style(), installed);
}

void TestFlatScrollBarStyle::keepsFusionGeometry_data()
{
    QTest::addColumn<int>("orientation");
    QTest::addColumn<int>("value");
    QTest::newRow("vertical, top") << int(Qt::Vertical) << 0;
    QTest::newRow("vertical, middle") << int(Qt::Vertical) << 500;
    QTest::newRow("horizontal, end") << int(Qt::Horizontal) << 1000;
}

void TestFlatScrollBarStyle::keepsFusionGeometry()
{
    QFETCH(int, orientation);
    QFETCH(int, value);
    const std::unique_ptr<QStyle> fusion(QStyleFactory::create(QStringLiteral("Fusion")));
    FlatScrollBarStyle flat(QStyleFactory::create(QStringLiteral("Fusion")));
    QScrollBar bar{Qt::Orientation(orientation)};
    bar.resize(orientation == Qt::Vertical ? QSize(14, 300) : QSize(300, 14));
    bar.setRange(0, 1000);
    bar.setPageStep(100);
    bar.setValue(value);
    const QStyleOptionSlider opt = sliderOption(bar);
    for (QStyle::SubControl sc : {QStyle::SC_ScrollBarSlider, QStyle::SC_ScrollBarAddLine, QStyle::SC_ScrollBarSubLine,
                                  QStyle::SC_ScrollBarGroove})
        QCOMPARE(flat.subControlRect(QStyle::CC_ScrollBar, &opt, sc, &bar),
                 fusion->subControlRect(QStyle::CC_ScrollBar, &opt, sc, &bar));
    const QRect slider = fusion->subControlRect(QStyle::CC_ScrollBar, &opt, QStyle::SC_ScrollBarSlider, &bar);
    QCOMPARE(flat.hitTestComplexControl(QStyle::CC_ScrollBar, &opt, slider.center(), &bar), QStyle::SC_ScrollBarSlider);
}

void TestFlatScrollBarStyle::drawsHandleAndChevrons_data()
{
    QTest::addColumn<int>("value");
    QTest::newRow("top") << 0;
    QTest::newRow("middle") << 500;
    QTest::newRow("bottom") << 1000;
}

void TestFlatScrollBarStyle::drawsHandleAndChevrons()
{
    QFETCH(int, value);
    FlatScrollBarStyle flat(QStyleFactory::create(QStringLiteral("Fusion")));
    QScrollBar bar(Qt::Vertical);
    bar.resize(14, 300);
    bar.setRange(0, 1000);
    bar.setPageStep(100);
    bar.setValue(value);
    const QImage image = painted(bar, flat);
    const QStyleOptionSlider opt = sliderOption(bar);
    const QRect slider = flat.subControlRect(QStyle::CC_ScrollBar, &opt, QStyle::SC_ScrollBarSlider, &bar);
    const QRect addLine = flat.subControlRect(QStyle::CC_ScrollBar, &opt, QStyle::SC_ScrollBarAddLine, &bar);
    const QRect subLine = flat.subControlRect(QStyle::CC_ScrollBar, &opt, QStyle::SC_ScrollBarSubLine, &bar);

    // Everything is painted over (no magenta left), in the groove colour but where something is drawn.
    QCOMPARE(differing(image, image.rect(), qRgb(255, 0, 255)), image.width() * image.height());
    const QRgb groove = image.pixel(image.width() - 2, value < 500 ? addLine.top() - 4 : subLine.bottom() + 4);
    // The handle is where Fusion puts it, and only there.
    QVERIFY(image.pixel(slider.center()) != groove);
    const QRect away = value < 500 ? QRect(0, slider.bottom() + 3, 14, 10) : QRect(0, slider.top() - 13, 14, 10);
    QCOMPARE(differing(image, away.adjusted(1, 0, 0, 0), groove), 0);
    // A chevron in each arrow button.
    QVERIFY(differing(image, subLine.adjusted(1, 0, 0, 0), groove) > 3);
    QVERIFY(differing(image, addLine.adjusted(1, 0, 0, 0), groove) > 3);
}

QTEST_MAIN(TestFlatScrollBarStyle)
#include "tst_flatscrollbarstyle.moc"
