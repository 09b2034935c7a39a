#include "ui/widgets/pairsidesview.h"

#include "ui/services/qtstrings.h"
#include "ui/widgets/elidedlabel.h"
#include "ui/widgets/fonts.h"
#include "ui/widgets/theme.h"

#include <QBoxLayout>
#include <QGridLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTimer>
#include <QToolButton>

namespace tf::ui {

PairSidesView::PairSidesView(const QString &objectName, const QString &subject, bool lineOnly, QWidget *parent)
    : QWidget(parent)
    , m_subject(subject)
    , m_lineOnly(lineOnly)
{
    setObjectName(objectName);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    // A rule above: the comparison is not part of the pane's own view of the call.
    auto *rule = new QFrame(this);
    rule->setFrameShape(QFrame::HLine);
    rule->setFrameShadow(QFrame::Sunken);
    layout->addWidget(rule);

    auto *line = new QHBoxLayout;
    line->setContentsMargins(4, 2, 8, 2);
    line->setSpacing(4);
    m_toggle = new QToolButton(this);
    m_toggle->setObjectName(objectName + QStringLiteral("Toggle"));
    m_toggle->setAutoRaise(true);
    m_toggle->setCheckable(true);
    m_toggle->setArrowType(Qt::RightArrow);
    m_toggle->setToolTip(tr("Show or fold this run beside the baseline"));
    m_toggle->setVisible(!lineOnly);
    connect(m_toggle, &QToolButton::clicked, this, [this](bool on) {
        m_wantExpanded = on;
        setExpanded(on);
    });
    m_summary = new ElidedLabel(this);
    m_summary->setObjectName(objectName + QStringLiteral("Summary"));
    QFont bold = m_summary->font();
    bold.setBold(true);
    m_summary->setFont(bold);
    if (lineOnly)
        line->addSpacing(4);
    line->addWidget(m_toggle);
    line->addWidget(m_summary, 1);
    layout->addLayout(line);

    m_body = new QWidget(this);
    const auto caption = [this] {
        auto *label = new QLabel(m_body);
        label->setTextFormat(Qt::PlainText);
        label->setForegroundRole(QPalette::PlaceholderText);
        label->setContentsMargins(2, 0, 2, 0);
        return label;
    };
    const auto side = [this](const QString &name) {
        auto *edit = new QPlainTextEdit(m_body);
        edit->setObjectName(name);
        edit->setReadOnly(true);
        edit->setFont(fonts::fixedPitch());
        edit->setLineWrapMode(QPlainTextEdit::WidgetWidth);
        edit->setMinimumHeight(edit->fontMetrics().lineSpacing() * 2 + 10);
        return edit;
    };
    m_captionA = caption();
    m_captionB = caption();
    m_a = side(objectName + QStringLiteral("A"));
    m_b = side(objectName + QStringLiteral("B"));
    auto *grid = new QGridLayout(m_body);
    grid->setContentsMargins(4, 0, 4, 4);
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(1);
    grid->addWidget(m_captionA, 0, 0);
    grid->addWidget(m_captionB, 0, 1);
    grid->addWidget(m_a, 1, 0);
    grid->addWidget(m_b, 1, 1);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    grid->setRowStretch(1, 1);
    layout->addWidget(m_body, 1);
    setExpanded(false);
    setMessage(QString());
}

QString PairSidesView::summary() const
{
    return m_summary->text();
}

bool PairSidesView::isExpanded() const
{
    return m_toggle->isChecked();
}

void PairSidesView::setExpanded(bool expanded)
{
    expanded = expanded && !m_lineOnly;
    m_toggle->setChecked(expanded);
    m_toggle->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    m_body->setVisible(expanded);
    if (expanded)
        scrollToMarks();
    setSizePolicy(QSizePolicy::Preferred, expanded ? QSizePolicy::Expanding : QSizePolicy::Fixed);
    // Open, the sides get twice the pane's own room: they are what the reader opened them for.
    if (parentWidget())
        if (auto *box = qobject_cast<QBoxLayout *>(parentWidget()->layout()))
            box->setStretchFactor(this, expanded ? 2 : 0);
}

void PairSidesView::setMessage(const QString &message)
{
    m_differs = false;
    m_summary->setText(message.isEmpty() ? m_subject : m_subject + QStringLiteral(": ") + message);
    m_summary->setForegroundRole(QPalette::PlaceholderText);
    for (QPlainTextEdit *edit : {m_a, m_b}) {
        edit->setExtraSelections({});
        edit->clear();
    }
    m_captionA->clear();
    m_captionB->clear();
    m_toggle->setEnabled(false);
    setExpanded(false);
}

void PairSidesView::setSides(const compare::PairSides &sides, const QString &labelA, const QString &labelB)
{
    m_differs = !sides.same;
    // One arg() call: the summary may hold "%1" from a recording's part or tool names.
    m_summary->setText(tr("%1 vs %2: %3").arg(m_subject, labelB, toQString(sides.summary)));
    m_summary->setForegroundRole(sides.same ? QPalette::PlaceholderText : QPalette::WindowText);
    showSide(m_a, m_captionA, sides.a, QStringLiteral("A \u00B7 ") + labelA, true);
    showSide(m_b, m_captionB, sides.b, QStringLiteral("B \u00B7 ") + labelB, false);
    m_toggle->setEnabled(!sides.a.text.empty() || !sides.b.text.empty());
    setExpanded(m_differs && m_wantExpanded);
}

void PairSidesView::scrollToMarks()
{
    // Once the sides are laid out at their size: a hidden or not yet resized edit cannot scroll to its cursor.
    QTimer::singleShot(0, this, [this] {
        for (QPlainTextEdit *edit : {m_a, m_b})
            edit->ensureCursorVisible();
    });
}

void PairSidesView::showSide(QPlainTextEdit *edit, QLabel *caption, const compare::MarkedText &text,
                             const QString &label, bool removed)
{
    caption->setText(label);
    edit->setPlainText(toQString(text.text));
    QList<QTextEdit::ExtraSelection> marks;
    // A's differing text in the colour of what B lacks, B's in the colour of what B adds, as a diff shows them.
    const QColor background = theme::tint(removed ? theme::Tone::Bad : theme::Tone::Good, edit->palette(), 0.32);
    const int length = edit->document()->characterCount() - 1;
    for (const compare::MarkedText::Mark &m : text.marks) {
        QTextEdit::ExtraSelection mark;
        mark.cursor = QTextCursor(edit->document());
        // The document counts a line break as one unit, as UTF-16 does; a mark past the end is clamped.
        mark.cursor.setPosition(qMin(int(m.beginU16), length));
        mark.cursor.setPosition(qMin(int(m.endU16), length), QTextCursor::KeepAnchor);
        mark.format.setBackground(background);
        marks.push_back(mark);
    }
    edit->setExtraSelections(marks);
    // The first mark in view: the reader looks for what differs.
    QTextCursor at(edit->document());
    at.setPosition(text.marks.empty() ? 0 : qMin(int(text.marks.front().beginU16), length));
    edit->setTextCursor(at);
    scrollToMarks();
}

} // namespace tf::ui
