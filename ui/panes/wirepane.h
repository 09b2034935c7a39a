#pragma once

#include "ui/widgets/immediateitemlayout.h"

#include <QTreeView>

#include "ui/services/callbundle.h"
#include "ui/widgets/findhighlight.h"

#include <QPersistentModelIndex>
#include <QWidget>

class QLabel;
class QSplitter;
class QToolButton;

namespace tf::ui {

class AnnotatedTextView;
class ColumnFitter;
class ElidedLabel;
class WireModel;

// The request as sent at the selected call: system prompt pieces, messages after the collapse, tools. Selecting an
// item shows its full content below; a collapsed tool result shows the ticket that was sent, and its original
// result is one click away.
class WirePane : public QWidget
{
    Q_OBJECT

public:
    explicit WirePane(QWidget *parent = nullptr);

    void setBundle(const BundleHandle &bundle);
    WireModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    AnnotatedTextView *detail() const { return m_detail; }
    bool showingOriginal() const { return m_showOriginal; }

    // The run search's text: its matches are marked in whatever item the detail shows.
    void setFindQuery(const FindQuery &query);
    const FindQuery &findQuery() const { return m_find; }
    // Selects an item (WireModel::Group and row) and shows it with the `occurrence`-th match of the find query
    // marked and scrolled into view. False when the call has no such item.
    bool revealItem(int group, int row, int occurrence = -1);
    // The row of the tool offered under `name` in the Tools group; -1: none.
    int toolRow(const QString &name) const;
    // The item shown: its group (WireModel::Group) and row (-1: the group itself); {-1, -1} when none.
    QPair<int, int> shownItem() const;
    // How many matches of the find query the detail shows now.
    int shownMatches() const { return m_shownMatches; }

public slots:
    void selectMessage(int message);
    void toggleOriginal();

signals:
    // A tool call id was clicked (a result's, or one an assistant turn called).
    void toolCallFollowed(const QString &toolCallId);

protected:
    void changeEvent(QEvent *event) override;

private:
    void showItem(const QModelIndex &index);
    void reserveDetailBarHeight();

    WireModel *m_model = nullptr;
    ImmediateItemLayout<QTreeView> *m_view = nullptr;
    ColumnFitter *m_fitter = nullptr;
    QLabel *m_summary = nullptr;
    QWidget *m_detailBar = nullptr;
    ElidedLabel *m_detailTitle = nullptr;
    ElidedLabel *m_collapseNote = nullptr;
    QToolButton *m_originalButton = nullptr;
    AnnotatedTextView *m_detail = nullptr;
    QSplitter *m_splitter = nullptr;
    QPersistentModelIndex m_shown;
    bool m_showOriginal = false;
    bool m_userPicked = false; // the user chose the shown item: keep it across calls
    bool m_autoSelecting = false;
    FindQuery m_find;
    int m_focusOccurrence = -1; // the match revealItem asked for; -1: mark them all, move nothing
    int m_shownMatches = 0;
};

} // namespace tf::ui
