#include "ui/widgets/timelinechart.h"

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

namespace tf::ui {

using recording::TimelineMarker;
using recording::TimelineSpan;
using theme::Tone;

namespace {

constexpr int kGutter = 78; // row labels
constexpr int kAxisHeight = 15;
// Row heights at scale 1; the rows grow and shrink with the dock (between 0.7 and 2.2 times these).
constexpr qreal kTurnHeight = 17; // the lower third is the iterations' stripe
constexpr qreal kCallHeight = 15;
constexpr qreal kCacheHeight = 10;
constexpr qreal kToolLaneHeight = 10;
constexpr std::size_t kMaxToolLanes = 4; // more parallel tools share the last lane
constexpr double kMinWindowMs = 2;       // the deepest zoom: 2 ms across the plot
constexpr qreal kDragThreshold = 4;

std::size_t laneOf(const TimelineSpan &tool)
{
    return std::min(tool.lane, kMaxToolLanes - 1);
}

// A span's bar: filled when its end is on record; otherwise a pale, dashed outline to the last event that still
// belongs to it, which is not a measured duration.
void paintSpanBar(QPainter &p, const QRectF &r, const QColor &fill, bool endOnRecord, const QPalette &pal)
{
    if (endOnRecord) {
        p.fillRect(r, fill);
        return;
    }
    p.fillRect(r, theme::mix(fill, pal.color(QPalette::Base), 0.7));
    p.setPen(QPen(fill, 1, Qt::DashLine));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
}

// A tick step at least `minMs` wide: 1, 2 or 5 times a power of ten below a second, and steps a clock reads
// (seconds, minutes, hours) above it.
double tickStep(double minMs)
{
    static constexpr double kClockSteps[] = {1e3,   2e3,   5e3,   10e3,  15e3,  30e3,   60e3,   120e3,  300e3,
                                             600e3, 900e3, 1.8e6, 3.6e6, 7.2e6, 10.8e6, 21.6e6, 43.2e6, 86.4e6};
    if (minMs > 500)
        for (double step : kClockSteps)
            if (step >= minMs)
                return step;
    if (minMs > 86.4e6)
        return std::ceil(minMs / 86.4e6) * 86.4e6;
    const double base = std::pow(10.0, std::floor(std::log10(std::max(minMs, 1e-3))));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (base * m >= minMs)
            return base * m;
    return base * 10;
}

QFont smallFont(const QFont &base)
{
    QFont f = base;
    f.setPointSizeF(f.pointSizeF() * 0.85);
    return f;
}

} // namespace

QString formatTimelineMs(double ms, double stepMs)
{
    const double a = std::abs(ms);
    if (a < 1000 && (stepMs == 0 || stepMs < 1000)) {
        const int decimals = stepMs > 0 && stepMs < 1 ? (stepMs < 0.1 ? 2 : 1) : 0;
        return QCoreApplication::translate("tf::ui::TimelineChart", "%1 ms").arg(ms, 0, 'f', decimals);
    }
    if (a < 60000) {
        const int decimals = stepMs == 0 ? (a < 10000 ? 2 : 1) : stepMs >= 1000 ? 0 : stepMs >= 100 ? 1 : 2;
        return QCoreApplication::translate("tf::ui::TimelineChart", "%1 s").arg(ms / 1000, 0, 'f', decimals);
    }
    if (a >= 3600000) { // h:mm:ss
        const qint64 seconds = qint64(std::floor(ms / 1000));
        return QStringLiteral("%1:%2:%3")
            .arg(seconds / 3600)
            .arg((seconds / 60) % 60, 2, 10, QLatin1Char('0'))
            .arg(seconds % 60, 2, 10, QLatin1Char('0'));
    }
    const int minutes = int(ms / 60000);
    const double seconds = ms / 1000 - minutes * 60;
    const int decimals = stepMs == 0 || stepMs < 1000 ? 1 : 0;
    return QStringLiteral("%1:%2").arg(minutes).arg(seconds, decimals ? 4 : 2, 'f', decimals, QLatin1Char('0'));
}

TimelineChart::TimelineChart(QWidget *parent)
    : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setAccessibleName(tr("Run timeline"));
}

QSize TimelineChart::sizeHint() const
{
    return {900, 128};
}

QSize TimelineChart::minimumSizeHint() const
{
    return {200, 64}; // squeezed, the lowest rows are cut rather than the window held tall
}

const recording::TimelineView *TimelineChart::view() const
{
    return m_run && m_run->timeline && m_run->timeline->timed ? m_run->timeline.get() : nullptr;
}

void TimelineChart::setRun(const RunHandle &run)
{
    m_run = run;
    m_current = run && !run->calls.empty() ? 0 : -1;
    m_range.reset();
    m_pressPos.reset();
    m_dragging = false;
    fitAll();
}

void TimelineChart::fitAll()
{
    const recording::TimelineView *v = view();
    const double end = v ? std::max(v->endMs, kMinWindowMs) : 1;
    setWindow(-end * 0.01, end * 1.01);
}

void TimelineChart::setWindow(double fromMs, double toMs)
{
    const recording::TimelineView *v = view();
    const double end = v ? std::max(v->endMs, kMinWindowMs) : 1;
    const double lo = -end * 0.01, hi = end * 1.01;
    double width = std::clamp(toMs - fromMs, kMinWindowMs, hi - lo);
    fromMs = std::clamp(fromMs, lo, hi - width);
    if (fromMs == m_fromMs && fromMs + width == m_toMs)
        return;
    m_fromMs = fromMs;
    m_toMs = fromMs + width;
    update();
    emit visibleRangeChanged(m_fromMs, m_toMs);
}

void TimelineChart::zoomAt(double factor, qreal anchorX)
{
    const double anchor = timeAt(anchorX);
    setWindow(anchor - (anchor - m_fromMs) * factor, anchor + (m_toMs - anchor) * factor);
}

void TimelineChart::panBy(double ms)
{
    setWindow(m_fromMs + ms, m_toMs + ms);
}

void TimelineChart::setCurrentCall(int ordinal)
{
    if (ordinal == m_current)
        return;
    m_current = ordinal;
    // Keep the selected call in view at the current zoom.
    if (const recording::TimelineView *v = view())
        for (const TimelineSpan &s : v->calls)
            if (s.call && int(*s.call) == ordinal) {
                if (s.endMs < m_fromMs || s.startMs > m_toMs)
                    panBy((s.startMs + s.endMs) / 2 - (m_fromMs + m_toMs) / 2);
                break;
            }
    update();
}

void TimelineChart::clearRange()
{
    if (!m_range)
        return;
    m_range.reset();
    update();
    emit rangeCleared();
}

std::optional<std::pair<int, int>> TimelineChart::selectedCalls() const
{
    const recording::TimelineView *v = view();
    if (!v || !m_range)
        return std::nullopt;
    std::optional<std::pair<int, int>> out;
    const auto [first, last] = recording::spansIn(v->calls, m_range->first, m_range->second);
    for (std::size_t i = first; i < last; ++i) {
        const TimelineSpan &s = v->calls[i];
        if (s.endMs < m_range->first || s.startMs > m_range->second || !s.call)
            continue;
        const int c = int(*s.call);
        out = out ? std::make_pair(std::min(out->first, c), std::max(out->second, c)) : std::make_pair(c, c);
    }
    return out;
}

QRectF TimelineChart::plotRect() const
{
    const qreal top = kAxisHeight + 1;
    return QRectF(kGutter, top, std::max(10, width() - kGutter - 10), std::max(10.0, height() - top - 4));
}

QRectF TimelineChart::rowRect(Row row) const
{
    const QRectF plot = plotRect();
    const std::size_t lanes = view() ? std::clamp<std::size_t>(view()->toolLanes, 1, kMaxToolLanes) : 1;
    constexpr qreal gap = 2;
    const qreal needed = kTurnHeight + kCallHeight + kCacheHeight + kToolLaneHeight * qreal(lanes);
    const qreal scale = std::clamp((plot.height() - 2 - 3 * gap) / needed, 0.7, 2.2);
    qreal y = plot.top() + 1;
    const auto next = [&](qreal h) {
        const QRectF r(plot.left(), y, plot.width(), std::round(h * scale));
        y += r.height() + gap;
        return r;
    };
    const QRectF turns = next(kTurnHeight), calls = next(kCallHeight), cache = next(kCacheHeight),
                 tools = next(kToolLaneHeight * qreal(lanes));
    switch (row) {
    case Row::Turns:
        return turns;
    case Row::Iterations: {
        const qreal h = std::max(4.0, std::round(turns.height() / 3));
        return QRectF(turns.left(), turns.bottom() - h, turns.width(), h);
    }
    case Row::Calls:
        return calls;
    case Row::Cache:
        return cache;
    case Row::Tools:
        return tools;
    }
    return calls;
}

qreal TimelineChart::toolLaneHeight() const
{
    const std::size_t lanes = view() ? std::clamp<std::size_t>(view()->toolLanes, 1, kMaxToolLanes) : 1;
    return rowRect(Row::Tools).height() / qreal(lanes);
}

qreal TimelineChart::xForTime(double ms) const
{
    const QRectF plot = plotRect();
    return plot.left() + (ms - m_fromMs) / (m_toMs - m_fromMs) * plot.width();
}

double TimelineChart::timeAt(qreal x) const
{
    const QRectF plot = plotRect();
    return m_fromMs + (x - plot.left()) / plot.width() * (m_toMs - m_fromMs);
}

std::optional<QPointF> TimelineChart::callSpanCentre(int ordinal) const
{
    if (const recording::TimelineView *v = view())
        for (const TimelineSpan &s : v->calls)
            if (s.call && int(*s.call) == ordinal)
                return QPointF((xForTime(s.startMs) + xForTime(s.endMs)) / 2, rowRect(Row::Calls).center().y());
    return std::nullopt;
}

void TimelineChart::activate(int ordinal)
{
    if (ordinal < 0)
        return;
    setCurrentCall(ordinal);
    emit callActivated(ordinal);
}

// The call a click means: a tool run's call in the tool rows, else the call span nearest the cursor in time (within
// a few pixels), so thin spans at a wide zoom can still be hit.
std::optional<int> TimelineChart::callUnder(const QPointF &pos) const
{
    const recording::TimelineView *v = view();
    if (!v || !plotRect().adjusted(0, -kAxisHeight, 0, 0).contains(pos))
        return std::nullopt;
    const double t = timeAt(pos.x());
    const double slack = 6 * (m_toMs - m_fromMs) / plotRect().width();
    if (rowRect(Row::Tools).contains(pos)) {
        const std::size_t lane = std::size_t((pos.y() - rowRect(Row::Tools).top()) / toolLaneHeight());
        const auto [first, last] = recording::spansIn(v->tools, t - slack, t + slack);
        for (std::size_t i = first; i < last; ++i) {
            const TimelineSpan &s = v->tools[i];
            if (laneOf(s) == lane && s.startMs - slack <= t && t <= s.endMs + slack && s.call)
                return int(*s.call);
        }
    }
    if (const std::optional<std::size_t> i = recording::spanAt(v->calls, t, slack))
        return v->calls[*i].call ? std::optional<int>(int(*v->calls[*i].call)) : std::nullopt;
    // Between calls: the iteration (or turn) the time falls in still names a call.
    if (const std::optional<std::size_t> i = recording::spanAt(v->iterations, t, slack))
        return v->iterations[*i].call ? std::optional<int>(int(*v->iterations[*i].call)) : std::nullopt;
    return std::nullopt;
}

void TimelineChart::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    p.setFont(smallFont(font()));
    const QFontMetricsF fm(p.font());
    const QRectF plot = plotRect();
    const recording::TimelineView *v = view();

    if (!v) {
        p.setPen(theme::mutedText(pal));
        const QString text =
            !m_run ? QString()
            : m_run->calls.empty()
                ? tr("No LLM calls on record.")
                : tr("No timestamps on record (no event carries meta.wallClockMs): the calls cannot be "
                     "placed on a time axis, and none are drawn.");
        p.drawText(rect().adjusted(12, 0, -12, 0), Qt::AlignCenter | Qt::TextWordWrap, text);
        return;
    }

    // Row labels.
    p.setPen(theme::mutedText(pal));
    const auto label = [&](Row row, const QString &text) {
        const QRectF r = rowRect(row);
        p.drawText(QRectF(6, r.top(), kGutter - 12, std::max(r.height(), fm.height())),
                   Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(text, Qt::ElideRight, kGutter - 12));
    };
    label(Row::Turns, tr("Turns"));
    label(Row::Calls, tr("LLM calls"));
    label(Row::Cache, tr("Cache"));
    const QRectF toolsRow = rowRect(Row::Tools);
    p.drawText(QRectF(6, toolsRow.top(), kGutter - 12, std::max(toolLaneHeight(), fm.height())),
               Qt::AlignLeft | Qt::AlignVCenter, tr("Tools"));

    p.save();
    p.setClipRect(plot.adjusted(0, -kAxisHeight, 0, 0));
    // Lines and bands reach as far as the rows do, not into the room a tall dock leaves under them.
    const QRectF rows(plot.left(), plot.top(), plot.width(), rowRect(Row::Tools).bottom() + 2 - plot.top());
    paintAxis(p, rows);
    paintBands(p);
    // Pauses: a hatched band across every row, the time the run stood waiting.
    const auto [pf, pl] = recording::spansIn(v->pauses, m_fromMs, m_toMs);
    for (std::size_t i = pf; i < pl; ++i) {
        const TimelineSpan &s = v->pauses[i];
        const QRectF band(xForTime(s.startMs), rows.top(), std::max(2.0, xForTime(s.endMs) - xForTime(s.startMs)),
                          rows.height());
        p.fillRect(band, theme::tint(Tone::Warn, pal, 0.22));
        p.fillRect(band, QBrush(theme::mix(theme::strong(Tone::Warn, pal), pal.color(QPalette::Base), 0.55),
                                Qt::BDiagPattern));
    }
    // The selected call: a column behind its rows.
    if (const std::optional<QPointF> c = callSpanCentre(m_current)) {
        const TimelineSpan *s = nullptr;
        for (const TimelineSpan &span : v->calls)
            if (span.call && int(*span.call) == m_current)
                s = &span;
        if (s) {
            const qreal x0 = xForTime(s->startMs), x1 = std::max(x0 + 3, xForTime(s->endMs));
            QColor hl = pal.color(QPalette::Highlight);
            hl.setAlphaF(0.14f);
            p.fillRect(QRectF(x0 - 1, rows.top(), x1 - x0 + 2, rows.height()), hl);
        }
    }
    if (std::none_of(v->calls.begin(), v->calls.end(), [](const TimelineSpan &s) {
            return s.verdict != recording::CacheVerdict::Unmeasured;
        })) { // no verdict drawn, and none hidden: the provider never said
        const QRectF cache = rowRect(Row::Cache);
        p.setPen(theme::mutedText(pal));
        p.drawText(cache.adjusted(4, -2, 0, 2), Qt::AlignLeft | Qt::AlignVCenter,
                   tr("the provider reported no cache usage on this run"));
    }
    paintCalls(p);
    paintTools(p);
    paintMarkers(p, rows);
    // The range selection.
    if (m_range) {
        const qreal x0 = xForTime(m_range->first), x1 = xForTime(m_range->second);
        QColor fill = pal.color(QPalette::Highlight);
        fill.setAlphaF(0.18f);
        p.fillRect(QRectF(x0, rows.top(), x1 - x0, rows.height()), fill);
        fill.setAlphaF(0.9f);
        p.setPen(QPen(fill, 1));
        p.drawLine(QPointF(x0, rows.top()), QPointF(x0, rows.bottom()));
        p.drawLine(QPointF(x1, rows.top()), QPointF(x1, rows.bottom()));
    }
    p.restore();

    if (hasFocus()) {
        p.setPen(QPen(pal.color(QPalette::Highlight), 1, Qt::DotLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5));
    }
}

namespace {

struct LegendItem
{
    QString text;
    QColor color;
    std::optional<Glyph> glyph;
};

QList<LegendItem> legendItems(const QPalette &pal)
{
    return {
        {TimelineLegend::tr("iteration"), theme::tint(Tone::Info, pal, 0.55), std::nullopt},
        {TimelineLegend::tr("LLM call"), theme::strong(Tone::Info, pal), std::nullopt},
        {TimelineLegend::tr("tool"), theme::mix(theme::strong(Tone::Info, pal), theme::strong(Tone::Good, pal), 0.6),
         std::nullopt},
        {TimelineLegend::tr("tool error"), theme::strong(Tone::Bad, pal), std::nullopt},
        {TimelineLegend::tr("cache hit"), QColor(), Glyph::CacheReusable},
        {TimelineLegend::tr("write only"), QColor(), Glyph::CacheRewritten},
        {TimelineLegend::tr("miss"), QColor(), Glyph::Miss},
        {TimelineLegend::tr("paused"), theme::tint(Tone::Warn, pal, 0.5), std::nullopt},
        {TimelineLegend::tr("limit"), QColor(), Glyph::Damaged},
    };
}

constexpr qreal kSwatch = 9, kSwatchGap = 4, kItemGap = 10;

} // namespace

TimelineLegend::TimelineLegend(QWidget *parent)
    : QWidget(parent)
{
    setFont(smallFont(font()));
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
}

QSize TimelineLegend::minimumSizeHint() const
{
    return QSize(0, sizeHint().height()); // a narrow dock shows the items that fit; the window is never held wide
}

QSize TimelineLegend::sizeHint() const
{
    const QFontMetricsF fm(font());
    qreal w = 0;
    for (const LegendItem &item : legendItems(palette()))
        w += kSwatch + kSwatchGap + fm.horizontalAdvance(item.text) + kItemGap;
    return QSize(int(std::ceil(w)), int(std::ceil(fm.height())) + 2);
}

void TimelineLegend::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QPalette pal = palette();
    const QFontMetricsF fm(font());
    qreal x = 0;
    for (const LegendItem &item : legendItems(pal)) {
        const qreal w = fm.horizontalAdvance(item.text);
        if (x + kSwatch + kSwatchGap + w > width())
            break; // the items that fit, whole
        const QRectF sw(x, (height() - kSwatch) / 2.0, kSwatch, kSwatch);
        if (item.glyph)
            paintGlyph(&p, sw.adjusted(-1, -1, 1, 1), *item.glyph, pal);
        else
            p.fillRect(sw, item.color);
        x += kSwatch + kSwatchGap;
        p.setPen(theme::mutedText(pal));
        p.drawText(QRectF(x, 0, w + 1, height()), Qt::AlignVCenter | Qt::AlignLeft, item.text);
        x += w + kItemGap;
    }
}

void TimelineChart::paintAxis(QPainter &p, const QRectF &plot) const
{
    const QPalette pal = palette();
    const QFontMetricsF fm(p.font());
    const double msPerPx = (m_toMs - m_fromMs) / plot.width();
    const double step = tickStep(msPerPx * (fm.horizontalAdvance(QStringLiteral("00:00.0 s")) + 16));
    const QColor grid = theme::gridLine(pal);
    for (double t = std::ceil(m_fromMs / step) * step; t <= m_toMs; t += step) {
        const qreal x = std::round(xForTime(t)) + 0.5;
        p.setPen(grid);
        p.drawLine(QPointF(x, plot.top() - 3), QPointF(x, plot.bottom()));
        const QString text = formatTimelineMs(t, step);
        const qreal w = fm.horizontalAdvance(text) + 4;
        // Centred on its tick, kept inside the plot: the last label is never cut by the edge.
        const qreal left = std::clamp(x - w / 2, plot.left(), plot.right() - w);
        p.setPen(theme::mutedText(pal));
        p.drawText(QRectF(left, plot.top() - kAxisHeight, w, kAxisHeight - 3), Qt::AlignCenter, text);
    }
}

void TimelineChart::paintBands(QPainter &p) const
{
    const QPalette pal = palette();
    const recording::TimelineView &v = *view();
    const QFontMetricsF fm(p.font());
    // Turns fill their row; iterations are the stripe along its bottom; the turn's name is written over both.
    const auto paintRow = [&](const std::vector<TimelineSpan> &spans, const QRectF &row, bool turns, bool labels) {
        const auto [first, last] = recording::spansIn(spans, m_fromMs, m_toMs);
        qreal drawnTo = -1e9;
        for (std::size_t i = first; i < last; ++i) {
            const TimelineSpan &s = spans[i];
            const qreal x0 = xForTime(s.startMs), x1 = std::max(x0 + 1, xForTime(s.endMs));
            if (x1 < drawnTo + 1 && x1 - x0 < 2)
                continue; // many bands in one pixel column: the first drawn there stands for them
            drawnTo = x1;
            const QRectF r(x0, row.top(), x1 - x0, row.height());
            if (labels) {
                const QString text = tr("Turn %1").arg(s.turn + 1);
                const qreal left = std::max(x0, row.left()) + 4, right = std::min(x1, row.right()) - 2;
                if (right - left > fm.horizontalAdvance(text)) {
                    p.setPen(pal.color(QPalette::Text));
                    p.drawText(QRectF(left, row.top() - 1, right - left, row.height()),
                               Qt::AlignVCenter | Qt::AlignLeft, text);
                }
                continue;
            }
            const bool odd = (turns ? s.turn : s.call.value_or(0)) % 2;
            p.fillRect(r.adjusted(0, 0, turns ? 0 : -1, 0), turns ? theme::tint(Tone::Neutral, pal, odd ? 0.34 : 0.2)
                                                                  : theme::tint(Tone::Info, pal, odd ? 0.55 : 0.35));
            if (!s.endOnRecord) {
                p.setPen(QPen(theme::mutedText(pal), 1, Qt::DashLine));
                p.drawLine(QPointF(x1 - 0.5, row.top()), QPointF(x1 - 0.5, row.bottom()));
            }
        }
    };
    paintRow(v.turns, rowRect(Row::Turns), true, false);
    paintRow(v.iterations, rowRect(Row::Iterations), false, false);
    paintRow(v.turns, rowRect(Row::Turns), true, true);
}

void TimelineChart::paintCalls(QPainter &p) const
{
    const QPalette pal = palette();
    const recording::TimelineView &v = *view();
    const QRectF row = rowRect(Row::Calls), cacheRow = rowRect(Row::Cache);
    const QColor callColor = theme::strong(Tone::Info, pal);
    const QColor failed = theme::strong(Tone::Bad, pal);
    const QColor current = pal.color(QPalette::Highlight);
    const QFontMetricsF fm(p.font());
    const auto [first, last] = recording::spansIn(v.calls, m_fromMs, m_toMs);
    qreal drawnTo = -1e9, cacheTo = -1e9;
    for (std::size_t i = first; i < last; ++i) {
        const TimelineSpan &s = v.calls[i];
        const bool selected = s.call && int(*s.call) == m_current;
        const qreal x0 = xForTime(s.startMs), x1 = std::max(x0 + 2, xForTime(s.endMs));
        if (x1 < drawnTo + 1 && !selected && !s.error)
            continue; // sub-pixel calls in a column already painted
        drawnTo = x1;
        const QRectF r(x0, row.top() + 2, x1 - x0, row.height() - 4);
        const QColor fill = selected ? current : s.error ? failed : callColor;
        paintSpanBar(p, r, fill, s.endOnRecord, pal);
        if (s.call) {
            const QString number = QString::number(*s.call + 1);
            const qreal left = std::max(r.left(), row.left()) + 3, right = std::min(r.right(), row.right()) - 3;
            if (right - left > fm.horizontalAdvance(number) + 2) {
                p.setPen(selected ? pal.color(QPalette::HighlightedText) : pal.color(QPalette::Base));
                p.drawText(QRectF(left, r.top(), right - left, r.height()), Qt::AlignVCenter | Qt::AlignLeft, number);
            }
        }
        // The provider's cache verdict under the call: a hit, a miss, a write; nothing where it was not measured.
        const qreal cx = std::clamp((x0 + x1) / 2, row.left() + 4, row.right() - 4);
        const qreal side = cacheRow.height() - 1;
        if (cx - side / 2 < cacheTo)
            continue;
        std::optional<Glyph> glyph;
        switch (s.verdict) {
        case recording::CacheVerdict::Hit:
            glyph = Glyph::CacheReusable;
            break;
        case recording::CacheVerdict::Miss:
            glyph = Glyph::Miss;
            break;
        case recording::CacheVerdict::WriteOnly:
            glyph = Glyph::CacheRewritten;
            break;
        case recording::CacheVerdict::Unmeasured:
            break;
        }
        if (glyph) {
            paintGlyph(&p, QRectF(cx - side / 2, cacheRow.top(), side, side), *glyph, pal);
            cacheTo = cx + side / 2;
        }
    }
}

void TimelineChart::paintTools(QPainter &p) const
{
    const QPalette pal = palette();
    const recording::TimelineView &v = *view();
    const QRectF row = rowRect(Row::Tools);
    const QColor toolColor = theme::mix(theme::strong(Tone::Info, pal), theme::strong(Tone::Good, pal), 0.6);
    const QColor errorColor = theme::strong(Tone::Bad, pal);
    const auto [first, last] = recording::spansIn(v.tools, m_fromMs, m_toMs);
    std::vector<qreal> drawnTo(kMaxToolLanes, -1e9);
    for (std::size_t i = first; i < last; ++i) {
        const TimelineSpan &s = v.tools[i];
        const std::size_t lane = laneOf(s);
        const qreal x0 = xForTime(s.startMs), x1 = std::max(x0 + 2, xForTime(s.endMs));
        if (x1 < drawnTo[lane] + 1 && !s.error)
            continue;
        drawnTo[lane] = x1;
        const qreal laneHeight = toolLaneHeight();
        const QRectF r(x0, row.top() + qreal(lane) * laneHeight + 1, x1 - x0, laneHeight - 2);
        const QColor fill = s.error ? errorColor : toolColor;
        paintSpanBar(p, r, fill, s.endOnRecord, pal);
        if (s.error && r.width() >= r.height() + 2)
            paintGlyph(&p, QRectF(r.left() + 1, r.top(), r.height(), r.height()), Glyph::ToolError, pal);
    }
}

void TimelineChart::paintMarkers(QPainter &p, const QRectF &plot) const
{
    const QPalette pal = palette();
    const recording::TimelineView &v = *view();
    qreal lastX = -1e9;
    for (const TimelineMarker &m : v.markers) {
        if (m.atMs < m_fromMs || m.atMs > m_toMs)
            continue;
        const qreal x = std::round(xForTime(m.atMs)) + 0.5;
        Tone tone = Tone::Warn;
        Glyph glyph = Glyph::Damaged;
        switch (m.kind) {
        case TimelineMarker::Kind::Pause:
            glyph = Glyph::NeverReturned;
            break;
        case TimelineMarker::Kind::Resume:
            tone = Tone::Good;
            glyph = Glyph::NeverReturned;
            break;
        case TimelineMarker::Kind::Limit:
            break;
        case TimelineMarker::Kind::Failure:
            tone = Tone::Bad;
            glyph = Glyph::ToolError;
            break;
        }
        p.setPen(QPen(theme::strong(tone, pal), 1.5));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        if (std::abs(x - lastX) < 11)
            continue; // markers at one moment (a wrap-up and its two limit events) share one glyph
        lastX = x;
        const qreal side = 11;
        paintGlyph(&p, QRectF(x - side / 2, rowRect(Row::Turns).center().y() - side / 2, side, side), glyph, pal);
    }
}

void TimelineChart::wheelEvent(QWheelEvent *event)
{
    if (!view())
        return QWidget::wheelEvent(event);
    const QPoint delta = event->angleDelta();
    const double span = m_toMs - m_fromMs;
    if ((event->modifiers() & Qt::ShiftModifier) || std::abs(delta.x()) > std::abs(delta.y())) {
        const int d = delta.x() != 0 ? delta.x() : delta.y();
        panBy(-d / 120.0 * span * 0.1);
    } else if (delta.y() != 0) {
        zoomAt(std::pow(0.8, delta.y() / 120.0), event->position().x()); // a notch up: 20% closer
    }
    event->accept();
}

void TimelineChart::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && view() &&
        plotRect().adjusted(0, -kAxisHeight, 0, 0).contains(event->position())) {
        m_pressPos = event->position();
        m_dragging = false;
    } else if (event->button() == Qt::MiddleButton) {
        m_panFromX = event->position().x();
    } else if (event->button() == Qt::RightButton) {
        clearRange();
    }
    QWidget::mousePressEvent(event);
}

void TimelineChart::mouseMoveEvent(QMouseEvent *event)
{
    if (m_panFromX) {
        panBy(timeAt(*m_panFromX) - timeAt(event->position().x()));
        m_panFromX = event->position().x();
    } else if (m_pressPos && (event->buttons() & Qt::LeftButton)) {
        if (!m_dragging && std::abs(event->position().x() - m_pressPos->x()) > kDragThreshold)
            m_dragging = true;
        if (m_dragging) {
            const double a = timeAt(m_pressPos->x()), b = timeAt(event->position().x());
            m_range = std::make_pair(std::min(a, b), std::max(a, b));
            update();
        }
    }
    QWidget::mouseMoveEvent(event);
}

void TimelineChart::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() == Qt::MiddleButton)
        m_panFromX.reset();
    if (event->button() != Qt::LeftButton || !m_pressPos)
        return QWidget::mouseReleaseEvent(event);
    const QPointF press = *m_pressPos;
    m_pressPos.reset();
    if (m_dragging) {
        m_dragging = false;
        if (const std::optional<std::pair<int, int>> calls = selectedCalls()) {
            activate(calls->first);
            emit rangeSelected(calls->first, calls->second);
        } else {
            clearRange(); // a range with no call in it selects nothing
        }
        return;
    }
    if (const std::optional<int> call = callUnder(press))
        activate(*call);
    QWidget::mouseReleaseEvent(event);
}

void TimelineChart::keyPressEvent(QKeyEvent *event)
{
    const qreal centre = plotRect().center().x();
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomAt(0.5, centre);
        break;
    case Qt::Key_Minus:
        zoomAt(2, centre);
        break;
    case Qt::Key_0:
        fitAll();
        break;
    case Qt::Key_Escape:
        clearRange();
        break;
    case Qt::Key_Left:
        if (m_run && m_current > 0)
            activate(m_current - 1);
        break;
    case Qt::Key_Right:
        if (m_run && m_current + 1 < int(m_run->calls.size()))
            activate(m_current + 1);
        break;
    default:
        QWidget::keyPressEvent(event);
    }
}

QString TimelineChart::toolTipAt(const QPointF &pos) const
{
    const recording::TimelineView *v = view();
    if (!v || !plotRect().contains(pos))
        return {};
    const double t = timeAt(pos.x());
    const double slack = 4 * (m_toMs - m_fromMs) / plotRect().width();
    const auto spanText = [&](const TimelineSpan &s) {
        const QString duration = formatTimelineMs(s.endMs - s.startMs);
        return s.endOnRecord ? tr("%1 – %2 (%3)").arg(formatTimelineMs(s.startMs), formatTimelineMs(s.endMs), duration)
                             : tr("from %1; no end on record (drawn to the last event that belongs to it, %2 later)")
                                   .arg(formatTimelineMs(s.startMs), duration);
    };
    QStringList lines;
    for (const TimelineMarker &m : v->markers)
        if (std::abs(m.atMs - t) <= slack)
            lines << tr("At %1: %2").arg(formatTimelineMs(m.atMs), toQString(m.label));
    const auto pick = [&](const std::vector<TimelineSpan> &spans) -> const TimelineSpan * {
        const std::optional<std::size_t> i = recording::spanAt(spans, t, slack);
        return i ? &spans[*i] : nullptr;
    };
    if (rowRect(Row::Turns).contains(pos)) {
        if (const TimelineSpan *s = pick(v->turns))
            lines << tr("Turn %1: %2").arg(s->turn + 1).arg(spanText(*s));
    }
    if (rowRect(Row::Iterations).contains(pos)) {
        if (const TimelineSpan *s = pick(v->iterations))
            lines << tr("Iteration %1 of turn %2 (call %3): %4")
                         .arg(s->iteration ? QString::number(*s->iteration) : tr("?"))
                         .arg(s->turn + 1)
                         .arg(s->call.value_or(0) + 1)
                         .arg(spanText(*s));
    } else if (rowRect(Row::Turns).contains(pos)) {
        // the turn, said above
    } else if (rowRect(Row::Tools).contains(pos)) {
        const std::size_t lane = std::size_t((pos.y() - rowRect(Row::Tools).top()) / toolLaneHeight());
        const auto [first, last] = recording::spansIn(v->tools, t - slack, t + slack);
        for (std::size_t i = first; i < last; ++i) {
            const TimelineSpan &s = v->tools[i];
            if (laneOf(s) != lane || t < s.startMs - slack || t > s.endMs + slack)
                continue;
            lines << tr("Tool %1 (%2) for call %3%4")
                         .arg(s.toolName.empty() ? tr("(name not on record)") : toQString(s.toolName),
                              toQString(s.toolId))
                         .arg(s.call.value_or(0) + 1)
                         .arg(s.error ? tr(" · threw an error") : QString());
            lines << spanText(s);
            break;
        }
    } else if (const TimelineSpan *s = pick(v->calls)) {
        lines << tr("Call %1 · turn %2%3")
                     .arg(s->call.value_or(0) + 1)
                     .arg(s->turn + 1)
                     .arg(s->iteration ? tr(" · iteration %1").arg(*s->iteration) : QString());
        lines << tr("Latency: %1").arg(spanText(*s));
        lines << tr("Cache: %1").arg(StatusText::verdictShort(s->verdict));
    }
    for (const TimelineSpan &s : v->pauses)
        if (t >= s.startMs && t <= s.endMs)
            lines << (s.endOnRecord ? tr("Paused: %1").arg(spanText(s))
                                    : tr("Paused from %1; no resume on record").arg(formatTimelineMs(s.startMs)));
    return lines.join(QLatin1Char('\n'));
}

bool TimelineChart::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), toolTipText(text), this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace tf::ui
