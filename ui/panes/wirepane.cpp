#include "ui/panes/wirepane.h"

#include "ui/models/wiremodel.h"
#include "ui/services/qtstrings.h"
#include "ui/widgets/annotatedtextview.h"
#include "ui/widgets/columnfitter.h"
#include "ui/widgets/compactheight.h"
#include "ui/widgets/elidedlabel.h"
#include "ui/widgets/fonts.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/toolcalllinks.h"
#include "ui/widgets/wiredelegate.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace tf::ui {

using theme::Tone;

WirePane::WirePane(QWidget *parent)
    : QWidget(parent)
    , m_model(new WireModel(this))
{
    setObjectName(QStringLiteral("wirePane"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setObjectName(QStringLiteral("wireSplitter"));
    m_splitter->setChildrenCollapsible(false);
    m_view = new ImmediateItemLayout<QTreeView>(m_splitter);
    m_view->setObjectName(QStringLiteral("wireView"));
    m_view->setModel(m_model);
    auto *delegate = new WireDelegate(m_view);
    m_view->setItemDelegate(delegate);
    delegate->setElideMiddleColumns({WireModel::IdColumn});
    m_view->setUniformRowHeights(true);
    m_view->setAllColumnsShowFocus(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->setIndentation(14);
    // A scroll bar that comes and goes with the length of each call's conversation would resize the stretched last
    // column, and the view would lay itself out and repaint a second time per call switch.
    m_view->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    m_view->header()->setStretchLastSection(true);
    m_view->header()->setHighlightSections(false);
    const int digit = m_view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    m_view->setColumnWidth(WireModel::ItemColumn, digit * 4 + 34);
    m_view->setColumnWidth(WireModel::RoleColumn, digit * 9);
    m_view->setColumnWidth(WireModel::IdColumn, digit * 11);
    m_view->setColumnWidth(WireModel::StatusColumn, digit * 21);
    m_view->setColumnWidth(WireModel::SizeColumn, digit * 6);
    m_fitter = new ColumnFitter(m_view, m_view->header(),
                                {{WireModel::RoleColumn, 14},
                                 {WireModel::IdColumn, 30},
                                 {WireModel::StatusColumn, 26, true},
                                 {WireModel::SizeColumn, 9}});
    m_fitter->setStretchShare(30); // the content is what the rows are read for
    setCompactHeight(m_view, 2);

    auto *detailBox = new QWidget(m_splitter);
    auto *detailLayout = new QVBoxLayout(detailBox);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    detailLayout->setSpacing(0);
    m_detailBar = new QWidget(detailBox);
    m_detailBar->setObjectName(QStringLiteral("wireDetailBar"));
    m_detailBar->setAutoFillBackground(true);
    auto *barLayout = new QHBoxLayout(m_detailBar);
    barLayout->setContentsMargins(8, 3, 6, 3);
    m_detailTitle = new ElidedLabel(m_detailBar);
    m_detailTitle->setObjectName(QStringLiteral("wireDetailTitle"));
    QFont bold = m_detailTitle->font();
    bold.setBold(true);
    m_detailTitle->setFont(bold);
    m_collapseNote = new ElidedLabel(m_detailBar);
    m_collapseNote->setObjectName(QStringLiteral("wireCollapseNote"));
    m_originalButton = new QToolButton(m_detailBar);
    m_originalButton->setObjectName(QStringLiteral("showOriginalButton"));
    m_originalButton->setText(tr("Show original result"));
    m_originalButton->setAutoRaise(true);
    m_originalButton->setToolTip(tr("Switch between the ticket that was sent and the result it stands for"));
    barLayout->addWidget(m_detailTitle);
    barLayout->addWidget(m_collapseNote, 1);
    barLayout->addWidget(m_originalButton);
    detailLayout->addWidget(m_detailBar);
    m_detail = new AnnotatedTextView(detailBox);
    m_detail->setObjectName(QStringLiteral("wireDetail"));
    m_detail->setFont(fonts::fixedPitch());
    m_detail->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setCompactHeight(m_detail, 2);
    detailLayout->addWidget(m_detail, 1);
    m_splitter->addWidget(m_view);
    m_splitter->addWidget(detailBox);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    layout->addWidget(m_splitter, 1);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (!m_autoSelecting)
                    m_userPicked = true;
                m_showOriginal = false;
                showItem(current);
            });
    connect(m_originalButton, &QToolButton::clicked, this, &WirePane::toggleOriginal);
    connect(m_view, &QTreeView::doubleClicked, this, [this](const QModelIndex &index) {
        if (index.data(WireModel::CollapsedRole).toBool())
            toggleOriginal();
    });
    installToolCallLinks(m_view, [this](const QString &id) { emit toolCallFollowed(id); });
    m_originalButton->hide();
    m_collapseNote->hide();
    reserveDetailBarHeight();
}

void WirePane::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        reserveDetailBarHeight();
}

// The Show original button comes and goes with the item shown. Were the bar to grow with it, the split below would
// lose a few pixels at each such call and not get them back where it was (a restored split did not hold).
void WirePane::reserveDetailBarHeight()
{
    const QMargins margins = m_detailBar->layout()->contentsMargins();
    m_detailBar->setMinimumHeight(margins.top() + m_originalButton->sizeHint().height() + margins.bottom());
}

void WirePane::setFindQuery(const FindQuery &query)
{
    if (query == m_find)
        return;
    m_find = query;
    m_shownMatches = highlightMatches(m_detail, m_find);
}

QPair<int, int> WirePane::shownItem() const
{
    if (!m_shown.isValid())
        return {-1, -1};
    if (!m_shown.parent().isValid())
        return {m_shown.row(), -1};
    return {m_shown.parent().row(), m_shown.row()};
}

int WirePane::toolRow(const QString &name) const
{
    const QModelIndex tools = m_model->index(WireModel::ToolsGroup, 0);
    for (int r = 0; r < m_model->rowCount(tools); ++r)
        if (m_model->index(r, WireModel::IdColumn, tools).data().toString() == name)
            return r;
    return -1;
}

bool WirePane::revealItem(int group, int row, int occurrence)
{
    const QModelIndex parent = m_model->index(group, 0);
    const QModelIndex target = row < 0 ? parent : m_model->index(row, 0, parent);
    if (!target.isValid())
        return false;
    m_focusOccurrence = qMax(0, occurrence);
    m_userPicked = true;
    if (m_view->currentIndex() == target) {
        m_showOriginal = false;
        showItem(target);
    } else {
        m_view->setCurrentIndex(target); // shows it
    }
    m_view->scrollTo(target, QAbstractItemView::PositionAtCenter);
    m_focusOccurrence = -1;
    return true;
}

void WirePane::setBundle(const BundleHandle &bundle)
{
    // An item the user picked stays picked across calls (message 7 stays message 7), so stepping compares like with
    // like. Otherwise the pane shows what matters at this call: its latest collapsed result, else the newest
    // message.
    int group = -1, row = -1;
    if (m_userPicked && m_shown.isValid()) {
        group = m_shown.parent().isValid() ? m_shown.parent().row() : m_shown.row();
        row = m_shown.parent().isValid() ? m_shown.row() : -1;
    }
    const bool original = m_showOriginal;
    m_model->setBundle(bundle);
    for (int g = 0; g < m_model->rowCount(); ++g)
        m_view->setFirstColumnSpanned(g, QModelIndex(), true);
    m_view->expandAll();
    m_fitter->fit();
    m_view->layoutNow(); // before selecting and scrolling, so that the view paints once
    QModelIndex target;
    if (group >= 0) {
        const QModelIndex g = m_model->index(group, 0);
        target = row >= 0 ? m_model->index(qMin(row, m_model->rowCount(g) - 1), 0, g) : g;
    }
    if (!target.isValid()) {
        const QModelIndex messages = m_model->index(WireModel::MessagesGroup, 0);
        const int n = m_model->rowCount(messages);
        for (int i = n - 1; i >= 0 && !target.isValid(); --i)
            if (m_model->index(i, 0, messages).data(WireModel::CollapsedRole).toBool())
                target = m_model->index(i, 0, messages);
        if (!target.isValid())
            target = n > 0 ? m_model->index(n - 1, 0, messages) : messages;
    }
    m_autoSelecting = true;
    m_view->setCurrentIndex(target);
    m_view->scrollTo(target, QAbstractItemView::PositionAtCenter);
    m_autoSelecting = false;
    if (original && (target.data(WireModel::CollapsedRole).toBool() || target.data(WireModel::StrippedRole).toBool())) {
        m_showOriginal = true;
        showItem(target);
    }
}

void WirePane::selectMessage(int message)
{
    const QModelIndex index = m_model->messageIndex(message);
    if (index.isValid()) {
        m_view->setCurrentIndex(index);
        m_view->scrollTo(index);
        m_userPicked = true;
    }
}

void WirePane::toggleOriginal()
{
    if (!m_shown.isValid() ||
        !(m_shown.data(WireModel::CollapsedRole).toBool() || m_shown.data(WireModel::StrippedRole).toBool()))
        return;
    m_showOriginal = !m_showOriginal;
    showItem(m_shown);
}

void WirePane::showItem(const QModelIndex &index)
{
    m_shown = index;
    const QPalette pal = palette();
    QPalette barPalette = pal;
    barPalette.setColor(QPalette::Window, theme::mix(pal.color(QPalette::Window), pal.color(QPalette::Base), 0.4));
    m_originalButton->hide();
    m_collapseNote->hide();
    if (!index.isValid()) {
        m_detailTitle->clear();
        m_detail->clearAll();
        m_shownMatches = highlightMatches(m_detail, {});
        m_detailBar->setPalette(barPalette);
        return;
    }
    const QModelIndex first = index.siblingAtColumn(0);
    if (!index.parent().isValid()) {
        m_detailTitle->setText(first.data().toString());
        const BundleHandle &b = m_model->bundle();
        if (index.row() == WireModel::SystemGroup && b && b->view->systemOnRecord)
            m_detail->setAnnotatedText(toQString(b->view->systemText));
        else
            m_detail->setAnnotatedText(index.siblingAtColumn(WireModel::PreviewColumn).data().toString());
        m_detailBar->setPalette(barPalette);
        m_shownMatches = highlightMatches(m_detail, m_find, m_focusOccurrence);
        return;
    }

    const int group = index.data(WireModel::GroupRole).toInt();
    const QString role = index.siblingAtColumn(WireModel::RoleColumn).data().toString();
    const QString id = index.siblingAtColumn(WireModel::IdColumn).data().toString();
    QString title;
    switch (group) {
    case WireModel::SystemGroup:
        title = tr("system piece %1 · %2 · %3").arg(first.data().toString(), role, id);
        break;
    case WireModel::MessagesGroup:
        title = tr("messages[%1] · %2").arg(first.data().toString(), role) +
                (id.isEmpty() ? QString() : QStringLiteral(" · ") + id);
        break;
    default:
        title = tr("tool %1").arg(id);
        break;
    }
    m_detailTitle->setText(title);

    QString text;
    const bool collapsed = index.data(WireModel::CollapsedRole).toBool();
    if (collapsed) {
        m_originalButton->show();
        m_collapseNote->show();
        const QString standing = index.data(WireModel::StandingRole).toString();
        const QString original = index.data(WireModel::OriginalContentRole).toString();
        if (m_showOriginal) {
            text = original;
            m_collapseNote->setText(tr("Original result — not sent; a ticket went in its place"));
            m_originalButton->setText(tr("Show ticket as sent"));
        } else {
            text = index.data(WireModel::TicketRole).toString();
            m_collapseNote->setText(tr("Sent as a collapse ticket (%1) instead of %2 UTF-16 units")
                                        .arg(standing, formatCount(std::size_t(original.size()))));
            m_originalButton->setText(tr("Show original result"));
        }
        barPalette.setColor(QPalette::Window, theme::tint(Tone::Warn, pal, 0.22));
    } else if (index.data(WireModel::StrippedRole).toBool()) {
        // 9.116: the library stripped fields before the model saw the result; the tool's own result is kept.
        m_originalButton->show();
        m_collapseNote->show();
        if (m_showOriginal) {
            text = index.data(WireModel::RawResultRole).toString();
            m_collapseNote->setText(
                tr("The tool's own result — not sent; the model was served the stripped modelResult"));
            m_originalButton->setText(tr("Show what was served"));
        } else {
            text = index.data(WireModel::ContentRole).toString();
            m_collapseNote->setText(tr("Served as the library's modelResult; the tool returned more"));
            m_originalButton->setText(tr("Show the tool's own result"));
        }
        barPalette.setColor(QPalette::Window, theme::tint(Tone::Info, pal, 0.18));
    } else {
        text = index.data(WireModel::ContentRole).toString();
    }
    const QString extra = index.data(WireModel::ExtraRole).toString();
    if (!extra.isEmpty() && !(collapsed && m_showOriginal))
        text += (text.isEmpty() ? QString() : QStringLiteral("\n\n")) +
                (group == WireModel::ToolsGroup ? tr("schema:") : tr("tool calls:")) + QLatin1Char('\n') + extra;
    if (index.data(WireModel::DamagedRole).toBool())
        barPalette.setColor(QPalette::Window, theme::tint(Tone::Bad, pal, 0.2));
    m_detailBar->setPalette(barPalette);

    // Lone surrogates sit at the same UTF-16 positions in the text shown (the content comes first).
    QList<AnnotatedTextView::Range> ranges;
    QTextCharFormat loneFormat;
    loneFormat.setBackground(theme::tint(Tone::Bad, pal, 0.35));
    // The tool's own result of a stripped one carries no marks: they are the served text's positions.
    const bool rawShown = m_showOriginal && index.data(WireModel::StrippedRole).toBool();
    const auto lone = rawShown ? QList<QPoint>()
                               : index
                                     .data(collapsed && m_showOriginal ? WireModel::OriginalLoneSurrogatesRole
                                                                       : WireModel::LoneSurrogatesRole)
                                     .value<QList<QPoint>>();
    for (const QPoint &p : lone)
        ranges.append(
            {p.x(), 1, loneFormat,
             tr("A lone surrogate %1 in the recording (shown as U+FFFD)").arg(codeUnitName(char16_t(p.y())))});
    m_detail->setAnnotatedText(text, ranges);
    m_shownMatches = highlightMatches(m_detail, m_find, m_focusOccurrence);
}

} // namespace tf::ui
