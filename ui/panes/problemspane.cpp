#include "ui/panes/problemspane.h"

#include "ui/widgets/columnfitter.h"
#include "ui/widgets/compactheight.h"
#include "ui/widgets/glyphdelegate.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

namespace tf::ui {

ProblemsPane::ProblemsPane(QWidget *parent)
    : QWidget(parent)
    , m_model(new ProblemsModel(this))
{
    setObjectName(QStringLiteral("problemsPane"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_counts = new QLabel(this);
    m_counts->setObjectName(QStringLiteral("problemsCounts"));
    m_counts->setTextFormat(Qt::PlainText);
    m_counts->setContentsMargins(6, 3, 6, 3);
    m_counts->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_counts);
    m_view = new QTreeView(this);
    m_view->setObjectName(QStringLiteral("problemsView"));
    m_view->setModel(m_model);
    m_view->setItemDelegate(new GlyphDelegate(ProblemsModel::GlyphRole, m_view));
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAllColumnsShowFocus(true);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideRight);
    QHeaderView *header = m_view->header();
    header->setStretchLastSection(true);
    header->setSectionResizeMode(QHeaderView::Interactive);
    const QFontMetrics fm = m_view->fontMetrics();
    m_view->setColumnWidth(ProblemsModel::SeverityColumn, fm.horizontalAdvance(tr("Warning")) + fm.height() + 28);
    m_view->setColumnWidth(ProblemsModel::RuleColumn,
                           fm.horizontalAdvance(QStringLiteral("cache-rewrite-streak")) + 20);
    m_view->setColumnWidth(ProblemsModel::CallColumn, fm.horizontalAdvance(QStringLiteral("00000")) + 16);
    m_fitter = new ColumnFitter(m_view, header, {{ProblemsModel::RuleColumn, 28}, {ProblemsModel::CallColumn, 8}});
    setCompactHeight(m_view, 1);
    layout->addWidget(m_view, 1);
    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex &index) {
        emit problemActivated(index.data(ProblemsModel::OrdinalRole).toInt(),
                              ProblemPane(index.data(ProblemsModel::PaneRole).toInt()));
    });
    setRun(nullptr);
}

void ProblemsPane::setCurrentCall(int ordinal)
{
    for (int r = 0; r < m_model->rowCount(); ++r) {
        const QModelIndex index = m_model->index(r, 0);
        if (index.data(ProblemsModel::OrdinalRole).toInt() == ordinal) {
            m_view->setCurrentIndex(index);
            m_view->scrollTo(index);
            return;
        }
    }
    m_view->selectionModel()->clear();
}

void ProblemsPane::setRun(const RunHandle &run)
{
    m_model->setRun(run);
    m_fitter->fit();
    if (!run) {
        m_counts->setText(tr("No recording open."));
        return;
    }
    if (run->indexing) {
        m_counts->setText(tr("The audit runs once every call is indexed."));
        return;
    }
    const audit::ProblemCounts n = audit::countProblems(run->problems);
    m_counts->setText(n.total() ? problemCountsText(n, true) + tr(" — double-click a problem to open its call")
                                : tr("No problems found in this run."));
}

} // namespace tf::ui
