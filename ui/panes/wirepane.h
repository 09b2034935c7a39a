#pragma once

#include "ui/widgets/immediateitemlayout.h"

#include <QTreeView>

#include "ui/services/callbundle.h"

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

public slots:
    void selectMessage(int message);
    void toggleOriginal();

private:
    void showItem(const QModelIndex &index);

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
};

} // namespace tf::ui
