#pragma once

#include "ui/models/reviewmarks.h"
#include "ui/services/loadedrun.h"

#include <QPixmap>
#include <QWidget>

namespace tf::ui {

// The whole run at a glance, one slot per call: the findings piece size (UTF-8 bytes) above, the provider's cache
// read and write tokens below, cache misses marked with a triangle, the selected call highlighted. Clicking or
// dragging moves the cursor; Left / Right / Home / End do too when it has focus. The mouse wheel zooms about the
// cursor (Shift or a horizontal wheel pans, 0 shows every call again), so a run of thousands of calls reads call by
// call.
class StripChart : public QWidget
{
    Q_OBJECT

public:
    explicit StripChart(QWidget *parent = nullptr);

    void setRun(const RunHandle &run);
    void setCurrentCall(int ordinal);
    int currentCall() const { return m_current; }
    // Bookmarked calls get a star over their slot, annotated ones a note mark.
    void setReviewMarks(const ReviewMarks &marks);
    const ReviewMarks &reviewMarks() const { return m_marks; }

    // Geometry, exposed for tests: the slot under an x position and the centre of a slot.
    int callAt(qreal x) const;
    qreal slotCentre(int ordinal) const;
    // The calls shown: [firstVisibleCall, firstVisibleCall + visibleCallCount).
    int firstVisibleCall() const { return m_first; }
    int visibleCallCount() const;
    // Where call `ordinal`'s number is written under the plot (kept inside the widget at the edges).
    QRectF tickLabelRect(int ordinal) const;

public slots:
    // Zooms by `factor` (< 1 shows fewer calls) keeping the call under `anchorX` where it is.
    void zoomAt(double factor, qreal anchorX);
    void resetZoom();

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void callActivated(int ordinal);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    bool event(QEvent *event) override;

private:
    QRectF plotRect() const;
    void activate(int ordinal);
    void showWindow(int first, int count); // the zoomed window of calls
    const QPixmap &barsLayer(const QRectF &pieceLane, const QRectF &cacheLane) const;

    RunHandle m_run;
    ReviewMarks m_marks;
    bool m_anyMeasured = false; // some call reported cache usage: only then can a call be a cache miss
    int m_current = -1;
    int m_first = 0, m_count = 0; // the zoomed window; m_count 0: every call
    double m_maxPiece = 0;
    double m_maxTokens = 0;
    mutable QPixmap m_bars;
    mutable QSize m_barsSize;
    mutable qreal m_barsDpr = 0;
    mutable qint64 m_barsPalette = 0;
    mutable quintptr m_barsRun = 0;
    mutable int m_barsFirst = -1, m_barsCount = -1;
};

} // namespace tf::ui
