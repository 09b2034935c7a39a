#pragma once

#include <QWidget>

namespace tf::ui {

// One line of plain text, elided to the width it gets; the full text is its tooltip (escaped). For untrusted text in
// tight places (the final answer, run ids).
class ElidedLabel : public QWidget
{
    Q_OBJECT

public:
    explicit ElidedLabel(QWidget *parent = nullptr);
    void setText(const QString &text);
    QString text() const { return m_text; }
    void clear() { setText(QString()); }
    void setMaximumTextWidth(int width)
    {
        m_maxWidth = width;
        updateGeometry();
    }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QString m_text;
    int m_maxWidth = 0;
};

} // namespace tf::ui
