#pragma once

#include <QFont>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>

class QFontMetrics;

class QAbstractItemView;
class QHeaderView;
class QWidget;

namespace tf::ui {

// Sizes a view's columns to what they show. Every visible column is at least as wide as its header label (a larger
// font or a zoom never cuts "Declared on" to "d as"); each fitted column is as wide as the widest of its cells, up
// to a limit in average characters, so that ids and tool names are read whole where there is room. A column the
// user resized (or whose width was restored from the settings) keeps that width; a stretching column takes what is
// left and is not touched, but keeps room for its label (and a share of the view, if set): where the view is too narrow
// for every fitted column, each keeps its label and the width left is shared out evenly among them. Fitted again on
// each fit() (a new call) and after a font change or a resize of the view.
class ColumnFitter : public QObject
{
    Q_OBJECT

public:
    struct Fit
    {
        int column;
        int maxChars; // the widest the column grows, in average character widths
        // Measured by the view's delegate, for a column that paints more than its text (the Wire's status chips);
        // otherwise by the text's width alone, which is cheaper over thousands of rows.
        bool byDelegate = false;
    };

    ColumnFitter(QAbstractItemView *view, QHeaderView *header, const QList<Fit> &fits);

    // The share of the view (in percent) the stretching column keeps before the fitted columns get theirs (the
    // Ledger's line and assertions is what its rows are read for).
    void setStretchShare(int percent) { m_stretchPercent = percent; }
    // Measures the columns now (the model's rows, up to a few thousand).
    void fit();
    // Hides or shows a column (call fit() after): the width the header then gives its neighbour is not a user's.
    void setColumnHidden(int column, bool hidden);
    bool userResized(int column) const { return m_userSized.contains(column); }
    // What a header section needs for its whole label (the style's margins and sort indicator included).
    static int labelWidth(const QHeaderView *header, int section);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // The widest a fitted column grows (Fit::maxChars in the view's font).
    int widestAllowed(const Fit &fit) const;
    // The widest of the column's cells, up to widestAllowed(): measuring stops there.
    int contentWidth(const Fit &fit) const;
    // fm.horizontalAdvance(text), remembered while the view's font stays the same.
    int textWidth(const QFontMetrics &fm, const QString &text) const;
    // Sizes the columns from the widths measured last (a resize of the view measures nothing again).
    void apply();

    QAbstractItemView *m_view;
    // Kept apart from m_view: while the view is destroyed its viewport still sends events, and by then m_view is
    // only a QWidget, so m_view->viewport() is no longer a call that can be made.
    QWidget *m_viewport;
    QHeaderView *m_header;
    QList<Fit> m_fits;
    QSet<int> m_userSized;
    QHash<int, int> m_fitted;             // the width this fitter gave each column, to tell a width someone else set
    QHash<int, int> m_designed;           // the widths the pane gave its columns, before any fitting
    QHash<int, int> m_content;            // each fitted column's widest cell, measured at the last fit()
    mutable QHash<QString, int> m_widths; // a cell's text → its width in m_widthsFont at m_widthsDpi
    QFont m_widthsFont;
    int m_widthsDpi = 0;
    bool m_fitting = false;
    int m_stretchPercent = 0;
};

} // namespace tf::ui
