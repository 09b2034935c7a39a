// Build-time host tool: renders the scalable app icon to the fixed-size raster icons the desktop needs
// (hicolor PNGs on Linux, the iconset for the macOS .icns, the Windows .ico).
//   tracefold-rendericon IN.svg SIZE OUT [SIZE OUT ...]
// The output format follows OUT's suffix (png, ico). Never installed.
#include <QImage>
#include <QPainter>
#include <QStringList>
#include <QSvgRenderer>

#include <cstdio>

int main(int argc, char *argv[])
{
    // No QGuiApplication: raster painting of paths and gradients needs none, and a build machine has no display.
    // (Text in the SVG would need one for fonts; the icon has none, and an icon should not.)
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    if (args.size() < 4 || args.size() % 2 != 0) {
        std::fprintf(stderr, "usage: tracefold-rendericon IN.svg SIZE OUT [SIZE OUT ...]\n");
        return 2;
    }
    QSvgRenderer renderer(args.at(1));
    if (!renderer.isValid()) {
        std::fprintf(stderr, "tracefold-rendericon: cannot read %s\n", qPrintable(args.at(1)));
        return 1;
    }
    for (qsizetype i = 2; i + 1 < args.size(); i += 2) {
        bool ok = false;
        const int size = args.at(i).toInt(&ok);
        if (!ok || size <= 0 || size > 4096) {
            std::fprintf(stderr, "tracefold-rendericon: bad size %s\n", qPrintable(args.at(i)));
            return 2;
        }
        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        {
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            painter.setRenderHint(QPainter::SmoothPixmapTransform);
            // A non-square SVG is centred in the square instead of stretched.
            QSizeF viewBox = renderer.viewBoxF().size();
            if (viewBox.isEmpty())
                viewBox = QSizeF(renderer.defaultSize());
            const QSizeF fitted = viewBox.scaled(QSizeF(size, size), Qt::KeepAspectRatio);
            renderer.render(&painter,
                            QRectF(QPointF((size - fitted.width()) / 2, (size - fitted.height()) / 2), fitted));
        }
        if (!image.save(args.at(i + 1))) {
            std::fprintf(stderr, "tracefold-rendericon: cannot write %s\n", qPrintable(args.at(i + 1)));
            return 1;
        }
    }
    return 0;
}
