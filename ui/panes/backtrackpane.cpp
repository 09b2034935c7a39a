#include "ui/panes/backtrackpane.h"

#include "ui/models/backtrackmodel.h"
#include "ui/services/qtstrings.h"
#include "ui/widgets/annotatedtextview.h"
#include "ui/widgets/selectablelabel.h"
#include "ui/widgets/theme.h"

#include "core/text/utf.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

namespace tf::ui {

BacktrackPane::BacktrackPane(QWidget *parent)
    : QWidget(parent)
    , m_model(new BacktrackModel(this))
{
    setObjectName(QStringLiteral("backtrackPane"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    m_statements = new SelectableLabel(this);
    m_statements->setObjectName(QStringLiteral("backtrackStatements"));
    m_statements->setTextFormat(Qt::PlainText); // quotes values and ids from the recording
    m_statements->setWordWrap(true);
    m_statements->setContentsMargins(10, 6, 10, 6);
    m_statements->setAutoFillBackground(true);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("backtrackSplitter"));
    split->setChildrenCollapsible(false);
    auto *top = new QWidget(split);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(0);
    m_statements->setParent(top);
    topLayout->addWidget(m_statements);
    m_answer = new AnnotatedTextView(top);
    topLayout->addWidget(m_answer, 1);
    m_answer->setObjectName(QStringLiteral("backtrackAnswer"));
    m_answer->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_answer->setFrameShape(QFrame::NoFrame);
    m_answer->setPlaceholderText(tr("No final answer on record"));
    m_view = new QTreeView(split);
    m_view->setObjectName(QStringLiteral("backtrackTree"));
    m_view->setModel(m_model);
    m_view->setUniformRowHeights(true);
    m_view->setAllColumnsShowFocus(true);
    m_view->setTextElideMode(Qt::ElideMiddle);
    // The entries take the room; "Where" (a call, a row, a message) is as wide as its longest.
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(BacktrackModel::WhatColumn, QHeaderView::Stretch);
    m_view->header()->setSectionResizeMode(BacktrackModel::WhereColumn, QHeaderView::ResizeToContents);
    m_view->header()->setHighlightSections(false);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    layout->addWidget(split, 1);

    connect(m_view, &QTreeView::activated, this, &BacktrackPane::activate);
    setRun(nullptr);
}

QString BacktrackPane::statementsText() const
{
    return m_statements->text();
}

void BacktrackPane::setRun(const RunHandle &run)
{
    m_run = run;
    const report::Backtrack *b = run ? run->backtrack.get() : nullptr;
    QPalette pal = palette();
    pal.setColor(QPalette::Window, theme::tint(theme::Tone::Info, pal, 0.12));
    m_statements->setPalette(pal);
    if (!b) {
        m_model->clearBacktrack();
        m_answer->clearAll();
        m_statements->setText(run ? tr("The backtrack is not available.") : tr("No recording is open."));
        return;
    }
    // What the answer rests on, in the core's words; its caveats on single sources are a group of the tree.
    QStringList lines;
    for (const std::string &s : b->statements)
        lines << toQString(s);
    m_statements->setText(lines.join(QLatin1Char('\n')));

    // The fact values where the backtrack found them in the answer (their first occurrence, a whole token).
    QList<AnnotatedTextView::Range> ranges;
    if (b->answer) {
        QTextCharFormat valueFormat;
        valueFormat.setBackground(theme::tint(theme::Tone::Good, palette(), 0.30));
        valueFormat.setFontUnderline(true);
        for (const report::BacktrackValue &v : b->values) {
            QStringList from;
            for (const report::ValueSource &s : v.sources)
                from << tr("tool:%1 (ledger row %2)").arg(toQString(s.toolCallId)).arg(s.standingRowIndex);
            ranges.append({int(text::lengthU16(std::string_view(*b->answer).substr(0, v.answerOffset))),
                           int(text::lengthU16(v.value)), valueFormat,
                           tr("Fact value \u201C%1\u201D, declared from %2")
                               .arg(toQString(v.value), from.join(QStringLiteral(", ")))});
        }
    }
    m_answer->setAnnotatedText(b->answer ? toQString(*b->answer) : QString(), ranges);
    highlightMatches(m_answer, m_find);
    m_model->setBacktrack(*b, *run->run);
    m_view->expandAll();
}

void BacktrackPane::setFindQuery(const FindQuery &query)
{
    if (query == m_find)
        return;
    m_find = query;
    highlightMatches(m_answer, m_find);
}

void BacktrackPane::revealInAnswer(int occurrence)
{
    highlightMatches(m_answer, m_find, qMax(0, occurrence));
}

void BacktrackPane::activate(const QModelIndex &index)
{
    const auto target = BacktrackModel::Target(index.data(BacktrackModel::TargetRole).toInt());
    const int ordinal = index.data(BacktrackModel::OrdinalRole).toInt();
    const int row = index.data(BacktrackModel::RowRole).toInt();
    switch (target) {
    case BacktrackModel::Target::None:
        break;
    case BacktrackModel::Target::Call:
        if (ordinal >= 0)
            emit callActivated(ordinal);
        break;
    case BacktrackModel::Target::LedgerRow:
        if (ordinal >= 0)
            emit ledgerRowActivated(ordinal, row);
        break;
    case BacktrackModel::Target::Message:
        if (ordinal >= 0)
            emit messageActivated(ordinal, row);
        break;
    case BacktrackModel::Target::ToolResult:
        emit toolResultFollowed(index.data(BacktrackModel::ToolCallIdRole).toString());
        break;
    }
}

} // namespace tf::ui
