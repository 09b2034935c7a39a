#include "ui/widgets/pairsidesview.h"

#include "ui/services/qtstrings.h"
#include "ui/widgets/fonts.h"
#include "ui/widgets/theme.h"

#include <QGridLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QVBoxLayout>

namespace tf::ui {

PairSidesView::PairSidesView(const QString &objectName, const QString &subject, bool compact, QWidget *parent)
    : QWidget(parent)
    , m_subject(subject)
{
    setObjectName(objectName);
    m_summary = new QLabel(this);
    m_summary->setObjectName(objectName + QStringLiteral("Summary"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setContentsMargins(8, 4, 8, 2);
    QFont bold = m_summary->font();
    bold.setBold(true);
    m_summary->setFont(bold);

    const auto caption = [this] {
        auto *label = new QLabel(this);
        label->setTextFormat(Qt::PlainText);
        label->setForegroundRole(QPalette::PlaceholderText);
        label->setContentsMargins(8, 0, 8, 0);
        return label;
    };
    const auto side = [this, compact](const QString &name) {
        auto *edit = new QPlainTextEdit(this);
        edit->setObjectName(name);
        edit->setReadOnly(true);
        edit->setFont(fonts::fixedPitch());
        edit->setLineWrapMode(QPlainTextEdit::WidgetWidth);
        edit->setFrameShape(QFrame::StyledPanel);
        const int line = edit->fontMetrics().lineSpacing();
        if (compact)
            edit->setFixedHeight(line * 2 + 10);
        else
            edit->setMinimumHeight(line * 3 + 10);
        return edit;
    };
    m_captionA = caption();
    m_captionB = caption();
    m_a = side(objectName + QStringLiteral("A"));
    m_b = side(objectName + QStringLiteral("B"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 4);
    layout->setSpacing(2);
    // A rule above: the comparison is not part of the pane's own view of the call.
    auto *rule = new QFrame(this);
    rule->setFrameShape(QFrame::HLine);
    rule->setFrameShadow(QFrame::Sunken);
    layout->addWidget(rule);
    layout->addWidget(m_summary);
    auto *grid = new QGridLayout;
    grid->setContentsMargins(4, 0, 4, 0);
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(1);
    grid->addWidget(m_captionA, 0, 0);
    grid->addWidget(m_captionB, 0, 1);
    grid->addWidget(m_a, 1, 0);
    grid->addWidget(m_b, 1, 1);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    grid->setRowStretch(1, 1);
    layout->addLayout(grid, 1);
    setMessage(QString());
}

QString PairSidesView::summary() const
{
    return m_summary->text();
}

void PairSidesView::setMessage(const QString &message)
{
    m_differs = false;
    m_summary->setText(message.isEmpty() ? m_subject : m_subject + QStringLiteral(": ") + message);
    for (QPlainTextEdit *edit : {m_a, m_b}) {
        edit->setExtraSelections({});
        edit->clear();
    }
    m_captionA->clear();
    m_captionB->clear();
}

void PairSidesView::setSides(const compare::PairSides &sides, const QString &labelA, const QString &labelB)
{
    m_differs = !sides.same;
    // One arg() call: the summary may hold "%1" from a recording's part or tool names.
    m_summary->setText(QStringLiteral("%1 (%2 against %3): %4")
                           .arg(m_subject, labelA, labelB, toQString(sides.summary)));
    m_summary->setForegroundRole(sides.same ? QPalette::PlaceholderText : QPalette::WindowText);
    showSide(m_a, m_captionA, sides.a, QStringLiteral("A \u00B7 ") + labelA, true);
    showSide(m_b, m_captionB, sides.b, QStringLiteral("B \u00B7 ") + labelB, false);
}

void PairSidesView::showSide(QPlainTextEdit *edit, QLabel *caption, const compare::MarkedText &text,
                             const QString &label, bool removed)
{
    caption->setText(label);
    edit->setPlainText(toQString(text.text));
    QList<QTextEdit::ExtraSelection> marks;
    // A's differing text in the colour of what B lacks, B's in the colour of what B adds, as a diff shows them.
    const QColor background =
        theme::tint(removed ? theme::Tone::Bad : theme::Tone::Good, edit->palette(), 0.32);
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
    if (!text.marks.empty()) {
        QTextCursor at(edit->document());
        at.setPosition(qMin(int(text.marks.front().beginU16), length));
        edit->setTextCursor(at);
        edit->ensureCursorVisible();
    } else {
        edit->moveCursor(QTextCursor::Start);
    }
}

} // namespace tf::ui
