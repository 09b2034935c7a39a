#pragma once

#include "core/compare/pairsides.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QSplitter;

namespace tf::ui {

// One pane's subject in two compared calls (compare::PairSides), shown under the pane while a comparison is open:
// a line saying what differs, then A beside B, what differs marked. Both texts are plain text from the recordings.
// Children are named after the view: NAME + "Summary", NAME + "A", NAME + "B".
class PairSidesView : public QWidget
{
    Q_OBJECT

public:
    // `subject` names what is compared ("Served", "Response", ...), in front of the summary line. A compact view
    // holds a line or two per side (the cache verdict).
    PairSidesView(const QString &objectName, const QString &subject, bool compact, QWidget *parent = nullptr);

    // The sides of call `labelA` and its counterpart `labelB` ("call 4", "baseline call 4").
    void setSides(const compare::PairSides &sides, const QString &labelA, const QString &labelB);
    // No pair to show (a row with a call in one run only, a pair still being built): the line says why, the sides
    // are empty.
    void setMessage(const QString &message);

    QString summary() const;
    QPlainTextEdit *sideA() const { return m_a; }
    QPlainTextEdit *sideB() const { return m_b; }
    // Whether the shown pair differs in this subject.
    bool differs() const { return m_differs; }

private:
    void showSide(QPlainTextEdit *edit, QLabel *caption, const compare::MarkedText &text, const QString &label,
                  bool removed);

    QString m_subject;
    QLabel *m_summary = nullptr;
    QLabel *m_captionA = nullptr;
    QLabel *m_captionB = nullptr;
    QPlainTextEdit *m_a = nullptr;
    QPlainTextEdit *m_b = nullptr;
    bool m_differs = false;
};

} // namespace tf::ui
