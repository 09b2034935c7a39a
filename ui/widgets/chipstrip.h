#pragma once

#include "ui/widgets/chippainter.h"

#include <QWidget>

namespace tf::ui {

// A row of chips, each with its own tooltip (plain text): the recording's gaps in the summary bar.
class ChipStrip : public QWidget
{
    Q_OBJECT

public:
    explicit ChipStrip(QWidget *parent = nullptr);
    void setChips(const QList<Chip> &chips, const QStringList &toolTips);
    const QList<Chip> &chips() const { return m_chips; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;

private:
    QList<Chip> m_chips;
    QStringList m_toolTips;
};

} // namespace tf::ui
