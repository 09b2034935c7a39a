#include "ui/panes/timelinepane.h"

#include "ui/widgets/elidedlabel.h"
#include "ui/widgets/timelinechart.h"

#include <QHBoxLayout>
#include <QToolButton>
#include <QVBoxLayout>

namespace tf::ui {

TimelinePane::TimelinePane(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("timelinePane"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    // The key above the chart, the note and the Fit button under it: each line keeps the width to itself.
    auto *legend = new TimelineLegend(this);
    legend->setObjectName(QStringLiteral("timelineLegend"));
    legend->setContentsMargins(0, 0, 0, 0);
    auto *head = new QHBoxLayout;
    head->setContentsMargins(8, 3, 8, 1);
    head->addWidget(legend, 1);
    layout->addLayout(head);
    m_chart = new TimelineChart(this);
    m_chart->setObjectName(QStringLiteral("timelineChart"));
    layout->addWidget(m_chart, 1);

    auto *foot = new QHBoxLayout;
    foot->setContentsMargins(8, 1, 4, 2);
    foot->setSpacing(6);
    m_note = new ElidedLabel(this);
    m_note->setObjectName(QStringLiteral("timelineNote"));
    m_note->setForegroundRole(QPalette::PlaceholderText);
    QFont small = m_note->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_note->setFont(small);
    foot->addWidget(m_note, 1);
    m_fit = new QToolButton(this);
    m_fit->setObjectName(QStringLiteral("timelineFitButton"));
    m_fit->setText(tr("Fit run"));
    m_fit->setToolTip(tr("Show the whole run (0)"));
    m_fit->setAutoRaise(true);
    m_fit->setFont(small);
    foot->addWidget(m_fit);
    layout->addLayout(foot);

    connect(m_fit, &QToolButton::clicked, m_chart, &TimelineChart::fitAll);
    connect(m_chart, &TimelineChart::visibleRangeChanged, this, &TimelinePane::updateNote);
    connect(m_chart, &TimelineChart::rangeSelected, this, &TimelinePane::updateNote);
    connect(m_chart, &TimelineChart::rangeCleared, this, &TimelinePane::updateNote);
}

void TimelinePane::setRun(const RunHandle &run)
{
    m_run = run;
    m_chart->setRun(run);
    updateNote();
}

QString TimelinePane::noteText() const
{
    return m_note->text();
}

void TimelinePane::updateNote()
{
    const recording::TimelineView *v = m_run ? m_run->timeline.get() : nullptr;
    if (!v || m_run->calls.empty()) {
        m_note->clear();
        m_fit->setEnabled(false);
        return;
    }
    m_fit->setEnabled(v->timed);
    if (!v->timed) {
        m_note->setText(tr("Not on record: no event carries a wall-clock timestamp, so nothing is placed in time."));
        return;
    }
    QStringList parts;
    if (const auto calls = m_chart->selectedCalls())
        parts << tr("Range %1 – %2: calls %3–%4 (the Calls list shows only these; Esc or right click clears)")
                     .arg(formatTimelineMs(m_chart->selectedRange()->first),
                          formatTimelineMs(m_chart->selectedRange()->second))
                     .arg(calls->first + 1)
                     .arg(calls->second + 1);
    else
        parts << tr("Showing %1 – %2 of %3 (%n call(s))", nullptr, int(m_run->calls.size()))
                     .arg(formatTimelineMs(std::max(0.0, m_chart->visibleFromMs())),
                          formatTimelineMs(std::min(v->endMs, m_chart->visibleToMs())), formatTimelineMs(v->endMs));
    if (v->untimedCalls)
        parts << tr("%n call(s) without a timestamp, not drawn", nullptr, int(v->untimedCalls));
    if (v->untimedTools)
        parts << tr("%n tool run(s) without a timestamp, not drawn", nullptr, int(v->untimedTools));
    if (v->openSpans)
        parts << tr("%n span(s) with no end on record, dashed", nullptr, int(v->openSpans));
    if (!m_chart->selectedCalls())
        parts << tr("wheel zooms, Shift+wheel pans, drag selects a range");
    m_note->setText(parts.join(QStringLiteral(" · ")));
}

} // namespace tf::ui
