#include "ui/widgets/columnfitter.h"

#include <QAbstractItemView>
#include <QEvent>
#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTreeView>

#include <algorithm>
#include <functional>
#include <numeric>

namespace tf::ui {

namespace {

// Rows measured for a column's width: enough for any ledger or conversation, bounded for a 3,000-call list.
constexpr int kMeasuredRows = 4000;
// Texts whose widths are remembered: a few ledgers' worth of distinct cells (ids, tool names, iterations).
constexpr qsizetype kRememberedWidths = 50000;

} // namespace

ColumnFitter::ColumnFitter(QAbstractItemView *view, QHeaderView *header, const QList<Fit> &fits)
    : QObject(view)
    , m_view(view)
    , m_viewport(view->viewport())
    , m_header(header)
    , m_fits(fits)
{
    // Hiding and showing a column resizes it to 0 and back: that is not the user choosing a width.
    connect(header, &QHeaderView::sectionResized, this, [this](int section, int oldSize, int newSize) {
        if (!m_fitting && oldSize > 0 && newSize > 0 &&
            m_header->sectionResizeMode(section) == QHeaderView::Interactive)
            m_userSized.insert(section);
    });
    view->installEventFilter(this);
    m_viewport->installEventFilter(this); // resized after the view has placed it: its width is the new one
    for (int c = 0; c < header->count(); ++c) {
        m_fitted.insert(c, header->sectionSize(c));
        m_designed.insert(c, header->sectionSize(c));
    }
}

int ColumnFitter::labelWidth(const QHeaderView *header, int section)
{
    const QString label =
        header->model() ? header->model()->headerData(section, header->orientation()).toString() : QString();
    const int margin = header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    int width = header->fontMetrics().horizontalAdvance(label) + 2 * margin + 2;
    if (header->isSortIndicatorShown() && header->sortIndicatorSection() == section)
        width += margin + header->style()->pixelMetric(QStyle::PM_HeaderMarkSize, nullptr, header);
    return width;
}

int ColumnFitter::textWidth(const QFontMetrics &fm, const QString &text) const
{
    // A call's ledger holds the rows of the calls before it: most cells were measured at an earlier call. Shaping
    // them again was most of a call switch at 3,000 rows; a lookup is a hash of the text.
    if (const auto it = m_widths.constFind(text); it != m_widths.cend())
        return *it;
    if (m_widths.size() >= kRememberedWidths)
        m_widths.clear();
    const int width = fm.horizontalAdvance(text);
    m_widths.insert(text, width);
    return width;
}

int ColumnFitter::widestAllowed(const Fit &fit) const
{
    return fit.maxChars * m_view->fontMetrics().averageCharWidth();
}

int ColumnFitter::contentWidth(const Fit &fit) const
{
    const QAbstractItemModel *model = m_view->model();
    if (!model)
        return 0;
    // A table's filter that lets every row through shows the source's rows, maybe in another order: when all of them
    // are measured, they are measured in the source, without mapping each cell through the proxy (a third of a
    // 3,000-row ledger's fit). A proxy that drops columns, a tree's proxy and a delegate's measure are left as they
    // are; so would be a proxy that shows other data than its source's (none does).
    if (const auto *proxy = qobject_cast<const QSortFilterProxyModel *>(model);
        proxy && !fit.byDelegate && !qobject_cast<const QTreeView *>(m_view) && proxy->sourceModel() &&
        proxy->rowCount() == proxy->sourceModel()->rowCount() && proxy->rowCount() <= kMeasuredRows &&
        proxy->columnCount() == proxy->sourceModel()->columnCount())
        model = proxy->sourceModel();
    const int column = fit.column;
    const QFontMetrics fm = m_view->fontMetrics();
    QStyleOptionViewItem option;
    option.initFrom(m_view);
    option.font = m_view->font();
    // The item's text margins, as the style pads a cell (Fusion: 3 px a side, and the focus frame).
    const int padding = 2 * (m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 1) + 4;
    // A tree's rows under their groups too (the Wire's messages), indented.
    const auto *tree = qobject_cast<const QTreeView *>(m_view);
    const int indent = tree ? tree->indentation() : 0;
    int widest = 0, measured = 0;
    // A column is never wider than its limit: once a cell reaches it, the rows left cannot change the width (a
    // ledger's ids reach it within a few of its 3,300 rows).
    const int limit = widestAllowed(fit);
    const std::function<void(const QModelIndex &, int)> measure = [&](const QModelIndex &parent, int depth) {
        const int rows = model->rowCount(parent);
        for (int r = 0; r < rows && measured < kMeasuredRows && widest + padding < limit; ++r, ++measured) {
            const QModelIndex index = model->index(r, column, parent);
            const int extra = column == 0 ? depth * indent : 0;
            const int cell = fit.byDelegate ? m_view->itemDelegateForIndex(index)->sizeHint(option, index).width()
                                            : textWidth(fm, index.data().toString());
            widest = qMax(widest, cell + extra);
            // Only a tree shows what is under a row (asking a table's proxy costs a mapping per row).
            if (tree) {
                const QModelIndex first = model->index(r, 0, parent);
                if (model->hasChildren(first))
                    measure(first, depth + 1);
            }
        }
    };
    measure(QModelIndex(), 0);
    return widest + padding;
}

void ColumnFitter::fit()
{
    // Widths measured in another font, or at another resolution (a move to another screen), are forgotten.
    if (m_view->font() != m_widthsFont || m_view->logicalDpiX() != m_widthsDpi) {
        m_widths.clear();
        m_widthsFont = m_view->font();
        m_widthsDpi = m_view->logicalDpiX();
    }
    m_content.clear();
    if (m_header->model())
        for (const Fit &f : std::as_const(m_fits)) {
            // A header state saved by an older build (which sized some views' columns to their contents) restores
            // that mode, and a column in it would never be fitted.
            if (m_header->sectionResizeMode(f.column) == QHeaderView::ResizeToContents)
                m_header->setSectionResizeMode(f.column, QHeaderView::Interactive);
            m_content.insert(f.column, contentWidth(f));
        }
    apply();
}

void ColumnFitter::setColumnHidden(int column, bool hidden)
{
    if (m_header->isSectionHidden(column) == hidden)
        return;
    // Hiding or showing the last column gives the one before it back the width it had before it stretched, and the
    // header says so at once: that is not the user resizing it.
    m_fitting = true;
    m_header->setSectionHidden(column, hidden);
    m_fitting = false;
}

void ColumnFitter::apply()
{
    if (!m_header->model())
        return;
    m_fitting = true;
    int lastVisible = -1;
    for (int v = m_header->count() - 1; v >= 0 && lastVisible < 0; --v)
        if (!m_header->isSectionHidden(m_header->logicalIndex(v)))
            lastVisible = m_header->logicalIndex(v);
    struct Column
    {
        int column, width, label;
    };
    QList<Column> columns;
    int total = 0, stretchRoom = 0;
    int stretchingLast = -1; // the last section when the header stretches it (not a Stretch section)
    for (int c = 0; c < m_header->count(); ++c) {
        if (m_header->isSectionHidden(c))
            continue;
        const bool stretches = m_header->sectionResizeMode(c) == QHeaderView::Stretch ||
                               (m_header->stretchLastSection() && c == lastVisible);
        if (stretches) {
            stretchRoom += qMax(labelWidth(m_header, c), m_view->viewport()->width() * m_stretchPercent / 100);
            if (m_header->sectionResizeMode(c) != QHeaderView::Stretch)
                stretchingLast = c;
            continue;
        }
        // A width set by someone else (the user dragging, the settings restored) is theirs to keep.
        if (m_fitted.contains(c) && m_fitted.value(c) != m_header->sectionSize(c))
            m_userSized.insert(c);
        if (m_userSized.contains(c) || m_header->sectionResizeMode(c) != QHeaderView::Interactive) {
            total += m_header->sectionSize(c);
            continue;
        }
        int width = m_designed.value(c, m_header->sectionSize(c));
        bool fitted = false;
        for (const Fit &f : std::as_const(m_fits))
            if (f.column == c) {
                width = qMin(m_content.value(c, width), widestAllowed(f));
                fitted = true;
            }
        const int label = labelWidth(m_header, c);
        width = qMax(width, label);
        // A column of set width (a number, a glyph) keeps it; the fitted ones give way when the view is narrow.
        columns.append({c, width, fitted ? label : width});
        total += width;
    }
    // Too wide for the view: each fitted column keeps its label, and the width left is shared out evenly, so the short
    // columns (an iteration, a standing) stay whole and the long ones (a list of ids) share the rest.
    const int available = m_view->viewport()->width() - stretchRoom;
    if (m_view->viewport()->width() > 0 && total > available) {
        int left = available - (total - std::accumulate(columns.cbegin(), columns.cend(), 0,
                                                        [](int sum, const Column &c) { return sum + c.width; }));
        QList<int> wanted;
        for (Column &c : columns) {
            wanted << c.width;
            c.width = c.label;
            left -= c.label;
        }
        for (int open = int(columns.size()); left > 0 && open > 0;) {
            const int share = qMax(1, left / open);
            open = 0;
            for (int i = 0; i < columns.size() && left > 0; ++i) {
                const int more = std::min({share, wanted[i] - columns[i].width, left});
                columns[i].width += more;
                left -= more;
                open += columns[i].width < wanted[i] ? 1 : 0;
            }
        }
    }
    // The view hears of each resized section on a zero timer that repaints the columns right of it: after the paint
    // that already showed the new widths, at every call switch that fits a column again. Told nothing, it has its
    // geometry brought up to date here, and the whole view repaints once.
    bool resized = false;
    {
        const QSignalBlocker quiet(m_header);
        for (const Column &c : std::as_const(columns)) {
            if (c.width != m_header->sectionSize(c.column)) {
                m_header->resizeSection(c.column, c.width);
                resized = true;
            }
            m_fitted.insert(c.column, c.width);
        }
        // A stretching section is resized on the header's next read of its length, and says so: read it while the
        // header is quiet.
        // A stretched last section never shrinks below the width it had before it stretched (the header's default
        // section size, 100 px, until resized): where the view is too narrow for the columns, that made them overflow
        // it by what the label did not need. It gets its label's width back, and stretches from there.
        // Not a column the user sized (dragging it wider is theirs to do, scroll bar and all), and only when that
        // changes its width (a repaint at every call switch otherwise).
        if (stretchingLast >= 0 && !m_userSized.contains(stretchingLast) &&
            m_header->length() > m_view->viewport()->width()) {
            const int label = labelWidth(m_header, stretchingLast);
            if (m_header->sectionSize(stretchingLast) != label) {
                m_header->resizeSection(stretchingLast, label);
                resized = true;
            }
        }
        (void)m_header->length();
    }
    if (resized) {
        QMetaObject::invokeMethod(m_view, "updateGeometries", Qt::DirectConnection);
        m_viewport->update();
    }
    m_fitting = false;
}

bool ColumnFitter::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view && event->type() == QEvent::FontChange)
        fit();
    else if (watched == m_viewport && event->type() == QEvent::Resize)
        apply();
    return QObject::eventFilter(watched, event);
}

} // namespace tf::ui
