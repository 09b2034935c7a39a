#pragma once

#include <QColor>
#include <QHash>
#include <QList>
#include <QPlainTextEdit>
#include <QTextCharFormat>

namespace tf::ui {

// A read-only QPlainTextEdit for untrusted text: the text is always plain; colour comes from QTextCharFormat ranges
// and block backgrounds, tooltips from plain strings attached to ranges, and an optional gutter shows a short label
// per line (ledger rows quoted, diff line numbers). Nothing is ever interpreted as markup.
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

    explicit AnnotatedTextView(QWidget *parent = nullptr);

    void setAnnotatedText(const QString &text, const QList<Range> &ranges = {},
                          const QHash<int, BlockStyle> &blockStyles = {});
    void setGutter(const QStringList &labels, const QStringList &toolTips = {});
    // Short notes drawn right-aligned on a line (e.g. "3 of 80 lines" on a section heading); not part of the text.
    void setBlockNotes(const QHash<int, QString> &notes);
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

signals:
    void blockActivated(int blockNumber);

protected:
    bool viewportEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;

private:
    class Gutter;
    friend class Gutter;
    int gutterWidth() const;
    void updateGutterGeometry();
    void paintGutter(QPaintEvent *event);
    void paintBackgrounds(const QRect &area);
    void highlightCurrentLine();

    bool m_yieldsHeight = false;
    Gutter *m_gutter = nullptr;
    QStringList m_gutterLabels;
    QStringList m_gutterToolTips;
    QList<Range> m_toolTipRanges;
    QHash<int, QColor> m_markers;
    QHash<int, QColor> m_backgrounds; // block number -> full-width background
    int m_cursorBlock = -1;           // the line the cursor was put on, highlighted; -1: none
    bool m_cursorPending = false;     // m_cursorBlock was revealed; the text cursor goes there on focus
    QHash<int, QString> m_notes;
    bool m_quiet = false;
};

} // namespace tf::ui
