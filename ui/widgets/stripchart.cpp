#include "ui/widgets/stripchart.h"

#include "ui/models/callstatus.h"
#include "ui/services/qtstrings.h"
#include "ui/widgets/glyphs.h"
#include "ui/widgets/theme.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>

#include <cmath>
#include <optional>

namespace tf::ui {

using theme::Tone;

namespace {

constexpr int kAxisWidth = 74;
constexpr int kLegendHeight = 18;
constexpr int kTickHeight = 16;

QString shortCount(double v)
{
    if (v >= 1e6)
        return QString::number(v / 1e6, 'f', 1) + QLatin1Char('M');
    if (v >= 1e4)
        return QString::number(v / 1e3, 'f', 0) + QLatin1Char('k');
    if (v >= 1e3)
        return QString::number(v / 1e3, 'f', 1) + QLatin1Char('k');
    return QString::number(v, 'f', 0);
}

} // namespace

StripChart::StripChart(QWidget *parent)
    : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setAccessibleName(tr("Strip chart of all calls"));
}

QSize StripChart::sizeHint() const
{
    return {900, 132};
}

QSize StripChart::minimumSizeHint() const
{
    // The legend, the tick labels, and two lanes tall enough for their two-line labels (in the chart's small font).
    const int label = QFontMetrics(font()).height() * 85 / 100;
    return {240, kLegendHeight + 4 + kTickHeight + 8 + 6 + 2 * 2 * label};
}

void StripChart::setRun(const RunHandle &run)
{
    m_run = run;
    m_current = run && !run->calls.empty() ? 0 : -1;
    m_marks = {};
    m_first = 0;
    m_count = 0;
    m_maxPiece = 0;
    m_maxTokens = 0;
    m_anyMeasured = false;
    if (run)
        for (const recording::CallSummary &c : run->calls) {
            m_maxPiece = std::max(m_maxPiece, double(c.pieceSizeUtf8.value_or(0)));
            m_maxTokens = std::max({m_maxTokens, c.cacheRead.value_or(0), c.cacheWrite.value_or(0)});
            m_anyMeasured = m_anyMeasured || c.verdict != recording::CacheVerdict::Unmeasured;
        }
    update();
}

void StripChart::setReviewMarks(const ReviewMarks &marks)
{
    if (marks == m_marks)
        return;
    m_marks = marks;
    update();
}

void StripChart::setCurrentCall(int ordinal)
{
    if (ordinal == m_current)
        return;
    m_current = ordinal;
    // Keep the cursor in view at the current zoom.
    const int count = visibleCallCount();
    if (ordinal >= 0 && (ordinal < m_first || ordinal >= m_first + count))
        showWindow(ordinal - count / 2, count);
    update();
}

int StripChart::visibleCallCount() const
{
    const int n = m_run ? int(m_run->calls.size()) : 0;
    return m_count > 0 ? std::min(m_count, n) : n;
}

void StripChart::showWindow(int first, int count)
{
    const int n = m_run ? int(m_run->calls.size()) : 0;
    count = std::clamp(count, std::min(n, 8), n);
    first = std::clamp(first, 0, std::max(0, n - count));
    if (count >= n)
        count = 0;
    if (first == m_first && count == m_count)
        return;
    m_first = first;
    m_count = count;
    update();
}

void StripChart::zoomAt(double factor, qreal anchorX)
{
    const int count = visibleCallCount();
    if (count == 0)
        return;
    const QRectF plot = plotRect();
    const double f = std::clamp((anchorX - plot.left()) / plot.width(), 0.0, 1.0);
    const double anchor = m_first + f * count;
    const int next = std::max(1, int(std::lround(count * factor)));
    showWindow(int(std::lround(anchor - f * next)), next == count ? count + (factor > 1 ? 1 : -1) : next);
}

void StripChart::resetZoom()
{
    showWindow(0, 0x7fffffff);
}

void StripChart::wheelEvent(QWheelEvent *event)
{
    const QPoint delta = event->angleDelta();
    const int count = visibleCallCount();
    if ((event->modifiers() & Qt::ShiftModifier) || std::abs(delta.x()) > std::abs(delta.y())) {
        const int d = delta.x() != 0 ? delta.x() : delta.y();
        showWindow(m_first - int(std::lround(d / 120.0 * std::max(1, count / 10))), count);
    } else if (delta.y() != 0) {
        zoomAt(std::pow(0.8, delta.y() / 120.0), event->position().x()); // a notch up: 20% fewer calls
    }
    event->accept();
}

QRectF StripChart::plotRect() const
{
    return QRectF(kAxisWidth, kLegendHeight + 4, width() - kAxisWidth - 10, height() - kLegendHeight - 4 - kTickHeight);
}

int StripChart::callAt(qreal x) const
{
    if (!m_run || m_run->calls.empty())
        return -1;
    const QRectF plot = plotRect();
    const int count = visibleCallCount();
    const int i = m_first + int(std::floor((x - plot.left()) / plot.width() * count));
    return qBound(m_first, i, m_first + count - 1);
}

qreal StripChart::slotCentre(int ordinal) const
{
    if (!m_run || m_run->calls.empty())
        return 0;
    const QRectF plot = plotRect();
    const qreal slot = plot.width() / qreal(visibleCallCount());
    return plot.left() + slot * (ordinal - m_first + 0.5);
}

void StripChart::activate(int ordinal)
{
    if (ordinal < 0)
        return;
    setCurrentCall(ordinal);
    emit callActivated(ordinal);
}

void StripChart::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const QFont small = [this] {
        QFont f = font();
        f.setPointSizeF(f.pointSizeF() * 0.85);
        return f;
    }();
    p.setFont(small);
    const QFontMetricsF fm(small);
    const QColor muted = theme::mutedText(pal);
    const QColor grid = theme::gridLine(pal);

    const QRectF plot = plotRect();
    const qreal laneGap = 6;
    const QRectF pieceLane(plot.left(), plot.top() + 8, plot.width(), (plot.height() - 8 - laneGap) * 0.5);
    const QRectF cacheLane(plot.left(), pieceLane.bottom() + laneGap, plot.width(), pieceLane.height());

    // Lane labels and scales.
    p.setPen(muted);
    p.drawText(QRectF(6, pieceLane.top(), kAxisWidth - 12, fm.height()), Qt::AlignLeft | Qt::AlignTop, tr("Piece"));
    p.drawText(QRectF(6, cacheLane.top(), kAxisWidth - 12, fm.height()), Qt::AlignLeft | Qt::AlignTop, tr("Cache"));
    p.drawText(QRectF(6, pieceLane.top() + fm.height(), kAxisWidth - 12, fm.height()), Qt::AlignLeft | Qt::AlignTop,
               m_maxPiece > 0 ? tr("%1 B").arg(shortCount(m_maxPiece)) : tr("none"));
    p.drawText(QRectF(6, cacheLane.top() + fm.height(), kAxisWidth - 12, fm.height()), Qt::AlignLeft | Qt::AlignTop,
               m_maxTokens > 0 ? tr("%1 tok").arg(shortCount(m_maxTokens)) : tr("unmeasured"));
    p.setPen(grid);
    p.drawLine(QPointF(plot.left(), pieceLane.bottom() + 0.5), QPointF(plot.right(), pieceLane.bottom() + 0.5));
    p.drawLine(QPointF(plot.left(), cacheLane.bottom() + 0.5), QPointF(plot.right(), cacheLane.bottom() + 0.5));

    // Legend.
    struct LegendItem
    {
        QString text;
        QColor color;
        std::optional<Glyph> glyph;
    };
    // A miss needs measured cache usage; a run that reported none has no misses to explain.
    QList<LegendItem> legend = {
        {tr("piece bytes"), theme::strong(Tone::Info, pal), {}},
        {tr("cache read"), theme::strong(Tone::Good, pal), {}},
        {tr("cache write"), theme::strong(Tone::Warn, pal), {}},
    };
    if (m_anyMeasured)
        legend.append({tr("cache miss"), {}, Glyph::Miss});
    if (!m_marks.bookmarked.isEmpty())
        legend.append({tr("bookmark"), {}, Glyph::Bookmark});
    if (!m_marks.notes.isEmpty())
        legend.append({tr("note"), {}, Glyph::Note});
    qreal lx = width() - 10;
    for (auto it = legend.crbegin(); it != legend.crend(); ++it) {
        const qreal w = fm.horizontalAdvance(it->text);
        lx -= w;
        p.setPen(muted);
        p.drawText(QRectF(lx, 3, w, kLegendHeight - 2), Qt::AlignVCenter | Qt::AlignLeft, it->text);
        lx -= 14;
        const QRectF sw(lx, 3 + (kLegendHeight - 2 - 9) / 2.0, 9, 9);
        if (it->glyph)
            paintGlyph(&p, sw.adjusted(-1, -1, 1, 1), *it->glyph, pal);
        else
            p.fillRect(sw, it->color);
        lx -= 14;
    }
    if (m_run) {
        p.setPen(pal.color(QPalette::Text));
        QFont title = small;
        title.setBold(true);
        p.setFont(title);
        const int count = visibleCallCount();
        p.drawText(QRectF(6, 3, lx - 12, kLegendHeight - 2), Qt::AlignVCenter | Qt::AlignLeft,
                   count < int(m_run->calls.size())
                       ? tr("Calls %1–%2 of %3 (0: all)").arg(m_first + 1).arg(m_first + count).arg(m_run->calls.size())
                       : tr("%n call(s)", nullptr, int(m_run->calls.size())));
        p.setFont(small);
    }

    if (!m_run || m_run->calls.empty())
        return;
    const int n = visibleCallCount();
    const int end = m_first + n;
    const qreal slot = plot.width() / n;

    // The selected call.
    if (m_current >= m_first && m_current < end) {
        const QRectF band(plot.left() + slot * (m_current - m_first), plot.top(), std::max(slot, 2.0), plot.height());
        QColor hl = pal.color(QPalette::Highlight);
        hl.setAlphaF(0.16f);
        p.fillRect(band, hl);
        hl.setAlphaF(0.9f);
        p.fillRect(QRectF(band.left(), plot.top(), band.width(), 2), hl);
    }

    p.drawPixmap(QPointF(0, 0), barsLayer(pieceLane, cacheLane));

    // The reviewer's marks, under the miss row: a star for a bookmark, a page for notes.
    const qreal markSide = std::clamp(slot * 0.8, 8.0, 11.0);
    const auto paintMark = [&](int ordinal, Glyph glyph) {
        if (ordinal < m_first || ordinal >= end)
            return; // outside the zoomed range
        const qreal cx = slotCentre(ordinal);
        paintGlyph(&p, QRectF(cx - markSide / 2, plot.top() + 7, markSide, markSide), glyph, pal);
    };
    for (auto it = m_marks.notes.cbegin(); it != m_marks.notes.cend(); ++it)
        if (!m_marks.bookmarked.contains(it.key()))
            paintMark(it.key(), Glyph::Note);
    for (const int ordinal : m_marks.bookmarked)
        paintMark(ordinal, Glyph::Bookmark);

    // Epoch ticks: as many as fit.
    p.setPen(muted);
    const qreal labelWidth = fm.horizontalAdvance(QStringLiteral("0000")) + 8;
    const int every = std::max(1, int(std::ceil(labelWidth / slot)));
    const bool currentShown = m_current >= m_first && m_current < end;
    const qreal currentX = currentShown ? slotCentre(m_current) : -1e9;
    // Ticks on multiples of `every`, so they stay on the same calls while the window pans.
    for (int i = (m_first + every - 1) / every * every; i < end; i += every) {
        if (every > 1 && std::abs(slotCentre(i) - currentX) < labelWidth && i != m_current)
            continue; // the selected call's own label goes there
        p.drawText(tickLabelRect(i), Qt::AlignCenter, QString::number(i + 1)); // numbered 1..N across every turn
    }
    if (currentShown && every > 1) {
        QFont bold = small;
        bold.setBold(true);
        p.setFont(bold);
        p.setPen(pal.color(QPalette::Text));
        p.fillRect(tickLabelRect(m_current), pal.color(QPalette::Base));
        p.drawText(tickLabelRect(m_current), Qt::AlignCenter, QString::number(m_current + 1));
    }

    if (hasFocus()) {
        QPen focus(pal.color(QPalette::Highlight), 1, Qt::DotLine);
        p.setPen(focus);
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5));
    }
}

QRectF StripChart::tickLabelRect(int ordinal) const
{
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    const qreal labelWidth = QFontMetricsF(small).horizontalAdvance(QStringLiteral("0000")) + 8;
    const QRectF plot = plotRect();
    // Centred under its slot, but never past the widget's edges: the last call's number used to be cut.
    const qreal left = std::clamp(slotCentre(ordinal) - labelWidth / 2, plot.left() - 4, width() - labelWidth - 1);
    return QRectF(left, plot.bottom() + 1, labelWidth, kTickHeight - 2);
}

// The bars of every call, drawn once per run, size and palette: a switch repaints the chart for its cursor, and
// drawing a hundred thousand calls each time would be most of the switch. Beyond one call per pixel column, calls
// are merged per column (the largest piece and token counts, a miss if any call in it missed).
const QPixmap &StripChart::barsLayer(const QRectF &pieceLane, const QRectF &cacheLane) const
{
    const QPalette pal = palette();
    const qreal dpr = devicePixelRatioF();
    const quintptr runKey = quintptr(m_run.get());
    if (!m_bars.isNull() && m_barsSize == size() && m_barsDpr == dpr && m_barsPalette == pal.cacheKey() &&
        m_barsRun == runKey && m_barsFirst == m_first && m_barsCount == m_count)
        return m_bars;
    m_bars = QPixmap((QSizeF(size()) * dpr).toSize());
    m_bars.setDevicePixelRatio(dpr);
    m_bars.fill(Qt::transparent);
    m_barsSize = size();
    m_barsDpr = dpr;
    m_barsPalette = pal.cacheKey();
    m_barsRun = runKey;
    m_barsFirst = m_first;
    m_barsCount = m_count;
    if (!m_run || m_run->calls.empty())
        return m_bars;

    QPainter p(&m_bars);
    const QColor grid = theme::gridLine(pal);
    const QColor pieceColor = theme::strong(Tone::Info, pal);
    const QColor pieceSame = theme::mix(pieceColor, pal.color(QPalette::Base), 0.45);
    const QColor readColor = theme::strong(Tone::Good, pal);
    const QColor writeColor = theme::strong(Tone::Warn, pal);
    const QColor unmeasured = theme::mix(grid, pal.color(QPalette::Base), 0.3);
    const std::size_t n = std::size_t(visibleCallCount()), first = std::size_t(m_first);
    const std::size_t groups = std::clamp<std::size_t>(std::size_t(pieceLane.width()), 1, n);
    const qreal slot = pieceLane.width() / qreal(groups);
    const qreal barWidth = std::clamp(slot * 0.62, 1.0, 28.0);
    for (std::size_t g = 0; g < groups; ++g) {
        std::optional<std::size_t> piece;
        bool changed = false, measured = false, miss = false;
        double read = 0, write = 0;
        for (std::size_t i = first + g * n / groups; i < first + (g + 1) * n / groups; ++i) {
            const recording::CallSummary &c = m_run->calls[i];
            if (c.pieceSizeUtf8)
                piece = std::max(piece.value_or(0), *c.pieceSizeUtf8);
            changed = changed || (c.pieceSizeUtf8 && c.pieceChangedSincePrevious);
            measured = measured || c.cacheRead.has_value() || c.cacheWrite.has_value();
            read = std::max(read, c.cacheRead.value_or(0));
            write = std::max(write, c.cacheWrite.value_or(0));
            miss = miss || isCacheMiss(c);
        }
        const qreal cx = pieceLane.left() + slot * (qreal(g) + 0.5);
        if (piece && m_maxPiece > 0) {
            const qreal h = std::max(1.0, pieceLane.height() * double(*piece) / m_maxPiece);
            p.fillRect(QRectF(cx - barWidth / 2, pieceLane.bottom() - h, barWidth, h),
                       changed ? pieceColor : pieceSame);
        }
        if (measured && m_maxTokens > 0) {
            const qreal half = barWidth / 2;
            const qreal hr = cacheLane.height() * read / m_maxTokens;
            const qreal hw = cacheLane.height() * write / m_maxTokens;
            if (hr > 0)
                p.fillRect(QRectF(cx - half, cacheLane.bottom() - std::max(1.0, hr), half, std::max(1.0, hr)),
                           readColor);
            if (hw > 0)
                p.fillRect(QRectF(cx, cacheLane.bottom() - std::max(1.0, hw), half, std::max(1.0, hw)), writeColor);
        } else if (!measured) {
            p.fillRect(QRectF(cx - barWidth / 2, cacheLane.bottom() - 2, barWidth, 2), unmeasured);
        }
        if (miss) {
            const qreal s = std::clamp(slot * 0.7, 5.0, 10.0);
            paintGlyph(&p, QRectF(cx - s / 2, plotRect().top() - 1, s, s), Glyph::Miss, pal);
        }
    }
    return m_bars;
}

void StripChart::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && plotRect().adjusted(0, -8, 0, kTickHeight).contains(event->position()))
        activate(callAt(event->position().x()));
    QWidget::mousePressEvent(event);
}

void StripChart::mouseMoveEvent(QMouseEvent *event)
{
    if (event->buttons() & Qt::LeftButton) {
        const int i = callAt(event->position().x());
        if (i != m_current)
            activate(i);
    }
    QWidget::mouseMoveEvent(event);
}

void StripChart::keyPressEvent(QKeyEvent *event)
{
    if (!m_run || m_run->calls.empty())
        return QWidget::keyPressEvent(event);
    const int last = int(m_run->calls.size()) - 1;
    switch (event->key()) {
    case Qt::Key_Left:
        activate(std::max(0, m_current - 1));
        break;
    case Qt::Key_Right:
        activate(std::min(last, m_current + 1));
        break;
    case Qt::Key_Home:
        activate(0);
        break;
    case Qt::Key_End:
        activate(last);
        break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomAt(0.5, slotCentre(m_current));
        break;
    case Qt::Key_Minus:
        zoomAt(2, slotCentre(m_current));
        break;
    case Qt::Key_0:
        resetZoom();
        break;
    default:
        QWidget::keyPressEvent(event);
    }
}

bool StripChart::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip && m_run && !m_run->calls.empty()) {
        auto *help = static_cast<QHelpEvent *>(event);
        if (!plotRect().adjusted(0, -8, 0, kTickHeight).contains(help->pos())) {
            QToolTip::hideText();
            return true;
        }
        const int i = callAt(help->pos().x());
        const recording::CallSummary &c = m_run->calls[std::size_t(i)];
        QStringList lines;
        lines << tr("Call %1 · turn %2 · iteration %3").arg(i + 1).arg(c.turn + 1).arg(c.epoch);
        lines << (c.pieceSizeUtf8 ? tr("Findings piece: %1 B%2")
                                        .arg(formatCount(*c.pieceSizeUtf8),
                                             c.pieceChangedSincePrevious ? tr(" (changed)") : QString())
                                  : tr("No findings piece"));
        if (c.cacheRead || c.cacheWrite)
            lines << tr("Cache read %1 · write %2")
                         .arg(formatCount(c.cacheRead.value_or(0)), formatCount(c.cacheWrite.value_or(0)));
        else
            lines << tr("Cache usage not reported");
        lines << StatusText::cacheStatusExplained(cacheStatusOf(c.prefixReusable, c.verdict));
        if (isCacheMiss(c))
            lines << tr("Cache miss");
        if (m_marks.bookmarked.contains(i))
            lines << tr("Bookmarked");
        if (const int notes = m_marks.notes.value(i))
            lines << tr("%n note(s)", nullptr, notes);
        QToolTip::showText(help->globalPos(), toolTipText(lines.join(QLatin1Char('\n'))), this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace tf::ui
