#pragma once

#include "ui/services/loadedrun.h"

#include <QWidget>

class QLabel;

namespace tf::ui {

class ChipStrip;
class ElidedLabel;

// The run at the top of the window: file, run id, model, calls, tokens including cache, the final answer, and the
// gaps the recording has (what it cannot prove), each gap a chip whose tooltip says why.
class SummaryBar : public QWidget
{
    Q_OBJECT

public:
    explicit SummaryBar(QWidget *parent = nullptr);
    void setRun(const RunHandle &run);

    QString fieldText(const QString &objectName) const;
    ChipStrip *gaps() const { return m_gaps; }

private:
    void setOutcome(const recording::Run &run);
    ElidedLabel *addField(const QString &objectName, const QString &caption, int stretch, int maxWidth = 0);

    ElidedLabel *m_file = nullptr;
    ElidedLabel *m_runId = nullptr;
    ElidedLabel *m_model = nullptr;
    ElidedLabel *m_calls = nullptr;
    ElidedLabel *m_tokens = nullptr;
    ElidedLabel *m_cache = nullptr;
    ElidedLabel *m_answer = nullptr;
    ElidedLabel *m_outcome = nullptr;
    ChipStrip *m_gaps = nullptr;
};

} // namespace tf::ui
