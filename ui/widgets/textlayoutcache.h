#pragma once

#include <QCache>
#include <QFont>
#include <QString>
#include <QTextLayout>

#include <memory>

namespace tf::ui {

// One-line cell texts elided and laid out once, then kept: the item views repaint every visible cell on each call
// switch, and the style lays a cell's text out three times per repaint (to size it, to elide it, to draw it), which
// was most of the cost of a switch. An entry is the same QTextLayout QCommonStyle builds for the cell (same text
// option, same line width, glyphs shaped once), so what is drawn is what the style would draw. GUI thread only.
class TextLayoutCache
{
public:
    struct Line
    {
        QTextLayout layout; // the elided text, one line of width widthPx, positioned at (0, 0)
        qreal height = 0;
    };

    // The text elided to `widthPx` as the style elides a cell's text (elidedLine()), laid out in `font` with
    // `alignment` (visual, horizontal) in a paragraph of `direction` (the view's, as the style does; never guessed from
    // the text). Plain text: cell text is model and tool output, never markup.
    const Line &line(const QString &text, const QFont &font, int widthPx, Qt::TextElideMode mode,
                     Qt::Alignment alignment, Qt::LayoutDirection direction);

    static TextLayoutCache &instance();

    // A full window shows a few hundred cells. An entry costs 1 per started kCostChars of its text, so the cache
    // holds 4096 short cells or correspondingly fewer long ones.
    static constexpr int kCostChars = 256;
    static constexpr int kCapacity = 4096;

private:
    struct Key
    {
        QString text;
        QFont font;
        int widthPx;
        Qt::TextElideMode mode;
        Qt::Alignment::Int alignment;
        Qt::LayoutDirection direction;
        bool operator==(const Key &other) const = default;
    };
    friend size_t qHash(const Key &key, size_t seed) noexcept
    {
        return qHashMulti(seed, key.text, key.font, key.widthPx, int(key.mode), key.alignment, int(key.direction));
    }

    QCache<Key, Line> m_lines{kCapacity};
};

// What QFontMetrics::elidedText(text, mode, widthPx, Qt::TextLongestVariant) returns, without laying out more of a
// long text than the width can show (a cell may hold a whole tool result; only its first few hundred characters can
// be visible). Bidi controls past the cut are dropped where elidedText would keep them after the ellipsis; they
// draw nothing.
QString elidedLine(const QString &text, const QFont &font, int widthPx, Qt::TextElideMode mode);

} // namespace tf::ui
