#pragma once

#include "ui/widgets/glyphs.h"

#include <QWidget>

namespace tf::ui {

// A glyph as a widget (status lines of the panes).
class GlyphLabel : public QWidget
{
    Q_OBJECT

public:
    explicit GlyphLabel(QWidget *parent = nullptr, int side = 18);
    void setGlyph(std::optional<Glyph> glyph);
    std::optional<Glyph> glyph() const { return m_glyph; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    std::optional<Glyph> m_glyph;
    int m_side;
};

} // namespace tf::ui
