#pragma once

#include <QWidget>

namespace tf::ui {

// One line of plain text, elided to the width it gets; the full text is its tooltip (escaped). For untrusted text in
// tight places (the final answer, run ids). With more lines allowed it wraps at word boundaries where it is narrow
// (a verdict that should be read whole) and elides only the last line.
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
    // Lines the text may wrap to before the last is elided (1: one elided line).
    void setMaximumLines(int lines);
    int maximumLines() const { return m_maxLines; }
    // The lines drawn at `width`, the last one elided when the text needs more.
    QStringList linesAt(int width) const;
    bool hasHeightForWidth() const override { return m_maxLines > 1; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QString m_text;
    int m_maxWidth = 0;
    int m_maxLines = 1;
};

} // namespace tf::ui
