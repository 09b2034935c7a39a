#pragma once

#include <QObject>
#include <QSet>

class QAbstractItemView;
class QHeaderView;

namespace tf::ui {

// Sizes a view's columns to what they show. Every visible column is at least as wide as its header label (a larger
// font or a zoom never cuts "Declared on" to "d as"); each fitted column is as wide as the widest of its cells, up
// to a limit in average characters, so that ids and tool names are read whole where there is room. A column the
// user resized keeps the user's width; a stretching column takes what is left and is not touched. Fitted again after
// each model reset and font change.
class ColumnFitter : public QObject
{
    Q_OBJECT

public:
    struct Fit
    {
        int column;
        int maxChars; // the widest the column grows, in average character widths
    };

    ColumnFitter(QAbstractItemView *view, QHeaderView *header, const QList<Fit> &fits);

    // Measures the columns now (the model's rows, up to a few thousand).
    void fit();
    bool userResized(int column) const { return m_userSized.contains(column); }
    // What a header section needs for its whole label (the style's margins and sort indicator included).
    static int labelWidth(const QHeaderView *header, int section);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    int contentWidth(int column) const;

    QAbstractItemView *m_view;
    QHeaderView *m_header;
    QList<Fit> m_fits;
    QSet<int> m_userSized;
    bool m_fitting = false;
};

} // namespace tf::ui
