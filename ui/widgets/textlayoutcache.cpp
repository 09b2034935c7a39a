#include "ui/widgets/textlayoutcache.h"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QTextOption>

#include <algorithm>

namespace tf::ui {

QString elidedLine(const QString &text, const QFont &font, int widthPx, Qt::TextElideMode mode)
{
    const QFontMetrics fm(font);
    // Qt::TextLongestVariant: U+009C is an ordinary character here, as in the style's own elision (without the
    // flag, QFontMetrics would treat it as a separator of length variants; cell text is untrusted).
    const int flags = Qt::TextLongestVariant;
    if (mode == Qt::ElideRight) {
        // A prefix wider than the width elides to the same text as the whole; a prefix that fits proves nothing
        // (zero-width characters), so then the whole text is elided after all.
        const qsizetype enough = qsizetype(widthPx / qMax(1, fm.averageCharWidth() / 2)) + 8;
        if (text.size() > enough) {
            qsizetype cut = enough;
            if (text.at(cut - 1).isHighSurrogate())
                ++cut;
            const QString prefix = text.left(cut);
            const QString elided = fm.elidedText(prefix, mode, widthPx, flags);
            if (elided != prefix)
                return elided;
        }
    }
    return fm.elidedText(text, mode, widthPx, flags);
}

TextLayoutCache &TextLayoutCache::instance()
{
    static TextLayoutCache cache;
    // Layouts hold font engines: let them go while the application (and its font database) still exists.
    static const bool clearedAtExit = [] {
        qAddPostRoutine([] { TextLayoutCache::instance().m_lines.clear(); });
        return true;
    }();
    Q_UNUSED(clearedAtExit);
    return cache;
}

const TextLayoutCache::Line &TextLayoutCache::line(const QString &text, const QFont &font, int widthPx,
                                                   Qt::TextElideMode mode, Qt::Alignment alignment,
                                                   Qt::LayoutDirection direction)
{
    Key key{text, font, widthPx, mode, alignment.toInt(), direction};
    if (const Line *hit = m_lines.object(key))
        return *hit;
    auto entry = std::make_unique<Line>();
    QTextLayout &layout = entry->layout;
    layout.setText(elidedLine(text, font, widthPx, mode));
    layout.setFont(font);
    QTextOption option;
    option.setWrapMode(QTextOption::ManualWrap);
    option.setTextDirection(direction);
    option.setAlignment(alignment);
    layout.setTextOption(option);
    layout.setCacheEnabled(true); // keep the shaped glyphs for every later draw
    layout.beginLayout();
    QTextLine line = layout.createLine();
    if (line.isValid()) {
        line.setLineWidth(widthPx);
        line.setPosition(QPointF(0, 0));
        entry->height = line.height();
    }
    layout.endLayout();
    const Line &kept = *entry;
    // Costed by length: a cell can hold a whole tool result, and the key keeps its text. Never over the capacity:
    // QCache would delete the entry at once, and `kept` would dangle.
    const qsizetype cost = std::min<qsizetype>(1 + text.size() / kCostChars, kCapacity);
    m_lines.insert(std::move(key), entry.release(), cost); // QCache takes ownership
    return kept;
}

} // namespace tf::ui
