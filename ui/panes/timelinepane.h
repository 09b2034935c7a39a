#pragma once

#include "ui/services/loadedrun.h"

#include <QWidget>

class QToolButton;

namespace tf::ui {

class ElidedLabel;
class TimelineChart;

// The Timeline dock: the run on its wall-clock axis (TimelineChart) under one line that says what the record does
// not time (calls without timestamps, spans whose end is not on record) and what the mouse does, with a button that
// fits the whole run again.
class TimelinePane : public QWidget
{
    Q_OBJECT

public:
    explicit TimelinePane(QWidget *parent = nullptr);

    void setRun(const RunHandle &run);
    TimelineChart *chart() const { return m_chart; }
    QString noteText() const;

private:
    void updateNote();

    RunHandle m_run;
    TimelineChart *m_chart = nullptr;
    ElidedLabel *m_note = nullptr;
    QToolButton *m_fit = nullptr;
};

} // namespace tf::ui
