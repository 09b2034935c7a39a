#pragma once

#include "ui/services/loadedrun.h"

#include <QPointF>
#include <QRectF>
#include <QWidget>

#include <optional>

namespace tf::ui {

// The run on its wall-clock axis (recording::TimelineView, computed in the core when the run loads): turn and
// iteration bands, each LLM call's latency, the cache verdict under it, the tool runs (errors in red), pauses and the
// limit and failure markers. The mouse wheel zooms about the cursor (Shift or a horizontal wheel pans); a click
// selects the call under it; a drag selects a time range, which names the calls it reaches. Only the visible
// window is painted, spans found by binary search (recording::spansIn), so a run of thousands of calls costs what
// the window shows.
class TimelineChart : public QWidget
{
    Q_OBJECT

public:
    enum class Row
    {
        Turns,
        Iterations,
        Calls,
        Cache,
        Tools,
    };

    explicit TimelineChart(QWidget *parent = nullptr);

    void setRun(const RunHandle &run);
    void setCurrentCall(int ordinal);
    int currentCall() const { return m_current; }

    // The visible window in milliseconds since the run's first timestamp.
    double visibleFromMs() const { return m_fromMs; }
    double visibleToMs() const { return m_toMs; }
    // The selected range, when one is (milliseconds), and the calls it reaches (0-based, inclusive).
    std::optional<std::pair<double, double>> selectedRange() const { return m_range; }
    std::optional<std::pair<int, int>> selectedCalls() const;

    // Geometry, exposed for tests and the pane.
    QRectF plotRect() const;
    QRectF rowRect(Row row) const;
    qreal toolLaneHeight() const;
    qreal xForTime(double ms) const;
    double timeAt(qreal x) const;
    // Where call `ordinal`'s span is drawn (its centre), when it is placed at all.
    std::optional<QPointF> callSpanCentre(int ordinal) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public slots:
    // Zooms by `factor` (< 1 zooms in) keeping the time under `anchorX` where it is.
    void zoomAt(double factor, qreal anchorX);
    void fitAll();
    void clearRange();

signals:
    void callActivated(int ordinal);
    // A drag selected the calls [first, last] (0-based, inclusive); cleared with rangeCleared.
    void rangeSelected(int first, int last);
    void rangeCleared();
    void visibleRangeChanged(double fromMs, double toMs);

protected:
    void paintEvent(QPaintEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    bool event(QEvent *event) override;

private:
    const recording::TimelineView *view() const;
    void setWindow(double fromMs, double toMs);
    void panBy(double ms);
    void activate(int ordinal);
    std::optional<int> callUnder(const QPointF &pos) const;
    QString toolTipAt(const QPointF &pos) const;
    void paintAxis(QPainter &p, const QRectF &plot) const;
    void paintBands(QPainter &p) const;
    void paintCalls(QPainter &p) const;
    void paintTools(QPainter &p) const;
    void paintMarkers(QPainter &p, const QRectF &plot) const;

    RunHandle m_run;
    int m_current = -1;
    double m_fromMs = 0, m_toMs = 1;
    std::optional<std::pair<double, double>> m_range;
    // Mouse state: where a left press began (a drag beyond a few pixels selects a range), or a middle-button pan.
    std::optional<QPointF> m_pressPos;
    bool m_dragging = false;
    std::optional<qreal> m_panFromX;
};

// The chart's key (what each colour and glyph means), one line, for the pane that holds the chart.
class TimelineLegend : public QWidget
{
    Q_OBJECT

public:
    explicit TimelineLegend(QWidget *parent = nullptr);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
};

// "350 ms", "12.4 s", "3:05.2": a duration or a time on the axis, as wide as its magnitude needs.
QString formatTimelineMs(double ms, double stepMs = 0);

} // namespace tf::ui
