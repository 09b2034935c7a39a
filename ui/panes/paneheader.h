#pragma once

#include <QWidget>

namespace tf::ui {

class ElidedLabel;
class GlyphLabel;

// The head of a pane that states one verdict about the selected call: a glyph, a bold line and a muted line under
// it (the Receipt's state and counts, the Response's stop reason and usage). The labels are found by the object
// names given.
class PaneHeader : public QWidget
{
    Q_OBJECT

public:
    PaneHeader(QWidget *parent, const QString &titleObjectName, const QString &subtitleObjectName);

    GlyphLabel *glyph() const { return m_glyph; }
    ElidedLabel *title() const { return m_title; }
    ElidedLabel *subtitle() const { return m_subtitle; }

private:
    GlyphLabel *m_glyph = nullptr;
    ElidedLabel *m_title = nullptr;
    ElidedLabel *m_subtitle = nullptr;
};

} // namespace tf::ui
