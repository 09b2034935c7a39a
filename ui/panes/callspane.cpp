#include "ui/panes/callspane.h"

#include "ui/models/alignedcallsmodel.h"
#include "ui/models/calllistmodel.h"
#include "ui/models/callstatus.h"
#include "ui/widgets/alignmentdelegate.h"
#include "ui/widgets/calltableview.h"
#include "ui/widgets/columnfitter.h"
#include "ui/widgets/elidedlabel.h"
#include "ui/widgets/glyphdelegate.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QScrollBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace tf::ui {

CallsPane::CallsPane(QWidget *parent)
    : QWidget(parent)
    , m_model(new CallListModel(this))
{
    setObjectName(QStringLiteral("callsPane"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_view = new CallTableView(this);
    m_view->setObjectName(QStringLiteral("callsView"));
    m_view->setModel(m_model);
    auto *delegate = new GlyphDelegate(CallListModel::GlyphRole, m_view);
    m_view->setItemDelegate(delegate);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setShowGrid(false);
    m_view->setWordWrap(false);
    m_view->setTabKeyNavigation(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    QHeaderView *header = m_view->horizontalHeader();
    header->setHighlightSections(false);
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(CallListModel::ModelColumn, QHeaderView::Stretch);
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    const int digit = m_view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    // Room for the glyph left of the number: a problem's severity, else a bookmark or a note.
    m_view->setColumnWidth(CallListModel::CallColumn, digit * 4 + 14 + m_view->fontMetrics().height() + 4);
    m_view->setColumnWidth(CallListModel::TurnColumn, digit * 3 + 14);
    m_view->setColumnWidth(CallListModel::EpochColumn, digit * 3 + 18);
    m_view->setColumnWidth(CallListModel::ResponseColumn, digit * 8 + 30);
    m_view->setColumnWidth(CallListModel::MessagesColumn, digit * 3 + 14);
    m_view->setColumnWidth(CallListModel::CacheColumn, 40);
    m_view->setColumnWidth(CallListModel::VerificationColumn, 38);
    m_view->setColumnWidth(CallListModel::LedgerColumn, digit * 3 + 30);
    m_view->setColumnWidth(CallListModel::CollapsedColumn, digit * 2 + 26);
    m_view->setColumnWidth(CallListModel::PieceColumn, digit * 7 + 10);
    m_view->setColumnWidth(CallListModel::CacheReadColumn, digit * 6 + 10);
    m_view->setColumnWidth(CallListModel::CacheWriteColumn, digit * 6 + 10);
    delegate->setGlyphOnlyColumns({CallListModel::CacheColumn, CallListModel::VerificationColumn});
    // Every header label whole, at any font; the response's words and the model's name as wide as they are.
    m_fitter =
        new ColumnFitter(m_view, header, {{CallListModel::ResponseColumn, 16}, {CallListModel::ModelColumn, 28}});
    // Sizes and cache tokens are drawn in the strip chart; the columns stay one right click away.
    m_view->setColumnHidden(CallListModel::PieceColumn, true);
    m_view->setColumnHidden(CallListModel::CacheReadColumn, true);
    m_view->setColumnHidden(CallListModel::CacheWriteColumn, true);
    connect(header, &QHeaderView::customContextMenuRequested, this, [this, header](const QPoint &pos) {
        QMenu menu;
        for (int c = 0; c < CallListModel::ColumnCount; ++c) {
            QAction *a = menu.addAction(m_model->headerData(c, Qt::Horizontal).toString());
            a->setCheckable(true);
            a->setChecked(!m_view->isColumnHidden(c));
            a->setEnabled(c != CallListModel::CallColumn);
            connect(a, &QAction::toggled, m_view, [this, c](bool on) { m_view->setColumnHidden(c, !on); });
        }
        menu.exec(header->mapToGlobal(pos));
    });
    layout->addWidget(m_view, 1);

    // Both runs side by side, shown instead of the plain list while a comparison is open.
    m_alignedModel = new AlignedCallsModel(this);
    m_alignedView = new QTableView(this);
    m_alignedView->setObjectName(QStringLiteral("alignedCallsView"));
    m_alignedView->setModel(m_alignedModel);
    m_alignedView->setItemDelegate(new AlignmentDelegate(m_alignedView));
    m_alignedView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_alignedView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_alignedView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_alignedView->setShowGrid(false);
    m_alignedView->setWordWrap(false);
    m_alignedView->setTabKeyNavigation(false);
    m_alignedView->verticalHeader()->hide();
    m_alignedView->verticalHeader()->setDefaultSectionSize(m_view->verticalHeader()->defaultSectionSize());
    m_alignedView->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    QHeaderView *alignedHeader = m_alignedView->horizontalHeader();
    alignedHeader->setHighlightSections(false);
    alignedHeader->setSectionResizeMode(QHeaderView::Interactive);
    alignedHeader->setSectionResizeMode(AlignedCallsModel::ThisDidColumn, QHeaderView::Stretch);
    alignedHeader->setSectionResizeMode(AlignedCallsModel::BaselineDidColumn, QHeaderView::Stretch);
    m_alignedView->setColumnWidth(AlignedCallsModel::ThisCallColumn, digit * 4 + 14);
    m_alignedView->setColumnWidth(AlignedCallsModel::MarkColumn, digit * 2 + 14);
    m_alignedView->setColumnWidth(AlignedCallsModel::BaselineCallColumn, digit * 4 + 14);
    m_alignedView->hide();
    layout->addWidget(m_alignedView, 1);
    connect(m_alignedView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (current.isValid() && !m_settingAlignedRow)
                    emit alignedRowChosen(current.row());
            });

    m_footer = new ElidedLabel(this);
    m_footer->setObjectName(QStringLiteral("callsFooter"));
    m_footer->setContentsMargins(8, 3, 8, 3);
    m_footer->setForegroundRole(QPalette::PlaceholderText);
    QFont small = m_footer->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_footer->setFont(small);
    m_showAll = new QToolButton(this);
    m_showAll->setObjectName(QStringLiteral("callsShowAllButton"));
    m_showAll->setText(tr("Show all calls"));
    m_showAll->setAutoRaise(true);
    m_showAll->setFont(small);
    m_showAll->hide();
    connect(m_showAll, &QToolButton::clicked, this, &CallsPane::clearCallRange);
    auto *footerRow = new QHBoxLayout;
    footerRow->setContentsMargins(0, 0, 4, 0);
    footerRow->addWidget(m_footer, 1);
    footerRow->addWidget(m_showAll);
    layout->addLayout(footerRow);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (current.isValid())
                    emit currentCallChanged(current.row());
            });
}

void CallsPane::setRun(const RunHandle &run)
{
    // More of the same run indexed: its rows are appended (CallListModel::setRun), and a range chosen in the Timeline
    // stays chosen, the new rows falling outside it.
    const bool moreOfSame = run && m_model->run() && run->run == m_model->run()->run;
    if (!moreOfSame) {
        m_range.reset();
        m_showAll->hide();
    }
    const int listed = m_model->rowCount();
    m_model->setRun(run);
    if (m_range)
        for (int r = listed; r < m_model->rowCount(); ++r)
            m_view->setRowHidden(r, true);
    if (!run) {
        m_footerText.clear();
        m_footer->clear();
        return;
    }
    int misses = 0, changes = 0, damaged = 0, collapsed = 0, errors = 0;
    for (const recording::CallSummary &c : run->calls) {
        misses += isCacheMiss(c) ? 1 : 0;
        changes += c.ledgerChanged ? 1 : 0;
        damaged += c.damaged || c.damagedParts ? 1 : 0;
        collapsed += c.collapsedIds.empty() ? 0 : 1;
        errors += !c.response || c.anyToolError() ? 1 : 0;
    }
    // Columns that would say the same on every row, or say nothing on this run, stay one right click away: one
    // turn, one model, and the findings marks (ledger, collapsed) on a run that is not armed.
    const bool oneModel = std::all_of(run->calls.begin(), run->calls.end(), [&](const recording::CallSummary &c) {
        return c.model == run->calls.front().model;
    });
    // On a run whose iterations are its call numbers the iteration column only repeats the first one.
    bool iterationIsCallNumber = true;
    for (std::size_t i = 0; i < run->calls.size() && iterationIsCallNumber; ++i)
        iterationIsCallNumber = run->calls[i].epoch == int(i) + 1;
    m_view->setColumnHidden(CallListModel::TurnColumn, run->run->turns.size() < 2);
    m_view->setColumnHidden(CallListModel::EpochColumn, iterationIsCallNumber);
    m_view->setColumnHidden(CallListModel::ModelColumn, oneModel && !run->calls.empty());
    m_view->setColumnHidden(CallListModel::LedgerColumn, !run->run->constants.armed);
    m_view->setColumnHidden(CallListModel::CollapsedColumn, !run->run->constants.armed);
    // The stretching column: the model where it is shown, else the response.
    QHeaderView *header = m_view->horizontalHeader();
    header->setSectionResizeMode(CallListModel::ModelColumn,
                                 oneModel ? QHeaderView::Interactive : QHeaderView::Stretch);
    header->setSectionResizeMode(CallListModel::ResponseColumn,
                                 oneModel ? QHeaderView::Stretch : QHeaderView::Interactive);
    m_fitter->fit();
    QStringList parts = {tr("%n turn(s) (T)", nullptr, int(run->run->turns.size())),
                         tr("%n with errors (E)", nullptr, errors), tr("%n miss(es) (M)", nullptr, misses),
                         tr("%n ledger change(s) (L)", nullptr, changes), tr("%n damaged (D)", nullptr, damaged)};
    if (run->run->constants.armed)
        parts << tr("%n with collapsed results", nullptr, collapsed);
    // The counts cover the calls listed so far.
    if (run->indexing)
        parts.prepend(run->run->preview
                          ? tr("the first %n call(s), read ahead", nullptr, int(run->calls.size()))
                          : tr("%1 of %2 calls indexed").arg(run->calls.size()).arg(run->run->calls.size()));
    m_footerText = parts.join(QStringLiteral(" · "));
    updateFooter();
}

void CallsPane::updateFooter()
{
    if (const ComparisonHandle &c = m_alignedModel->comparison()) {
        int divergent = 0;
        for (int r = 0; r < m_alignedModel->rowCount(); ++r)
            divergent += m_alignedModel->isDivergent(r) ? 1 : 0;
        m_footer->setText(
            tr("Aligned with %1: %n divergent row(s)", nullptr, divergent).arg(QFileInfo(c->baselinePath).fileName()));
        m_showAll->hide();
        return;
    }
    m_footer->setText(m_range ? tr("Calls %1–%2 of %3, the range selected in the Timeline")
                                    .arg(m_range->first + 1)
                                    .arg(m_range->second + 1)
                                    .arg(m_model->rowCount())
                              : m_footerText);
    m_showAll->setVisible(m_range.has_value());
}

void CallsPane::setCallRange(int first, int last)
{
    const int rows = m_model->rowCount();
    first = std::clamp(first, 0, std::max(0, rows - 1));
    last = std::clamp(last, first, std::max(0, rows - 1));
    if (rows == 0 || m_range == std::make_pair(first, last))
        return;
    m_range = std::make_pair(first, last);
    m_view->setUpdatesEnabled(false);
    for (int r = 0; r < rows; ++r)
        m_view->setRowHidden(r, r < first || r > last);
    m_view->setUpdatesEnabled(true);
    updateFooter();
}

void CallsPane::clearCallRange()
{
    if (!m_range)
        return;
    m_view->setUpdatesEnabled(false);
    for (int r = m_model->rowCount() - 1; r >= 0; --r)
        m_view->setRowHidden(r, false);
    m_view->setUpdatesEnabled(true);
    m_range.reset();
    updateFooter();
    const QModelIndex current = m_view->currentIndex();
    if (current.isValid())
        m_view->scrollTo(current);
    emit callRangeCleared();
}

void CallsPane::setComparison(const ComparisonHandle &comparison)
{
    m_settingAlignedRow = true;
    m_alignedModel->setComparison(comparison);
    m_settingAlignedRow = false;
    const bool aligned = comparison != nullptr;
    const bool hadFocus = (aligned ? m_view : m_alignedView)->hasFocus();
    m_alignedView->setVisible(aligned);
    m_view->setVisible(!aligned);
    if (aligned)
        setAlignedRow(m_alignedModel->rowOfThisCall(currentCall()));
    if (hadFocus)
        (aligned ? static_cast<QWidget *>(m_alignedView) : m_view)->setFocus();
    updateFooter();
}

bool CallsPane::isAligned() const
{
    return m_alignedModel->comparison() != nullptr;
}

int CallsPane::alignedRow() const
{
    const QModelIndex i = m_alignedView->currentIndex();
    return i.isValid() ? i.row() : -1;
}

void CallsPane::setAlignedRow(int row)
{
    if (row < 0 || row >= m_alignedModel->rowCount() || row == alignedRow())
        return;
    m_settingAlignedRow = true;
    const QModelIndex index = m_alignedModel->index(row, AlignedCallsModel::ThisCallColumn);
    m_alignedView->selectionModel()->setCurrentIndex(index,
                                                     QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_alignedView->scrollTo(index);
    m_settingAlignedRow = false;
}

int CallsPane::neededWidth() const
{
    const QHeaderView *header = m_view->horizontalHeader();
    int width = 2 * m_view->frameWidth() + m_view->verticalScrollBar()->sizeHint().width();
    for (int c = 0; c < header->count(); ++c) {
        if (header->isSectionHidden(c))
            continue;
        if (header->sectionResizeMode(c) != QHeaderView::Stretch) {
            width += header->sectionSize(c);
            continue;
        }
        // The stretching column: its label, and its longest word (a stop reason, a model name) up to 16 characters.
        int widest = ColumnFitter::labelWidth(header, c);
        const QFontMetrics fm = m_view->fontMetrics();
        for (int r = 0; r < qMin(m_model->rowCount(), 4000); ++r)
            widest = qMax(widest, fm.horizontalAdvance(m_model->index(r, c).data().toString()) + 12);
        width += qMin(widest, fm.averageCharWidth() * 16);
    }
    return width;
}

int CallsPane::currentCall() const
{
    const QModelIndex i = m_view->currentIndex();
    return i.isValid() ? i.row() : -1;
}

void CallsPane::setCurrentCall(int ordinal)
{
    if (ordinal < 0 || ordinal >= m_model->rowCount())
        return;
    if (m_range && (ordinal < m_range->first || ordinal > m_range->second))
        clearCallRange(); // a call outside the range was chosen elsewhere: the list shows every call again
    if (ordinal == currentCall())
        return;
    // The call number column is never hidden; the current index must sit in a visible column for the arrow keys.
    const QModelIndex index = m_model->index(ordinal, CallListModel::CallColumn);
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(index);
    // The aligned list follows, unless its row already holds the call.
    if (isAligned() && m_alignedModel->index(alignedRow(), 0).data(AlignmentModel::ThisCallRole).toInt() != ordinal)
        setAlignedRow(m_alignedModel->rowOfThisCall(ordinal));
}

} // namespace tf::ui
