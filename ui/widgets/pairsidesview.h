#pragma once

#include "core/compare/pairsides.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QToolButton;

namespace tf::ui {

class ElidedLabel;

// One pane's subject in two compared calls (compare::PairSides), shown under the pane while a comparison is open:
// one line saying what differs, and below it A beside B with what differs marked. The sides open by themselves when
// the pair differs in this subject and fold away to the line when it does not (or when the reader folds them; that
// choice holds for the next pairs), so a pane only gives room to a comparison that has something to show. Both
// texts are plain text from the recordings. Children are named after the view: NAME + "Summary", "Toggle", "A", "B".
class PairSidesView : public QWidget
{
    Q_OBJECT

public:
    // `subject` names what is compared ("Served", "Response", ...), in front of the line. A line-only view has no
    // sides (the cache verdicts fit the line).
    PairSidesView(const QString &objectName, const QString &subject, bool lineOnly, QWidget *parent = nullptr);

    // The sides of call `labelA` and its counterpart `labelB` ("call 4", "baseline call 4").
    void setSides(const compare::PairSides &sides, const QString &labelA, const QString &labelB);
    // No pair to show (a row with a call in one run only): the line says why, the sides are empty and folded.
    void setMessage(const QString &message);

    QString summary() const;
    QPlainTextEdit *sideA() const { return m_a; }
    QPlainTextEdit *sideB() const { return m_b; }
    // Whether the shown pair differs in this subject.
    bool differs() const { return m_differs; }
    bool isExpanded() const;

private:
    void setExpanded(bool expanded);
    // Brings each side's first mark into view (its text cursor sits there).
    void scrollToMarks();
    void showSide(QPlainTextEdit *edit, QLabel *caption, const compare::MarkedText &text, const QString &label,
                  bool removed);

    QString m_subject;
    bool m_lineOnly = false;
    bool m_wantExpanded = true; // the reader's choice: open the sides where the pair differs
    bool m_differs = false;
    QToolButton *m_toggle = nullptr;
    ElidedLabel *m_summary = nullptr;
    QWidget *m_body = nullptr;
    QLabel *m_captionA = nullptr;
    QLabel *m_captionB = nullptr;
    QPlainTextEdit *m_a = nullptr;
    QPlainTextEdit *m_b = nullptr;
};

} // namespace tf::ui
