#include "ui/panes/responsepane.h"

#include "ui/models/toolrunmodel.h"
#include "ui/panes/paneheader.h"
#include "ui/services/qtstrings.h"
#include "ui/widgets/annotatedtextview.h"
#include "ui/widgets/columnfitter.h"
#include "ui/widgets/compactheight.h"
#include "ui/widgets/elidedlabel.h"
#include "ui/widgets/fonts.h"
#include "ui/widgets/glyphdelegate.h"
#include "ui/widgets/glyphlabel.h"
#include "ui/widgets/itemdelegate.h"
#include "ui/widgets/onscreen.h"
#include "ui/widgets/selectablelabel.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/toolcalllinks.h"

#include <QEvent>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace tf::ui {

namespace {

// A failed tool's row is tinted, as a damaged receipt part is.
class ToolRunDelegate : public ItemDelegate
{
public:
    using ItemDelegate::ItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        ItemDelegate::initStyleOption(option, index);
        if (index.data(ToolRunModel::ErrorRole).toBool())
            option->backgroundBrush = theme::tint(theme::Tone::Bad, option->palette, 0.14);
        else if (!index.data(ToolRunModel::ReturnedRole).toBool())
            option->backgroundBrush = theme::tint(theme::Tone::Warn, option->palette, 0.12);
    }
};

// Read-only, plain, and a tool result of a hundred thousand characters on one line shown in parts
// (AnnotatedTextView), so that showing it does not lay all of it out.
AnnotatedTextView *readOnlyText(QWidget *parent, const QString &objectName)
{
    auto *edit = new AnnotatedTextView(parent);
    edit->setObjectName(objectName);
    edit->setFont(fonts::fixedPitch());
    edit->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    return edit;
}

QString usageText(const recording::Usage &u)
{
    const auto n = [](const std::optional<double> &v) { return v ? formatCount(*v) : QStringLiteral("\u2014"); };
    QString s = ResponsePane::tr("in %1 \u00B7 out %2").arg(n(u.input), n(u.output));
    if (u.measured())
        s += ResponsePane::tr(" \u00B7 cache read %1 \u00B7 write %2").arg(n(u.cacheRead), n(u.cacheWrite));
    else
        s += ResponsePane::tr(" \u00B7 cache tokens not reported");
    return s;
}

} // namespace

ResponsePane::ResponsePane(QWidget *parent)
    : QWidget(parent)
    , m_tools(new ToolRunModel(this))
{
    setObjectName(QStringLiteral("responsePane"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    auto *head = new PaneHeader(this, QStringLiteral("responseState"), QStringLiteral("responseFacts"));
    m_glyph = head->glyph();
    m_state = head->title();
    m_facts = head->subtitle();
    layout->addWidget(head);

    // What happened to the run here: it failed, paused for a human, or hit a limit (spec/runs.md §4).
    m_runNote = new SelectableLabel(this);
    m_runNote->setObjectName(QStringLiteral("responseRunNote"));
    m_runNote->setTextFormat(Qt::PlainText); // the error text is the provider's, untrusted
    m_runNote->setWordWrap(true);
    m_runNote->setContentsMargins(10, 6, 10, 6);
    m_runNote->setAutoFillBackground(true);
    m_runNote->hide();
    layout->addWidget(m_runNote);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("responseSplitter"));
    split->setChildrenCollapsible(false);
    m_text = readOnlyText(split, QStringLiteral("responseText"));
    m_text->setFont(font()); // the model's prose reads better proportional; arguments stay fixed-pitch
    m_text->setPlaceholderText(tr("No response on record"));
    m_toolBox = new QWidget(split);
    auto *toolLayout = new QVBoxLayout(m_toolBox);
    toolLayout->setContentsMargins(0, 0, 0, 0);
    toolLayout->setSpacing(0);
    auto *toolSplit = new QSplitter(Qt::Vertical, m_toolBox);
    toolSplit->setObjectName(QStringLiteral("responseToolSplitter"));
    toolSplit->setChildrenCollapsible(false);
    toolLayout->addWidget(toolSplit);
    m_toolView = new QTableView(toolSplit);
    m_toolView->setObjectName(QStringLiteral("toolRunsView"));
    m_toolView->setModel(m_tools);
    auto *toolDelegate = new ToolRunDelegate(m_toolView);
    toolDelegate->setElideMiddleColumns({ToolRunModel::IdColumn});
    m_toolView->setItemDelegate(toolDelegate);
    m_toolView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_toolView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_toolView->setShowGrid(false);
    m_toolView->setWordWrap(false);
    m_toolView->verticalHeader()->hide();
    m_toolView->verticalHeader()->setDefaultSectionSize(m_toolView->fontMetrics().height() + 8);
    m_toolView->horizontalHeader()->setHighlightSections(false);
    m_toolView->horizontalHeader()->setStretchLastSection(true);
    // Sized to what the columns hold and no wider than the pane while their labels fit (a column too narrow elides
    // its text): every column sized to its contents overflowed the pane, and the scroll bar that brought covered the
    // one row the table had room for.
    m_toolFitter = new ColumnFitter(m_toolView, m_toolView->horizontalHeader(),
                                    {{ToolRunModel::StatusColumn, 14, true},
                                     {ToolRunModel::ToolColumn, 28},
                                     {ToolRunModel::IdColumn, 24},
                                     {ToolRunModel::DurationColumn, 10}});
    m_detail = readOnlyText(toolSplit, QStringLiteral("toolRunDetail"));
    m_detail->setPlaceholderText(tr("Select a tool call to see its arguments and result"));
    toolSplit->setStretchFactor(0, 1);
    toolSplit->setStretchFactor(1, 2);
    setCompactHeight(m_text, 2);
    setCompactHeight(m_toolView, 1);
    setCompactHeight(m_detail, 2);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);

    connect(m_toolView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { showTool(current.row()); });
    m_detail->installEventFilter(this);
    installToolCallLinks(m_toolView, [this](const QString &id) { emit toolCallFollowed(id); });
    setBundle({});
}

void ResponsePane::setFindQuery(const FindQuery &query)
{
    if (query == m_find)
        return;
    m_find = query;
    highlightMatches(m_text, m_find);
    if (!m_detailPending) // else marked when the text is set
        highlightMatches(m_detail, m_find);
}

void ResponsePane::revealInText(int occurrence)
{
    highlightMatches(m_text, m_find, qMax(0, occurrence));
}

bool ResponsePane::selectToolRun(const QString &toolCallId, int occurrence)
{
    for (int row = 0; row < m_tools->rowCount(); ++row)
        if (const recording::ToolRun *run = m_tools->toolRun(row); run && toQString(run->id) == toolCallId) {
            m_toolView->selectRow(row);
            m_toolView->scrollTo(m_tools->index(row, 0));
            if (occurrence >= 0) {
                flushDetail();
                highlightMatches(m_detail, m_find, occurrence);
            }
            return true;
        }
    return false;
}

void ResponsePane::setBundle(const BundleHandle &bundle)
{
    m_bundle = bundle;
    m_tools->setBundle(bundle);
    // Most calls run no tool in parallel: no empty column then.
    bool parallel = false;
    for (int row = 0; row < m_tools->rowCount() && !parallel; ++row)
        parallel = m_tools->toolRun(row)->parallelCount.has_value();
    m_toolFitter->setColumnHidden(ToolRunModel::ParallelColumn, !parallel);
    m_toolFitter->fit();
    m_detailPending = false;
    m_pendingDetail.clear();
    m_detail->clearAll();
    const recording::CallView *view = bundle ? bundle->view.get() : nullptr;
    setRunNote(bundle);
    m_toolBox->setVisible(view && !view->toolRuns.empty());
    if (!view) {
        m_glyph->setGlyph(std::nullopt);
        m_state->setText(tr("No call selected"));
        m_facts->clear();
        m_text->clearAll();
        return;
    }
    const std::optional<recording::Response> &r = view->response;
    if (!r) {
        m_glyph->setGlyph(Glyph::NeverReturned);
        m_state->setText(tr("No response on record"));
        m_facts->setText(tr("no llm_end on record"));
        m_text->clearAll();
        m_text->setPlaceholderText(tr("The call has an llm_start and no llm_end: the provider failed, or the "
                                      "recording was frozen mid-call. What the model was sent is in the Wire."));
        return;
    }
    std::size_t errors = 0, open = 0;
    for (const recording::ToolRun &t : view->toolRuns) {
        errors += t.error;
        open += !t.returned;
    }
    m_glyph->setGlyph(errors ? std::optional(Glyph::ToolError)
                      : open ? std::optional(Glyph::NeverReturned)
                             : std::optional(Glyph::Verified));
    QString state = r->stopReason ? tr("Stopped: %1").arg(toQString(*r->stopReason)) : tr("Stop reason not on record");
    if (!r->toolCalls.empty())
        state += tr(" \u00B7 %n tool call(s)", nullptr, int(r->toolCalls.size()));
    else if (r->toolCallCount && *r->toolCallCount)
        state += tr(" \u00B7 %n tool call(s), not on record", nullptr, int(*r->toolCallCount));
    if (errors)
        state += tr(" \u00B7 %n failed", nullptr, int(errors));
    if (open)
        state += tr(" \u00B7 %n did not return", nullptr, int(open));
    m_state->setText(state);
    QString facts = r->durationMs ? tr("%1 ms").arg(formatCount(*r->durationMs)) : tr("latency not on record");
    m_facts->setText(facts + QStringLiteral(" \u00B7 ") + usageText(r->usage));
    if (r->text.empty()) {
        m_text->clearAll();
        m_text->setPlaceholderText(tr("The model wrote no text; it only called tools."));
    } else {
        m_text->setAnnotatedText(toQString(r->text));
    }
    highlightMatches(m_text, m_find);
    if (!view->toolRuns.empty())
        m_toolView->selectRow(0);
}

void ResponsePane::setRunNote(const BundleHandle &bundle)
{
    QStringList lines;
    theme::Tone tone = theme::Tone::Warn;
    if (bundle) {
        const recording::Run &run = *bundle->run;
        const recording::RunOutcome &o = run.outcome;
        if (o.call == bundle->ordinal) {
            const QString message = o.message ? toQString(*o.message) : QString();
            if (o.status == recording::OutcomeStatus::Failed) {
                lines << tr("The run failed here: %1").arg(message);
                tone = theme::Tone::Bad;
            } else if (o.status == recording::OutcomeStatus::Paused) {
                lines << tr("The run paused here for a human: %1").arg(message);
            }
        }
        for (const recording::RunLimit &l : run.limits)
            if (l.call == bundle->ordinal)
                lines << tr("Limit %1: %2").arg(toQString(l.kind), toQString(l.message));
    }
    m_runNote->setVisible(!lines.isEmpty());
    m_runNote->setText(lines.join(QLatin1Char('\n')));
    QPalette p = palette();
    p.setColor(QPalette::Window, theme::tint(tone, p, 0.18));
    m_runNote->setPalette(p);
}

QString ResponsePane::runNoteText() const
{
    return m_runNote->isHidden() ? QString() : m_runNote->text();
}

void ResponsePane::showTool(int row)
{
    const recording::ToolRun *run = m_tools->toolRun(row);
    if (!run || !m_bundle) {
        m_detailPending = false;
        m_pendingDetail.clear();
        m_detail->clearAll();
        return;
    }
    QString text =
        tr("%1  %2  (%3)\n\nArguments\n%4\n")
            .arg(toQString(run->name), toQString(run->id), ToolRunModel::statusText(*run), toQString(run->argsText()));
    if (const auto &r = m_bundle->view->response)
        for (const recording::ToolCallRequest &c : r->toolCalls)
            if (c.id == run->id && c.findings)
                text += tr("\n_findings \u2014 the model's own declaration\n%1\n").arg(toQString(*c.findingsText()));
    if (run->returned && run->result)
        text += (run->error ? tr("\nError (the tool threw; this text is what the model was sent)\n")
                            : tr("\nResult%1\n").arg(run->resultIsJson ? tr(" (JSON)") : QString())) +
                toQString(*run->result);
    else
        text += tr("\n%1\n").arg(toQString(run->missingReason));
    setDetailText(text);
}

bool ResponsePane::detailOnScreen() const
{
    return onScreen(m_detail);
}

void ResponsePane::setDetailText(const QString &text)
{
    m_pendingDetail = text;
    m_detailPending = true;
    if (detailOnScreen()) {
        flushDetail();
        return;
    }
    watchDock();
}

void ResponsePane::flushDetail() const
{
    if (!m_detailPending)
        return;
    m_detailPending = false;
    m_detail->setAnnotatedText(m_pendingDetail);
    m_pendingDetail.clear();
    highlightMatches(m_detail, m_find);
}

void ResponsePane::watchDock()
{
    if (!m_watchingDock)
        m_watchingDock = whenDockShown(this, [this] {
            if (detailOnScreen())
                flushDetail();
        });
}

bool ResponsePane::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_detail && (event->type() == QEvent::Show || event->type() == QEvent::Resize) && m_detailPending &&
        detailOnScreen())
        flushDetail();
    return QWidget::eventFilter(watched, event);
}

QPlainTextEdit *ResponsePane::detailView() const
{
    flushDetail();
    return m_detail;
}

QString ResponsePane::stateText() const
{
    return m_state->text();
}

QPlainTextEdit *ResponsePane::textView() const
{
    return m_text;
}

QString ResponsePane::responseText() const
{
    return m_text->text();
}

QString ResponsePane::detailText() const
{
    flushDetail();
    return m_detail->text();
}

} // namespace tf::ui
