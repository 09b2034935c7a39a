#pragma once

#include "ui/widgets/itemdelegate.h"

namespace tf::ui {

// Draws the glyph a model gives in `glyphRole` (an int, see glyphs.h) as the item's decoration, beside its text.
// Models stay free of widgets and icons; this is the one place a role becomes a picture.
class GlyphDelegate : public ItemDelegate
{
    Q_OBJECT

public:
    explicit GlyphDelegate(int glyphRole, QObject *parent = nullptr);

    // Glyph only, centred, for narrow columns (the text stays in the model for tooltips and tests).
    void setGlyphOnlyColumns(const QList<int> &columns) { m_glyphOnly = columns; }

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;

private:
    int m_role;
    QList<int> m_glyphOnly;
};

} // namespace tf::ui
