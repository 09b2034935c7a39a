#pragma once

#include <QColor>
#include <QHash>
#include <QList>
#include <QPlainTextEdit>
#include <QTextCharFormat>

class QMimeData;

namespace tf::ui {

// A read-only QPlainTextEdit for untrusted text: the text is always plain; colour comes from QTextCharFormat ranges
// and block backgrounds, tooltips from plain strings attached to ranges, and an optional gutter shows a short label
// per line (ledger rows quoted, diff line numbers). Nothing is ever interpreted as markup.
//
// A line longer than kLongLineUnits is shown in parts, each a line of the document of its own, broken after a space
// or comma near the limit: the editor lays a line out whole as soon as any of it is in sight, and a tool result is
// often one line of a hundred thousand characters (45 ms to show, where parts of 2,048 take 4). The parts wrap as the
// line would; what is copied, searched and given by text() is the text as set, and every position and line number
// this class takes or gives is one of that text, not of the parts.
class AnnotatedTextView : public QPlainTextEdit
{
    Q_OBJECT

public:
    struct Range
    {
        int begin = 0; // position in the text ('\n' separates blocks, one position each)
        int length = 0;
        QTextCharFormat format;
        QString toolTip; // plain text; empty for none
    };
    struct BlockStyle
    {
        QColor background;      // invalid: none
        QColor marker;          // a bar at the left edge of the line; invalid: none
        QTextCharFormat format; // merged over the whole line
        bool hasFormat = false;
    };

    static constexpr int kLongLineUnits = 2048;

    explicit AnnotatedTextView(QWidget *parent = nullptr);

    // The text as set (without the breaks of long lines), and where a position of it is in the document: the start
    // of what follows it, or (displayEndPosition) the end of what precedes it, which differ at a break.
    const QString &text() const { return m_text; }
    int displayPosition(int position) const;
    int displayEndPosition(int position) const;
    // Whether the document shows text() (false after QPlainTextEdit's own setPlainText or clear, which bypass it).
    bool showsText() const;

    void setAnnotatedText(const QString &text, const QList<Range> &ranges = {},
                          const QHash<int, BlockStyle> &blockStyles = {});
    void setGutter(const QStringList &labels, const QStringList &toolTips = {});
    // Short notes drawn right-aligned on a line (e.g. "3 of 80 lines" on a section heading); not part of the text.
    void setBlockNotes(const QHash<int, QString> &notes);
    // The colour of the text no range or block style covers (invalid: the palette's Text), from the next
    // setAnnotatedText() on: the colour most of a text is in then needs no format on each of its lines.
    void setTextColour(const QColor &colour) { m_textColour = colour; }
    void clearAll();
    // Asks a layout for no more than its minimum height (its compact height): the parts above it in the pane get
    // what they need first, and it takes the rest.
    void setYieldsHeight(bool yields)
    {
        m_yieldsHeight = yields;
        updateGeometry();
    }
    QSize sizeHint() const override;

    // The ranges that carry a tooltip, for tests and for keyboard users (F1 on a range shows it).
    const QList<Range> &toolTipRanges() const { return m_toolTipRanges; }
    QString toolTipAt(int position) const;

    // Scrolls so that `blockNumber` is near the top (a little context above), or in the middle, and highlights it as
    // the cursor line, without emitting blockActivated. The text cursor follows when the view takes focus: placing
    // it now would lay out every line above it, which is most of a call switch's cost in a long piece.
    enum class RevealAt
    {
        Top,
        Center
    };
    void revealBlock(int blockNumber, RevealAt at = RevealAt::Top);
    // Puts the text cursor at the start of a line of the text, without emitting blockActivated or scrolling: the
    // reader's place in a text set again (a fold opened) where the keyboard goes on from.
    void placeCursor(int blockNumber);

signals:
    // A line of the text clicked, or the cursor moved onto it from the keyboard.
    void blockActivated(int blockNumber);

protected:
    QMimeData *createMimeDataFromSelection() const override;
    bool viewportEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;

private:
    class Gutter;
    friend class Gutter;
    int gutterWidth() const;
    void updateGutterGeometry();
    void paintGutter(QPaintEvent *event);
    // Positions and line numbers of the text as set against those of the document (identities when no line is long).
    int textPosition(int displayPosition) const;
    int displayBlock(int textBlock) const;
    int textBlock(int displayBlock) const;
    void paintBackgrounds(const QRect &area);
    void highlightCurrentLine();

    bool m_yieldsHeight = false;
    Gutter *m_gutter = nullptr;
    QStringList m_gutterLabels;
    QStringList m_gutterToolTips;
    QString m_text;
    QList<int> m_breaks;              // positions of m_text before which the document has a line break of its own
    QList<int> m_joined;              // positions of the "\r\n" in m_text, one character in the document
    QList<int> m_firstPart;           // per line of m_text, the document's line its first part is (empty: no breaks)
    QColor m_textColour;              // setTextColour(); invalid: the palette's Text
    QList<Range> m_toolTipRanges;     // positions of m_text
    QHash<int, QColor> m_markers;     // document line -> marker
    QHash<int, QColor> m_backgrounds; // document line -> full-width background
    int m_cursorBlock = -1;           // the line of m_text the cursor was put on, highlighted; -1: none
    bool m_cursorPending = false;     // m_cursorBlock was revealed; the text cursor goes there on focus
    QHash<int, QString> m_notes;
    bool m_quiet = false;
    bool m_clicking = false; // the left button is down: the line is activated when it is released
};

} // namespace tf::ui
