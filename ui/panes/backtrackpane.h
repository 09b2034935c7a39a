#pragma once

#include "ui/services/loadedrun.h"
#include "ui/widgets/findhighlight.h"

#include <QWidget>

class QTreeView;

namespace tf::ui {

class AnnotatedTextView;
class BacktrackModel;
class SelectableLabel;

// The answer's backtrack in the window: the final answer with the fact values it uses marked, what the backtrack
// says it rests on, and the chain behind it (the answering call, fact lines and ledger rows, the tool results and the
// call each entered at, contingent rows, undeclared results). Activating an entry goes there. The backtrack is the
// core's (report::backtrackAnswer, computed once by the loader): the same one the HTML report shows.
class BacktrackPane : public QWidget
{
    Q_OBJECT

public:
    explicit BacktrackPane(QWidget *parent = nullptr);

    void setRun(const RunHandle &run);
    BacktrackModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    AnnotatedTextView *answerView() const { return m_answer; }
    QString statementsText() const;

    void setFindQuery(const FindQuery &query);
    // Marks the `occurrence`-th match of the find query in the answer and scrolls to it.
    void revealInAnswer(int occurrence);

signals:
    void callActivated(int ordinal);
    void ledgerRowActivated(int ordinal, int row);
    void messageActivated(int ordinal, int message);
    void toolResultFollowed(const QString &toolCallId);

private:
    void activate(const QModelIndex &index);

    RunHandle m_run;
    BacktrackModel *m_model = nullptr;
    SelectableLabel *m_statements = nullptr;
    AnnotatedTextView *m_answer = nullptr;
    QTreeView *m_view = nullptr;
    FindQuery m_find;
};

} // namespace tf::ui
