#include "ui/widgets/annotatedtextview.h"

#include "ui/services/qtstrings.h"
#include "ui/widgets/theme.h"

#include <QHelpEvent>
#include <QMimeData>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextLayout>
#include <QToolTip>

#include <algorithm>

namespace tf::ui {

namespace {

// Fewer lines than this in the view, and RevealAt::Center puts the line at the top.
constexpr int kFewLines = 5;

// The length of the line end at `i` as the text editor reads one (QTextCursor::insertText): "\r\n", or one of '\n',
// '\r', U+2029 and the frame marks U+FDD0 and U+FDD1; 0 when there is none.
int lineEndAt(const QString &text, int i)
{
    const char16_t c = text.at(i).unicode();
    if (c == u'\r')
        return i + 1 < text.size() && text.at(i + 1) == u'\n' ? 2 : 1;
    return c == u'\n' || c == 0x2029 || c == 0xFDD0 || c == 0xFDD1 ? 1 : 0;
}

// Where each line of `text` begins (`lineStarts`), the "\r\n" whose '\r' the document drops (`joined`, their
// positions), and the positions before which a long line is broken (`breaks`): after the last space or comma within
// the last eighth of every kLongLineUnits of a longer line, else at the limit, never inside a surrogate pair. Returns
// `text` with a line break inserted at each of `breaks`.
QString withLongLinesBroken(const QString &text, QList<int> &lineStarts, QList<int> &joined, QList<int> &breaks)
{
    constexpr int limit = AnnotatedTextView::kLongLineUnits;
    lineStarts = {0};
    joined.clear();
    breaks.clear();
    int lineStart = 0;
    for (int i = 0; i <= text.size(); ++i) {
        const int end = i < text.size() ? lineEndAt(text, i) : 0;
        if (i < text.size() && end == 0)
            continue;
        for (int partStart = lineStart; i - partStart > limit;) {
            int at = partStart + limit;
            for (int j = at; j > partStart + limit - limit / 8; --j)
                if (text.at(j - 1) == QLatin1Char(' ') || text.at(j - 1) == QLatin1Char(',')) {
                    at = j;
                    break;
                }
            if (text.at(at - 1).isHighSurrogate())
                --at;
            breaks.append(at);
            partStart = at;
        }
        if (end == 2)
            joined.append(i);
        if (i < text.size()) {
            lineStart = i + end;
            lineStarts.append(lineStart);
            i += end - 1;
        }
    }
    if (breaks.isEmpty())
        return text;
    QString shown;
    shown.reserve(text.size() + breaks.size());
    int from = 0;
    for (int at : breaks) {
        shown.append(QStringView(text).mid(from, at - from));
        shown.append(QLatin1Char('\n'));
        from = at;
    }
    shown.append(QStringView(text).mid(from));
    return shown;
}

int countBefore(const QList<int> &sorted, int position)
{
    return int(std::lower_bound(sorted.cbegin(), sorted.cend(), position) - sorted.cbegin());
}

} // namespace

class AnnotatedTextView::Gutter : public QWidget
{
public:
    explicit Gutter(AnnotatedTextView *view)
        : QWidget(view)
        , m_view(view)
    {
        setObjectName(QStringLiteral("gutter"));
    }

protected:
    void paintEvent(QPaintEvent *event) override { m_view->paintGutter(event); }
    bool event(QEvent *e) override
    {
        if (e->type() == QEvent::ToolTip) {
            auto *help = static_cast<QHelpEvent *>(e);
            const QTextCursor c = m_view->cursorForPosition(QPoint(0, help->pos().y()));
            const int block = m_view->textBlock(c.block().blockNumber());
            const QString tip = m_view->m_gutterToolTips.value(block);
            if (!tip.isEmpty())
                QToolTip::showText(help->globalPos(), toolTipText(tip), this);
            else
                QToolTip::hideText();
            return true;
        }
        return QWidget::event(e);
    }

private:
    AnnotatedTextView *m_view;
};

AnnotatedTextView::AnnotatedTextView(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_gutter(new Gutter(this))
{
    setReadOnly(true);
    setUndoRedoEnabled(false);
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    setFrameShape(QFrame::NoFrame);
    m_gutter->hide();
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect &rect, int dy) {
        if (!m_gutter->isVisible())
            return;
        if (dy)
            m_gutter->scroll(0, dy);
        else
            m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
    });
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, [this] {
        highlightCurrentLine();
        if (!m_quiet && !m_clicking)
            emit blockActivated(textBlock(textCursor().blockNumber()));
    });
}

void AnnotatedTextView::keyPressEvent(QKeyEvent *event)
{
    // A press whose release never came here (the selection dragged out of the view) is over.
    m_clicking = false;
    QPlainTextEdit::keyPressEvent(event);
}

void AnnotatedTextView::mousePressEvent(QMouseEvent *event)
{
    m_clicking = event->button() == Qt::LeftButton;
    QPlainTextEdit::mousePressEvent(event);
}

void AnnotatedTextView::mouseReleaseEvent(QMouseEvent *event)
{
    QPlainTextEdit::mouseReleaseEvent(event);
    if (!m_clicking || event->button() != Qt::LeftButton)
        return;
    m_clicking = false;
    // A click activates its line on release, the line the cursor was already on too (a fold at the top of a text just
    // set, where the cursor is: moving the cursor is what activates a line from the keyboard); a drag selects instead.
    if (!textCursor().hasSelection())
        emit blockActivated(textBlock(textCursor().blockNumber()));
}

void AnnotatedTextView::clearAll()
{
    setAnnotatedText(QString());
    setGutter({});
    setBlockNotes({});
}

QSize AnnotatedTextView::sizeHint() const
{
    QSize hint = QPlainTextEdit::sizeHint();
    if (m_yieldsHeight)
        hint.setHeight(minimumHeight() > 0 ? minimumHeight() : minimumSizeHint().height());
    return hint;
}

void AnnotatedTextView::setAnnotatedText(const QString &text, const QList<Range> &ranges,
                                         const QHash<int, BlockStyle> &blockStyles)
{
    const QSignalBlocker blocker(this);
    m_text = text;
    QList<int> lineStarts;
    // The text's own colour is the document's: setPlainText() gives the whole text the current char format, in one
    // pass it makes anyway. The palette stays as it is, for the gutter's lines and the scroll bars. With a selection,
    // setCurrentCharFormat() would format the selected text instead, and setPlainText() take the format of the text
    // at the cursor.
    if (QTextCursor cursor = textCursor(); cursor.hasSelection()) {
        cursor.clearSelection();
        setTextCursor(cursor);
    }
    QTextCharFormat own;
    if (m_textColour.isValid())
        own.setForeground(m_textColour);
    setCurrentCharFormat(own);
    m_clicking = false; // a release now is not on a line of this text
    setPlainText(withLongLinesBroken(text, lineStarts, m_joined, m_breaks));
    m_firstPart.clear();
    if (!m_breaks.isEmpty()) {
        m_firstPart.reserve(lineStarts.size());
        for (int line = 0; line < lineStarts.size(); ++line)
            m_firstPart.append(line + countBefore(m_breaks, lineStarts.at(line)));
    }
    m_toolTipRanges.clear();
    m_markers.clear();
    m_backgrounds.clear();
    m_cursorBlock = -1;
    m_cursorPending = false;
    // Formats go on each line's layout as additional formats (as QSyntaxHighlighter applies them) and backgrounds
    // are painted here: merging char and block formats into the document, range by range, was most of the cost of
    // showing a findings piece, and every edit relaid the document out. The lines and where they start are read once,
    // walking the document: looking each range's line up by position, and each line's position, was a sixth of this.
    QList<QTextBlock> lines;
    QList<int> starts; // document position of each line
    lines.reserve(document()->blockCount());
    starts.reserve(document()->blockCount());
    for (QTextBlock block = document()->begin(); block.isValid(); block = block.next()) {
        starts.append(starts.isEmpty() ? 0 : starts.last() + lines.last().length());
        lines.append(block);
    }
    QList<QList<QTextLayout::FormatRange>> formats(lines.size());
    for (auto it = blockStyles.cbegin(); it != blockStyles.cend(); ++it) {
        const int first = displayBlock(it.key());
        const int last = m_firstPart.isEmpty()               ? first
                         : it.key() + 1 < m_firstPart.size() ? m_firstPart.at(it.key() + 1) - 1
                                                             : int(lines.size()) - 1;
        for (int n = qMax(0, first); n <= last && n < lines.size(); ++n) {
            if (it->background.isValid())
                m_backgrounds.insert(n, it->background);
            if (it->hasFormat)
                formats[n].append({0, lines.at(n).length() - 1, it->format});
            if (it->marker.isValid())
                m_markers.insert(n, it->marker);
        }
    }
    const int end = qMax(0, document()->characterCount() - 1);
    for (const Range &r : ranges) {
        if (r.length <= 0 || r.begin < 0 || r.begin >= text.size())
            continue;
        const int begin = displayPosition(r.begin);
        const int stop = qMin(end, displayEndPosition(qMin(int(text.size()), r.begin + r.length)));
        // A range may span lines: each line's layout gets its part.
        for (auto n = qsizetype(std::upper_bound(starts.cbegin(), starts.cend(), begin) - starts.cbegin()) - 1;
             n >= 0 && n < lines.size() && starts.at(n) < stop; ++n) {
            const int from = qMax(begin, starts.at(n));
            const int to = qMin(stop, starts.at(n) + lines.at(n).length() - 1);
            if (to > from)
                formats[n].append({from - starts.at(n), to - from, r.format});
        }
        if (!r.toolTip.isEmpty())
            m_toolTipRanges.append(r);
    }
    bool anyFormat = false;
    for (qsizetype n = 0; n < lines.size(); ++n)
        if (!formats.at(n).isEmpty()) {
            lines.at(n).layout()->setFormats(formats.at(n));
            anyFormat = true;
        }
    if (anyFormat)
        document()->markContentsDirty(0, document()->characterCount());
    std::sort(m_toolTipRanges.begin(), m_toolTipRanges.end(),
              [](const Range &a, const Range &b) { return a.begin < b.begin; });
    // setPlainText() left the cursor at the start (moving it there again would lay lines out to show it).
    viewport()->update();
}

int AnnotatedTextView::displayPosition(int position) const
{
    // The breaks at `position` are before it; each "\r\n" before it is one character of the document.
    return position - countBefore(m_joined, position) + countBefore(m_breaks, position + 1);
}

bool AnnotatedTextView::showsText() const
{
    return document()->characterCount() - 1 == m_text.size() - m_joined.size() + m_breaks.size();
}

int AnnotatedTextView::displayEndPosition(int position) const
{
    return position - countBefore(m_joined, position) + countBefore(m_breaks, position);
}

int AnnotatedTextView::textPosition(int displayPosition) const
{
    if (m_breaks.isEmpty() && m_joined.isEmpty())
        return displayPosition;
    // The first position of the text shown at or after the document's `displayPosition` (displayPosition() only grows).
    int lo = 0, hi = int(m_text.size());
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (this->displayPosition(mid) < displayPosition)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int AnnotatedTextView::displayBlock(int textBlock) const
{
    return m_firstPart.isEmpty() ? textBlock : m_firstPart.value(textBlock, textBlock + int(m_breaks.size()));
}

int AnnotatedTextView::textBlock(int displayBlock) const
{
    if (m_firstPart.isEmpty())
        return displayBlock;
    return int(std::upper_bound(m_firstPart.cbegin(), m_firstPart.cend(), displayBlock) - m_firstPart.cbegin()) - 1;
}

QMimeData *AnnotatedTextView::createMimeDataFromSelection() const
{
    const QTextCursor c = textCursor();
    if (!c.hasSelection() || !showsText())
        return QPlainTextEdit::createMimeDataFromSelection();
    // The text as set: the breaks of long lines are the view's, and a "\r\n" is the recording's, not a '\n'.
    const int from = textPosition(c.selectionStart());
    const int to = textPosition(c.selectionEnd());
    auto *mime = new QMimeData; // the caller (the clipboard, a drag) owns it
    mime->setText(m_text.mid(from, to - from));
    return mime;
}

void AnnotatedTextView::setGutter(const QStringList &labels, const QStringList &toolTips)
{
    m_gutterLabels = labels;
    m_gutterToolTips = toolTips;
    m_gutter->setVisible(!labels.isEmpty());
    updateGutterGeometry();
    m_gutter->update();
}

void AnnotatedTextView::revealBlock(int blockNumber, RevealAt at)
{
    const int shown = displayBlock(blockNumber);
    const QTextBlock block = document()->findBlockByNumber(shown);
    if (!block.isValid())
        return;
    m_cursorBlock = blockNumber;
    m_cursorPending = true;
    if (at == RevealAt::Top) {
        const QTextBlock above = document()->findBlockByNumber(displayBlock(qMax(0, blockNumber - 2)));
        verticalScrollBar()->setValue(above.firstLineNumber());
    } else {
        // A view a few lines high shows the line itself first: centred, a wrapped line above it may fill the view.
        const int visibleLines = qMax(1, viewport()->height() / qMax(1, fontMetrics().lineSpacing()));
        const int above = visibleLines < kFewLines ? 0 : visibleLines / 2;
        verticalScrollBar()->setValue(qMax(0, block.firstLineNumber() - above));
    }
    viewport()->update();
}

void AnnotatedTextView::placeCursor(int blockNumber)
{
    const QTextBlock block = document()->findBlockByNumber(displayBlock(blockNumber));
    if (!block.isValid())
        return;
    m_cursorPending = false;
    const int scroll = verticalScrollBar()->value();
    m_quiet = true;
    setTextCursor(QTextCursor(block));
    m_quiet = false;
    verticalScrollBar()->setValue(scroll); // the reader's place stays where it is
}

void AnnotatedTextView::focusInEvent(QFocusEvent *event)
{
    if (m_cursorPending)
        placeCursor(m_cursorBlock);
    QPlainTextEdit::focusInEvent(event);
}

void AnnotatedTextView::setBlockNotes(const QHash<int, QString> &notes)
{
    m_notes = notes;
    viewport()->update();
}

QString AnnotatedTextView::toolTipAt(int position) const
{
    for (const Range &r : m_toolTipRanges)
        if (position >= r.begin && position < r.begin + r.length)
            return r.toolTip;
    return {};
}

int AnnotatedTextView::gutterWidth() const
{
    if (m_gutterLabels.isEmpty())
        return 0;
    // Measured: the longest labels only (labels are short ids and numbers; a line quoting many rows is the widest).
    qsizetype longest = 0;
    for (const QString &l : m_gutterLabels)
        longest = qMax(longest, l.size());
    int widest = 0;
    const QFontMetrics fm(font());
    for (const QString &l : m_gutterLabels)
        if (l.size() + 2 >= longest)
            widest = qMax(widest, fm.horizontalAdvance(l));
    return qMin(widest, fm.horizontalAdvance(QLatin1Char('0')) * 9) + 14;
}

void AnnotatedTextView::updateGutterGeometry()
{
    const int w = m_gutter->isHidden() ? 0 : gutterWidth();
    if (viewportMargins().left() != w) // setting them lays the view out again, even unchanged
        setViewportMargins(w, 0, 0, 0);
    const QRect cr = contentsRect();
    m_gutter->setGeometry(QRect(cr.left(), cr.top(), w, cr.height()));
}

void AnnotatedTextView::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    updateGutterGeometry();
}

void AnnotatedTextView::changeEvent(QEvent *event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        updateGutterGeometry();
}

void AnnotatedTextView::paintGutter(QPaintEvent *event)
{
    QPainter p(m_gutter);
    const QPalette pal = palette();
    p.fillRect(event->rect(), theme::mix(pal.color(QPalette::Base), pal.color(QPalette::Window), 0.6));
    p.setPen(theme::gridLine(pal));
    p.drawLine(m_gutter->width() - 1, event->rect().top(), m_gutter->width() - 1, event->rect().bottom());
    p.setFont(font());
    p.setPen(theme::mutedText(pal));
    const QFontMetrics fm(font());
    QTextBlock block = firstVisibleBlock();
    const QPointF offset = contentOffset();
    while (block.isValid()) {
        const QRectF r = blockBoundingGeometry(block).translated(offset);
        if (r.top() > event->rect().bottom())
            break;
        // On a long line's first part only.
        const int line = textBlock(block.blockNumber());
        const QString label = displayBlock(line) == block.blockNumber() ? m_gutterLabels.value(line) : QString();
        if (!label.isEmpty() && r.bottom() >= event->rect().top())
            p.drawText(QRectF(0, r.top(), m_gutter->width() - 7, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                       fm.elidedText(label, Qt::ElideRight, m_gutter->width() - 8));
        block = block.next();
    }
}

void AnnotatedTextView::paintBackgrounds(const QRect &area)
{
    if (m_backgrounds.isEmpty() && m_cursorBlock < 0)
        return;
    QPainter p(viewport());
    const QColor cursorLine = theme::mix(palette().color(QPalette::Base), palette().color(QPalette::Highlight), 0.1);
    const QPointF offset = contentOffset();
    for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
        const QRectF r = blockBoundingGeometry(block).translated(offset);
        if (r.top() > area.bottom())
            break;
        const int n = block.blockNumber();
        const QColor fill = m_cursorBlock >= 0 && textBlock(n) == m_cursorBlock ? cursorLine : m_backgrounds.value(n);
        if (fill.isValid())
            p.fillRect(QRectF(0, r.top(), viewport()->width(), r.height()), fill);
    }
}

void AnnotatedTextView::paintEvent(QPaintEvent *event)
{
    // Behind the text: the viewport has painted its base colour; the text is drawn over what is painted here.
    paintBackgrounds(event->rect());
    QPlainTextEdit::paintEvent(event);
    if (m_markers.isEmpty() && m_notes.isEmpty())
        return;
    QPainter p(viewport());
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.88);
    small.setBold(false);
    small.setItalic(false);
    p.setFont(small);
    const QFontMetricsF fm(small);
    QTextBlock block = firstVisibleBlock();
    const QPointF offset = contentOffset();
    const qreal right = viewport()->width() - 8;
    while (block.isValid()) {
        const QRectF r = blockBoundingGeometry(block).translated(offset);
        if (r.top() > event->rect().bottom())
            break;
        const auto marker = m_markers.constFind(block.blockNumber());
        if (marker != m_markers.cend())
            p.fillRect(QRectF(0, r.top(), 3, r.height()), *marker);
        const int line = textBlock(block.blockNumber());
        const auto note = displayBlock(line) == block.blockNumber() ? m_notes.constFind(line) : m_notes.cend();
        if (note != m_notes.cend() && block.layout() && block.layout()->lineCount() > 0) {
            // Only where the line leaves room: the note never covers text.
            const QTextLine last = block.layout()->lineAt(0);
            const qreal textEnd = r.left() + last.naturalTextWidth() + 24;
            const qreal w = fm.horizontalAdvance(*note);
            if (right - w > textEnd) {
                p.setPen(theme::mutedText(palette()));
                p.drawText(QRectF(right - w, r.top(), w, last.height()), Qt::AlignRight | Qt::AlignVCenter, *note);
            }
        }
        block = block.next();
    }
}

bool AnnotatedTextView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QTextCursor c = cursorForPosition(help->pos());
        // cursorForPosition gives the nearest gap between characters: look at the characters on both sides.
        const int at = textPosition(c.position());
        QString tip = toolTipAt(at);
        if (tip.isEmpty() && at > 0)
            tip = toolTipAt(at - 1);
        if (!tip.isEmpty())
            QToolTip::showText(help->globalPos(), toolTipText(tip), viewport());
        else
            QToolTip::hideText();
        return true;
    }
    return QPlainTextEdit::viewportEvent(event);
}

void AnnotatedTextView::highlightCurrentLine()
{
    // Painted by paintBackgrounds(); an extra selection would lay out the lines it covers on every move.
    m_cursorBlock = textBlock(textCursor().blockNumber());
    viewport()->update();
}

} // namespace tf::ui
