#include "ui/panes/ledgerpane.h"

#include "ui/models/ledgerfiltermodel.h"
#include "ui/models/ledgermodel.h"
#include "ui/services/qtstrings.h"
#include "ui/widgets/columnfitter.h"
#include "ui/widgets/compactheight.h"
#include "ui/widgets/ledgerdelegate.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace tf::ui {

LedgerPane::LedgerPane(QWidget *parent)
    : QWidget(parent)
    , m_model(new LedgerModel(this))
    , m_proxy(new LedgerFilterModel(this))
{
    setObjectName(QStringLiteral("ledgerPane"));
    m_proxy->setSourceModel(m_model);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto *bar = new QWidget(this);
    auto *barLayout = new QHBoxLayout(bar);
    barLayout->setContentsMargins(6, 3, 6, 3);
    barLayout->setSpacing(6);
    m_filter = new QLineEdit(bar);
    m_filter->setObjectName(QStringLiteral("ledgerFilter"));
    m_filter->setPlaceholderText(tr("Filter rows"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(tr("Show rows with this text in any column (Ctrl+F)"));
    m_scope = new QComboBox(bar);
    m_scope->setObjectName(QStringLiteral("ledgerScope"));
    m_scope->addItem(tr("All rows"), LedgerFilterModel::AllRows);
    m_scope->addItem(tr("Filed here"), LedgerFilterModel::NewRows);
    m_scope->addItem(tr("Current"), LedgerFilterModel::CurrentRows);
    m_scope->addItem(tr("Needs attention"), LedgerFilterModel::AttentionRows);
    m_scope->setItemData(1, tr("Rows filed at this call (since the previous call)"), Qt::ToolTipRole);
    m_scope->setItemData(2, tr("Without superseded standings and ignored rows"), Qt::ToolTipRole);
    m_scope->setItemData(3, tr("Conflicts, contingent, unsettled and malformed rows"), Qt::ToolTipRole);
    m_scope->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_counts = new QLabel(bar);
    m_counts->setObjectName(QStringLiteral("ledgerCounts"));
    m_counts->setTextFormat(Qt::PlainText);
    m_counts->setForegroundRole(QPalette::PlaceholderText);
    m_counts->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_counts->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_filter->setMinimumWidth(m_filter->fontMetrics().averageCharWidth() * 16);
    barLayout->addWidget(m_filter, 3);
    barLayout->addWidget(m_scope);
    barLayout->addWidget(m_counts, 2);
    layout->addWidget(bar);

    m_stack = new QStackedWidget(this);
    m_view = new ImmediateItemLayout<QTableView>(m_stack);
    m_view->setObjectName(QStringLiteral("ledgerView"));
    m_view->setModel(m_proxy);
    auto *delegate = new LedgerDelegate(m_view);
    m_view->setItemDelegate(delegate);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(LedgerModel::RowColumn, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(false);
    m_view->setShowGrid(false);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->horizontalHeader()->setSectionResizeMode(LedgerModel::DetailColumn, QHeaderView::Stretch);
    const int digit = m_view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    m_view->setColumnWidth(LedgerModel::RowColumn, digit * 3 + 12);
    m_view->setColumnWidth(LedgerModel::MarksColumn, digit * 13);
    m_view->setColumnWidth(LedgerModel::ResultIdColumn, digit * 7 + 4);
    m_view->setColumnWidth(LedgerModel::ToolColumn, digit * 10);
    m_view->setColumnWidth(LedgerModel::KindColumn, digit * 10);
    m_view->setColumnWidth(LedgerModel::StandingColumn, digit * 9);
    m_view->setColumnWidth(LedgerModel::DeclaredOnColumn, digit * 10);
    m_view->setColumnWidth(LedgerModel::IterationColumn, digit * 3 + 10);
    // The kind is in the standing column's words already (basis rows show their basis); one right click away.
    m_view->setColumnHidden(LedgerModel::KindColumn, true);
    // Ids and names read whole where there is room; an id squeezed keeps its kind and its number (call_4…_9).
    delegate->setElideMiddleColumns({LedgerModel::ResultIdColumn});
    m_fitter = new ColumnFitter(m_view, m_view->horizontalHeader(),
                                {{LedgerModel::ResultIdColumn, 30},
                                 {LedgerModel::ToolColumn, 24},
                                 {LedgerModel::StandingColumn, 20},
                                 {LedgerModel::DeclaredOnColumn, 18},
                                 {LedgerModel::IterationColumn, 6}});
    m_fitter->setStretchShare(20);
    setCompactHeight(m_view, 2);
    m_view->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view->horizontalHeader(), &QHeaderView::customContextMenuRequested, this, [this](const QPoint &pos) {
        QMenu menu;
        for (int c = 0; c < LedgerModel::ColumnCount; ++c) {
            QAction *a = menu.addAction(m_model->headerData(c, Qt::Horizontal).toString());
            a->setCheckable(true);
            a->setChecked(!m_view->isColumnHidden(c));
            connect(a, &QAction::toggled, m_view, [this, c](bool on) { m_view->setColumnHidden(c, !on); });
        }
        menu.exec(m_view->horizontalHeader()->mapToGlobal(pos));
    });
    m_empty = new QLabel(m_stack);
    m_empty->setObjectName(QStringLiteral("ledgerEmptyLabel"));
    m_empty->setTextFormat(Qt::PlainText);
    m_empty->setWordWrap(true);
    m_empty->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setMargin(24);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    m_stack->addWidget(m_view);
    m_stack->addWidget(m_empty);
    layout->addWidget(m_stack, 1);

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &t) {
        m_proxy->setText(t);
        updateCounts();
    });
    connect(m_scope, &QComboBox::currentIndexChanged, this, [this] {
        m_proxy->setScope(LedgerFilterModel::Scope(m_scope->currentData().toInt()));
        updateCounts();
    });
    updateCounts();
}

void LedgerPane::setBundle(const BundleHandle &bundle)
{
    m_model->setBundle(bundle);
    if (bundle && !m_model->ledgerOnRecord()) {
        m_empty->setText(bundle->view->record && bundle->view->record->hasStateAt
                             ? tr("No findings ledger at this call.")
                             : tr("The findings ledger is not on record in this recording."));
        m_stack->setCurrentWidget(m_empty);
    } else {
        m_stack->setCurrentWidget(m_view);
    }
    updateCounts();
    m_fitter->fit();
    // The ledger only grows: show the rows this call filed (they are tinted), unless the user is reading elsewhere.
    // Laid out first, so that the view paints once, already scrolled.
    m_view->layoutNow();
    if (m_view->selectionModel()->hasSelection())
        return;
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        if (m_proxy->index(r, 0).data(LedgerModel::IsNewRole).toBool()) {
            m_view->scrollTo(m_proxy->index(qMax(0, r - 1), 0), QAbstractItemView::PositionAtTop);
            break;
        }
}

void LedgerPane::focusFilter()
{
    m_filter->setFocus(Qt::ShortcutFocusReason);
    m_filter->selectAll();
}

void LedgerPane::selectRows(const QList<int> &rows)
{
    if (rows.isEmpty())
        return;
    QItemSelection selection;
    for (int r : rows) {
        QModelIndex proxyIndex = m_proxy->mapFromSource(m_model->index(r, 0));
        if (!proxyIndex.isValid() && (!m_filter->text().isEmpty() || m_scope->currentIndex() != 0)) {
            m_filter->clear();
            m_scope->setCurrentIndex(0);
            proxyIndex = m_proxy->mapFromSource(m_model->index(r, 0));
        }
        if (proxyIndex.isValid())
            selection.select(proxyIndex, proxyIndex.siblingAtColumn(LedgerModel::ColumnCount - 1));
    }
    if (selection.isEmpty())
        return;
    m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(selection.indexes().front(), QAbstractItemView::EnsureVisible);
}

void LedgerPane::updateCounts()
{
    const int total = m_model->rowCount();
    const int shown = m_proxy->rowCount();
    const int fresh = m_model->newRowCount();
    QString s = shown == total ? tr("%n row(s)", nullptr, total) : tr("%1 of %2 rows").arg(shown).arg(total);
    if (fresh)
        s += tr(" · %n new", nullptr, fresh);
    m_counts->setText(s);
}

} // namespace tf::ui
