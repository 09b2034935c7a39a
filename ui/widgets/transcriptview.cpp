#include "ui/widgets/transcriptview.h"

#include "ui/models/transcriptmodel.h"
#include "ui/services/qtstrings.h"
#include "ui/widgets/chippainter.h"
#include "ui/widgets/fonts.h"
#include "ui/widgets/glyphs.h"
#include "ui/widgets/onscreen.h"
#include "ui/widgets/theme.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QTextOption>

#include <cmath>

namespace tf::ui {

using Kind = TranscriptModel::Kind;
using theme::Tone;

namespace {

constexpr int kMargin = 8; // around each bubble
constexpr int kPadX = 10;  // inside a bubble
constexpr int kPadY = 6;
constexpr int kToolIndent = 22; // tool results sit under the assistant that asked for them
constexpr int kNewBar = 3;
// When folded, at most this much of a text is laid out: the first lines are all a folded bubble shows.
constexpr qsizetype kFoldedChars = 1200;

QFont smaller(const QFont &f, qreal factor)
{
    QFont out = f;
    out.setPointSizeF(f.pointSizeF() * factor);
    return out;
}

} // namespace

TranscriptDelegate::TranscriptDelegate(QListView *view)
    : QStyledItemDelegate(view)
    , m_view(view)
{
}

const TranscriptDelegate::Bubble &TranscriptDelegate::bubbleFor(const QStyleOptionViewItem &option,
                                                                const QModelIndex &index) const
{
    const int width = std::max(120, m_view->viewport()->width());
    const bool expanded = index.data(TranscriptModel::ExpandedRole).toBool();
    const QString key =
        QStringLiteral("%1/%2/%3/%4").arg(index.row()).arg(width).arg(expanded ? 1 : 0).arg(option.font.key());
    if (Bubble *cached = m_layouts.object(key))
        return *cached;

    auto b = std::make_unique<Bubble>();
    b->kind = int(index.data(TranscriptModel::KindRole).value<Kind>());
    b->isNew = index.data(TranscriptModel::NewRole).toBool();
    b->collapsed = index.data(TranscriptModel::CollapsedRole).toBool();
    b->error = index.data(TranscriptModel::ToolErrorRole).toBool();
    b->header = index.data(TranscriptModel::HeaderRole).toString();
    b->toolCalls = index.data(TranscriptModel::ToolCallsRole).toStringList();
    if (b->isNew)
        b->chips << Chip{tr("new"), Tone::Accent};
    if (b->collapsed)
        b->chips << Chip{tr("collapsed · %1").arg(index.data(TranscriptModel::StandingRole).toString()), Tone::Warn};
    if (b->error)
        b->chips << Chip{tr("tool error"), Tone::Bad};
    if (index.data(TranscriptModel::StrippedRole).toBool())
        b->chips << Chip{tr("stripped"), Tone::Info, true};
    if (index.data(TranscriptModel::RedactedRole).toBool())
        b->chips << Chip{tr("redacted"), Tone::Neutral, true};

    const qreal avail = width - 2 * kMargin - kNewBar;
    qreal left = kMargin + kNewBar, bubbleWidth = avail;
    switch (Kind(b->kind)) {
    case Kind::User:
        bubbleWidth = avail * 0.86;
        left += avail - bubbleWidth;
        break;
    case Kind::Assistant:
        bubbleWidth = avail * 0.86;
        break;
    case Kind::ToolResult:
        left += kToolIndent;
        bubbleWidth = avail * 0.86 - kToolIndent;
        break;
    case Kind::System:
    case Kind::Other:
        break;
    }
    const qreal textWidth = std::max(40.0, bubbleWidth - 2 * kPadX);

    const QFont headerFont = smaller(option.font, 0.9);
    const qreal headerHeight =
        std::max(QFontMetricsF(headerFont).height(), QFontMetricsF(chipFont(option.font)).height() + 3) + 2;
    const bool fixed = Kind(b->kind) == Kind::ToolResult || b->collapsed;
    const QFont bodyFont =
        fixed ? smaller(fonts::fixedPitch(),
                        option.font.pointSizeF() / std::max(1.0, fonts::fixedPitch().pointSizeF()) * 0.95)
              : option.font;

    const bool foldable = index.data(TranscriptModel::FoldableRole).toBool();
    const bool folded = foldable && !expanded;
    QString text = index.data(TranscriptModel::BodyRole).toString();
    const qsizetype fullLength = text.size();
    const bool truncated = index.data(TranscriptModel::BodyTruncatedRole).toBool();
    if (folded && text.size() > kFoldedChars)
        text.truncate(kFoldedChars);
    // Lays `t` out wrapped at the text width, at most `maxLines` lines; returns its height, and whether lines were
    // left out.
    const auto layOut = [&](QTextLayout &layout, int maxLines, int *lines, bool *more) {
        // QTextLayout breaks lines only at U+2028: a newline in the text is one (same length, offsets unchanged).
        QString text = layout.text();
        text.replace(QLatin1Char('\n'), QChar::LineSeparator);
        layout.setText(text);
        QTextOption wrap;
        wrap.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
        layout.setTextOption(wrap);
        layout.setCacheEnabled(true);
        layout.beginLayout();
        qreal y = 0;
        for (;;) {
            QTextLine line = layout.createLine();
            if (!line.isValid())
                break;
            line.setLineWidth(textWidth);
            if (*lines == maxLines) {
                *more = true;
                line.setPosition(QPointF(0, -1e6)); // laid out to end the layout, never drawn
                break;
            }
            line.setPosition(QPointF(0, y));
            y += line.height();
            ++*lines;
        }
        layout.endLayout();
        return y;
    };
    bool more = false;
    if (!text.isEmpty()) {
        b->body = std::make_unique<QTextLayout>(text, bodyFont);
        b->bodyHeight = layOut(*b->body, folded ? kFoldedLines : std::numeric_limits<int>::max(), &b->bodyLines, &more);
    }
    // The arguments of the tools an assistant asked for: folded away, shown in full when unfolded.
    const QString args = index.data(TranscriptModel::ToolCallsJsonRole).toString();
    if (!folded && !args.isEmpty()) {
        bool argsMore = false;
        b->args = std::make_unique<QTextLayout>(
            args, smaller(fonts::fixedPitch(),
                          option.font.pointSizeF() / std::max(1.0, fonts::fixedPitch().pointSizeF()) * 0.9));
        b->argsHeight = layOut(*b->args, 400, &b->argsLines, &argsMore);
    }
    if (folded) {
        QStringList hidden;
        if (more || fullLength > text.size() || truncated)
            hidden << tr("%1 characters").arg(formatCount(std::size_t(fullLength)));
        if (!args.isEmpty())
            hidden << tr("the tools' arguments");
        if (!hidden.isEmpty())
            b->foldLine = tr("▸ Click to unfold · %1").arg(hidden.join(QStringLiteral(" · ")));
    } else if (expanded) {
        b->foldLine = truncated ? tr("▾ Click to fold · the first %1 characters; the Wire shows all of it")
                                      .arg(formatCount(std::size_t(TranscriptModel::kMaxBodyChars)))
                                : tr("▾ Click to fold");
    }
    const qreal small = QFontMetricsF(headerFont).height();
    qreal h = kPadY + headerHeight;
    if (b->bodyHeight > 0)
        h += 2 + b->bodyHeight;
    h += b->toolCalls.size() * small + (b->toolCalls.isEmpty() ? 0 : 3);
    if (b->argsHeight > 0)
        h += 3 + b->argsHeight;
    if (!b->foldLine.isEmpty())
        h += 2 + small;
    h += kPadY;
    b->bubble = QRectF(left, kMargin / 2.0, bubbleWidth, h);
    b->height = h + kMargin;
    Bubble *raw = b.release();
    m_layouts.insert(key, raw, 1);
    return *raw;
}

QSize TranscriptDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const Bubble &b = bubbleFor(option, index);
    return QSize(std::max(120, m_view->viewport()->width()), int(std::ceil(b.height)));
}

void TranscriptDelegate::paint(QPainter *p, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const Bubble &b = bubbleFor(option, index);
    const QPalette &pal = option.palette;
    p->save();
    p->translate(option.rect.topLeft());
    p->setRenderHint(QPainter::Antialiasing);

    if (b.isNew) // a bar at the edge, so the new tail reads at a glance while scrolling
        p->fillRect(QRectF(2, b.bubble.top(), kNewBar, b.bubble.height()), theme::strong(Tone::Accent, pal));

    QColor fill = pal.color(QPalette::Base), border = theme::gridLine(pal), stripe;
    QColor textColor = pal.color(QPalette::Text);
    switch (Kind(b.kind)) {
    case Kind::User:
        fill = theme::tint(Tone::Info, pal, 0.16);
        border = theme::mix(theme::strong(Tone::Info, pal), pal.color(QPalette::Base), 0.6);
        break;
    case Kind::Assistant:
        fill = theme::tint(Tone::Neutral, pal, 0.14);
        border = theme::mix(theme::strong(Tone::Neutral, pal), pal.color(QPalette::Base), 0.6);
        break;
    case Kind::ToolResult:
        stripe = theme::mix(theme::strong(Tone::Info, pal), theme::strong(Tone::Good, pal), 0.6);
        break;
    case Kind::System:
    case Kind::Other:
        fill = theme::tint(Tone::Neutral, pal, 0.06);
        textColor = theme::mutedText(pal);
        break;
    }
    if (b.error) {
        fill = theme::tint(Tone::Bad, pal, 0.12);
        stripe = theme::strong(Tone::Bad, pal);
    }
    if (b.collapsed) {
        fill = theme::tint(Tone::Warn, pal, 0.10);
        stripe = theme::strong(Tone::Warn, pal);
    }
    QPen pen(border, 1);
    if (b.collapsed) // a ticket stands in for the result: an outline, as the Wire draws absences
        pen = QPen(theme::strong(Tone::Warn, pal), 1, Qt::DashLine);
    if (option.state & QStyle::State_Selected)
        pen = QPen(pal.color(QPalette::Highlight), 2);
    p->setPen(pen);
    p->setBrush(fill);
    p->drawRoundedRect(b.bubble.adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
    if (stripe.isValid()) {
        QPainterPath clip;
        clip.addRoundedRect(b.bubble, 6, 6);
        p->save();
        p->setClipPath(clip);
        p->fillRect(QRectF(b.bubble.left(), b.bubble.top(), 3, b.bubble.height()), stripe);
        p->restore();
    }
    if (Kind(b.kind) == Kind::ToolResult) { // a hook from the assistant above
        p->setPen(QPen(theme::gridLine(pal), 1));
        const qreal x = b.bubble.left() - kToolIndent / 2.0;
        p->drawLine(QPointF(x, 0), QPointF(x, b.bubble.top() + 10));
        p->drawLine(QPointF(x, b.bubble.top() + 10), QPointF(b.bubble.left(), b.bubble.top() + 10));
    }

    // Header: a glyph where the message is a ticket or an error, the role and tool, the chips.
    const QFont headerFont = smaller(option.font, 0.9);
    const QFontMetricsF hfm(headerFont);
    const qreal headerHeight = std::max(hfm.height(), QFontMetricsF(chipFont(option.font)).height() + 3) + 2;
    qreal x = b.bubble.left() + kPadX;
    const qreal right = b.bubble.right() - kPadX;
    const QRectF band(x, b.bubble.top() + kPadY, right - x, headerHeight);
    if (b.collapsed || b.error) {
        const qreal side = std::min(14.0, headerHeight - 2);
        paintGlyph(p, QRectF(x, band.center().y() - side / 2, side, side),
                   b.collapsed ? Glyph::Collapsed : Glyph::ToolError, pal);
        x += side + 5;
    }
    qreal chipsWidth = 0;
    for (const Chip &c : b.chips)
        chipsWidth += chipWidth(c, option.font) + 4;
    QFont bold = headerFont;
    bold.setBold(true);
    p->setFont(bold);
    p->setPen(Kind(b.kind) == Kind::System ? theme::mutedText(pal) : pal.color(QPalette::Text));
    const qreal headerRoom = std::max(0.0, right - x - chipsWidth - 6);
    const QString header = QFontMetricsF(bold).elidedText(b.header, Qt::ElideMiddle, headerRoom);
    p->drawText(QRectF(x, band.top(), headerRoom, band.height()), Qt::AlignVCenter | Qt::AlignLeft, header);
    qreal cx = x + QFontMetricsF(bold).horizontalAdvance(header) + 8;
    for (const Chip &c : b.chips)
        cx += paintChip(p, cx, band, c, pal, option.font) + 4;

    qreal y = band.bottom() + 2;
    if (b.body) {
        p->setPen(textColor);
        for (int i = 0; i < b.bodyLines; ++i)
            b.body->lineAt(i).draw(p, QPointF(b.bubble.left() + kPadX, y));
        y += b.bodyHeight;
    }
    p->setFont(headerFont);
    if (!b.toolCalls.isEmpty()) {
        y += 3;
        p->setPen(theme::strong(Tone::Info, pal));
        for (const QString &call : b.toolCalls) {
            p->drawText(QRectF(b.bubble.left() + kPadX, y, right - b.bubble.left() - kPadX, hfm.height()),
                        Qt::AlignVCenter | Qt::AlignLeft,
                        hfm.elidedText(tr("→ %1").arg(call), Qt::ElideMiddle, right - b.bubble.left() - kPadX));
            y += hfm.height();
        }
    }
    if (b.args) {
        y += 3;
        p->setPen(theme::mutedText(pal));
        for (int i = 0; i < b.argsLines; ++i)
            b.args->lineAt(i).draw(p, QPointF(b.bubble.left() + kPadX, y));
        y += b.argsHeight;
    }
    if (!b.foldLine.isEmpty()) {
        y += 2;
        p->setPen(theme::mutedText(pal));
        p->drawText(QRectF(b.bubble.left() + kPadX, y, right - b.bubble.left() - kPadX, hfm.height()),
                    Qt::AlignVCenter | Qt::AlignLeft,
                    hfm.elidedText(b.foldLine, Qt::ElideRight, right - b.bubble.left() - kPadX));
    }
    p->restore();
}

TranscriptView::TranscriptView(QWidget *parent)
    : QListView(parent)
    , m_delegate(new TranscriptDelegate(this))
{
    setItemDelegate(m_delegate);
    setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setResizeMode(QListView::Adjust);
    setUniformItemSizes(false);
    setFrameShape(QFrame::NoFrame);
    verticalScrollBar()->setSingleStep(24);
}

void TranscriptView::setModel(QAbstractItemModel *model)
{
    QListView::setModel(model);
    if (!model)
        return;
    // Rows mean other messages after a reset, and a fold changes a row's height.
    connect(model, &QAbstractItemModel::modelReset, this, [this] { m_delegate->clearCache(); });
    connect(model, &QAbstractItemModel::dataChanged, this, [this] { scheduleDelayedItemsLayout(); });
}

void TranscriptView::toggleFolded(int row)
{
    const QModelIndex index = model() ? model()->index(row, 0) : QModelIndex();
    if (!index.isValid() || !index.data(TranscriptModel::FoldableRole).toBool())
        return;
    model()->setData(index, !index.data(TranscriptModel::ExpandedRole).toBool(), TranscriptModel::ExpandedRole);
}

bool TranscriptView::onScreen() const
{
    return ui::onScreen(this);
}

void TranscriptView::scrollToWhenShown(const QModelIndex &index, ScrollHint hint)
{
    if (onScreen()) {
        m_pendingScroll = QPersistentModelIndex();
        layOutPending();
        scrollTo(index, hint);
        return;
    }
    m_pendingScroll = index;
    m_pendingHint = hint;
    watchDock();
}

void TranscriptView::watchDock()
{
    if (!m_watchingDock)
        m_watchingDock = whenDockShown(this, [this] { scrollPending(); });
}

void TranscriptView::doItemsLayout()
{
    if (!onScreen()) {
        m_layoutPending = true;
        watchDock();
        return;
    }
    layOut();
}

void TranscriptView::layOutPending()
{
    if (m_layoutPending)
        layOut();
}

void TranscriptView::layOut()
{
    m_layoutPending = false;
    // A bubble's height depends on the list's width, and Qt places the messages before it shows or hides the scroll
    // bar that changes that width (and lays out nothing on a change of width alone): placed again at the new width.
    // The scroll bar's resize event comes in the middle of it: a scroll asked for waits for the final places.
    const int width = viewport()->width();
    m_layingOut = true;
    QListView::doItemsLayout();
    if (viewport()->width() != width)
        QListView::doItemsLayout();
    m_layingOut = false;
    // A scroll asked for while the messages had no places yet is made once they have them, whichever way the list
    // came on screen.
    if (m_pendingScroll.isValid())
        QMetaObject::invokeMethod(this, &TranscriptView::scrollPending, Qt::QueuedConnection);
}

void TranscriptView::layOutBeforeReading() const
{
    // A list on screen whose layout was put off (it came on screen by a way that sent nothing yet) is laid out before
    // anyone reads a place in it.
    if (m_layoutPending && onScreen())
        const_cast<TranscriptView *>(this)->layOut();
}

QRect TranscriptView::visualRect(const QModelIndex &index) const
{
    layOutBeforeReading();
    return QListView::visualRect(index);
}

QModelIndex TranscriptView::indexAt(const QPoint &point) const
{
    layOutBeforeReading();
    return QListView::indexAt(point);
}

void TranscriptView::scrollPending()
{
    if (m_layingOut || !onScreen())
        return;
    layOutPending();
    if (!m_pendingScroll.isValid())
        return;
    const QModelIndex index = m_pendingScroll;
    m_pendingScroll = QPersistentModelIndex();
    scrollTo(index, m_pendingHint);
}

void TranscriptView::showEvent(QShowEvent *event)
{
    QListView::showEvent(event);
    scrollPending();
}

void TranscriptView::resizeEvent(QResizeEvent *event)
{
    QListView::resizeEvent(event);
    scrollPending();
}

void TranscriptView::paintEvent(QPaintEvent *event)
{
    // Whatever brought the list on screen, its messages are placed before they are drawn; a scroll asked for meanwhile
    // comes right after this paint (layOut queues it: scrolling inside it would paint again within the paint).
    layOutPending();
    QListView::paintEvent(event);
}

void TranscriptView::mouseReleaseEvent(QMouseEvent *event)
{
    const QModelIndex index = indexAt(event->position().toPoint());
    QListView::mouseReleaseEvent(event);
    if (event->button() == Qt::LeftButton && index.isValid())
        toggleFolded(index.row());
}

void TranscriptView::keyPressEvent(QKeyEvent *event)
{
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter || event->key() == Qt::Key_Space) &&
        currentIndex().isValid()) {
        toggleFolded(currentIndex().row());
        return;
    }
    QListView::keyPressEvent(event);
}
} // namespace tf::ui
