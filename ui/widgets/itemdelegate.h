#pragma once

#include <QStyledItemDelegate>

namespace tf::ui {

// QStyledItemDelegate with the text drawn from TextLayoutCache: the style paints the panel, the selection, the
// decoration and the focus exactly as before, and a one-line text is drawn where the style would put it, elided the
// same way, but laid out once per text and width instead of three times per repaint. Items the fast path does not
// cover (check boxes, multi-line text, wrapping) are painted by QStyledItemDelegate itself. Every delegate of the
// window derives from this one.
class ItemDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    // Columns of ids (call_47_lookup_host_9): elided in the middle, so that both the kind and the number stay.
    void setElideMiddleColumns(const QList<int> &columns) { m_elideMiddle = columns; }
    bool elidesMiddle(int column) const { return m_elideMiddle.contains(column); }

protected:
    // The item's options, with the font skipping needless shaping (fonts.h). Subclasses call this one.
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;

private:
    QList<int> m_elideMiddle;
    static void drawText(QPainter *painter, const QStyleOptionViewItem &opt, const QString &text,
                         const QRect &displayRect, const QStyle *style);
};

} // namespace tf::ui
