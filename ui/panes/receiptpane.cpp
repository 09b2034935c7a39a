#include "ui/panes/receiptpane.h"

#include "ui/models/callstatus.h"
#include "ui/models/gapmodel.h"
#include "ui/models/receiptmodel.h"
#include "ui/panes/paneheader.h"
#include "ui/services/qtstrings.h"
#include "ui/widgets/columnfitter.h"
#include "ui/widgets/compactheight.h"
#include "ui/widgets/elidedlabel.h"
#include "ui/widgets/glyphdelegate.h"
#include "ui/widgets/glyphlabel.h"
#include "ui/widgets/theme.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace tf::ui {

namespace {

// Badges beside the status words; a damaged part's row is tinted so it stands out in a long list.
class ReceiptDelegate : public GlyphDelegate
{
public:
    explicit ReceiptDelegate(QObject *parent)
        : GlyphDelegate(ReceiptModel::GlyphRole, parent)
    {
    }

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        GlyphDelegate::initStyleOption(option, index);
        if (recording::Badge(index.data(ReceiptModel::BadgeRole).toInt()) == recording::Badge::Damaged)
            option->backgroundBrush = theme::tint(theme::Tone::Bad, option->palette, 0.14);
    }
};

void styleTable(QTableView *view)
{
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setShowGrid(false);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setStretchLastSection(true);
}

} // namespace

ReceiptPane::ReceiptPane(QWidget *parent)
    : QWidget(parent)
    , m_model(new ReceiptModel(this))
    , m_gaps(new GapModel(this))
{
    setObjectName(QStringLiteral("receiptPane"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    auto *head = new PaneHeader(this, QStringLiteral("receiptState"), QStringLiteral("receiptCounts"));
    m_glyph = head->glyph();
    m_state = head->title();
    m_counts = head->subtitle();
    layout->addWidget(head);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("receiptSplitter"));
    splitter->setChildrenCollapsible(false);
    m_view = new QTableView(splitter);
    m_view->setObjectName(QStringLiteral("receiptView"));
    m_view->setModel(m_model);
    m_view->setItemDelegate(new ReceiptDelegate(m_view));
    styleTable(m_view);
    const int digit = m_view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    m_view->setColumnWidth(ReceiptModel::PartColumn, digit * 19);
    m_view->setColumnWidth(ReceiptModel::StatusColumn, digit * 14);
    m_fitter = new ColumnFitter(m_view, m_view->horizontalHeader(),
                                {{ReceiptModel::PartColumn, 22}, {ReceiptModel::StatusColumn, 16}});
    setCompactHeight(m_view, 1);

    auto *gapBox = new QWidget(splitter);
    auto *gapLayout = new QVBoxLayout(gapBox);
    gapLayout->setContentsMargins(0, 0, 0, 0);
    gapLayout->setSpacing(0);
    auto *gapTitle = new QLabel(tr("Gaps at this call: what the view cannot prove"), gapBox);
    gapTitle->setContentsMargins(10, 4, 10, 2);
    gapTitle->setFont(m_state->font()); // bold, as the header's verdict
    gapTitle->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    gapLayout->addWidget(gapTitle);
    m_gapView = new QTableView(gapBox);
    m_gapView->setObjectName(QStringLiteral("gapView"));
    m_gapView->setModel(m_gaps);
    styleTable(m_gapView);
    m_gapView->setColumnWidth(GapModel::GapColumn, digit * 22);
    m_gapView->setColumnWidth(GapModel::KindColumn, digit * 9);
    m_gapView->setColumnWidth(GapModel::WhyColumn, digit * 60);
    m_gapFitter = new ColumnFitter(m_gapView, m_gapView->horizontalHeader(),
                                   {{GapModel::GapColumn, 24}, {GapModel::KindColumn, 12}, {GapModel::WhyColumn, 40}});
    setCompactHeight(m_gapView, 1);
    gapLayout->addWidget(m_gapView, 1);
    m_notes = new QLabel(gapBox);
    m_notes->setObjectName(QStringLiteral("receiptNotes"));
    m_notes->setTextFormat(Qt::PlainText);
    m_notes->setWordWrap(true);
    m_notes->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_notes->setContentsMargins(10, 4, 10, 6);
    gapLayout->addWidget(m_notes);
    splitter->addWidget(m_view);
    splitter->addWidget(gapBox);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(splitter, 1);
}

void ReceiptPane::setBundle(const BundleHandle &bundle)
{
    m_model->setBundle(bundle);
    m_fitter->fit();
    if (!bundle) {
        m_gaps->setGaps({});
        m_state->clear();
        m_counts->clear();
        m_notes->clear();
        m_glyph->setGlyph(std::nullopt);
        return;
    }
    const recording::CallView &v = *bundle->view;
    m_gaps->setGaps(v.gaps);
    m_gapFitter->fit();
    const recording::CallSummary &summary = bundle->summary;
    m_glyph->setGlyph(glyphFor(callBadge(summary)));
    m_state->setText(StatusText::receiptState(v.receiptState));
    m_counts->setText(StatusText::verificationCounts(summary));
    QStringList notes;
    if (!v.systemNote.empty())
        notes << toQString(v.systemNote);
    for (const std::string &n : v.notes)
        notes << toQString(n);
    m_notes->setText(notes.join(QLatin1Char('\n')));
    m_notes->setVisible(!notes.isEmpty());
}

} // namespace tf::ui
