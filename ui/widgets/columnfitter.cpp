#include "ui/widgets/columnfitter.h"

#include <QAbstractItemView>
#include <QEvent>
#include <QHeaderView>
#include <QStyle>
#include <QTreeView>

#include <functional>

namespace tf::ui {

namespace {

// Rows measured for a column's width: enough for any ledger or conversation, bounded for a 3,000-call list.
constexpr int kMeasuredRows = 4000;

} // namespace

ColumnFitter::ColumnFitter(QAbstractItemView *view, QHeaderView *header, const QList<Fit> &fits)
    : QObject(view)
    , m_view(view)
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
}

int ColumnFitter::labelWidth(const QHeaderView *header, int section)
{
    const QString label = header->model()
                              ? header->model()->headerData(section, header->orientation()).toString()
                              : QString();
    const int margin = header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    int width = header->fontMetrics().horizontalAdvance(label) + 2 * margin + 2;
    if (header->isSortIndicatorShown() && header->sortIndicatorSection() == section)
        width += margin + header->style()->pixelMetric(QStyle::PM_HeaderMarkSize, nullptr, header);
    return width;
}

int ColumnFitter::contentWidth(int column) const
{
    const QAbstractItemModel *model = m_view->model();
    if (!model)
        return 0;
    const QFontMetrics fm = m_view->fontMetrics();
    // The item's text margins, as the style pads a cell (Fusion: 3 px a side, and the focus frame).
    const int padding = 2 * (m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 1) + 4;
    // A tree's rows under their groups too (the Wire's messages), indented.
    const int indent = qobject_cast<const QTreeView *>(m_view) ? static_cast<const QTreeView *>(m_view)->indentation()
                                                               : 0;
    int widest = 0, measured = 0;
    const std::function<void(const QModelIndex &, int)> measure = [&](const QModelIndex &parent, int depth) {
        const int rows = model->rowCount(parent);
        for (int r = 0; r < rows && measured < kMeasuredRows; ++r, ++measured) {
            const QModelIndex index = model->index(r, column, parent);
            const int extra = column == 0 ? depth * indent : 0;
            widest = qMax(widest, fm.horizontalAdvance(index.data().toString()) + extra);
            if (model->hasChildren(model->index(r, 0, parent)))
                measure(model->index(r, 0, parent), depth + 1);
        }
    };
    measure(QModelIndex(), 0);
    return widest + padding;
}

void ColumnFitter::fit()
{
    if (!m_header->model())
        return;
    m_fitting = true;
    const int charWidth = m_view->fontMetrics().averageCharWidth();
    int lastVisible = -1;
    for (int v = m_header->count() - 1; v >= 0 && lastVisible < 0; --v)
        if (!m_header->isSectionHidden(m_header->logicalIndex(v)))
            lastVisible = m_header->logicalIndex(v);
    for (int c = 0; c < m_header->count(); ++c) {
        if (m_header->isSectionHidden(c) || m_userSized.contains(c) ||
            m_header->sectionResizeMode(c) != QHeaderView::Interactive ||
            (m_header->stretchLastSection() && c == lastVisible))
            continue;
        int width = m_header->sectionSize(c);
        for (const Fit &f : std::as_const(m_fits))
            if (f.column == c)
                width = qMin(contentWidth(c), f.maxChars * charWidth);
        width = qMax(width, labelWidth(m_header, c));
        if (width != m_header->sectionSize(c))
            m_header->resizeSection(c, width);
    }
    m_fitting = false;
}

bool ColumnFitter::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view && event->type() == QEvent::FontChange)
        fit();
    return QObject::eventFilter(watched, event);
}

} // namespace tf::ui
