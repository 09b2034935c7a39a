#pragma once

#include "ui/widgets/findhighlight.h"

#include "core/recording/run.h"
#include "core/report/runsearch.h"

#include <QAbstractItemModel>
#include <QWidget>

#include <atomic>
#include <memory>

class QCheckBox;
class QLabel;
class QToolButton;
class QLineEdit;
class QPushButton;
class QTimer;
class QTreeView;

namespace tf::ui {

// Run search results as a two-level tree: one row per matching call, its locations ("messages[4]") as children.
class SearchResultsModel : public QAbstractItemModel
{
    Q_OBJECT

public:
    enum Column
    {
        CallColumn,
        MatchesColumn,
        WhereColumn,
        ColumnCount
    };
    enum Role
    {
        OrdinalRole = Qt::UserRole + 1, // int: the call's ordinal (on call and location rows)
        LocationRole,                   // QString: "messages[4]" (location rows; empty on call rows)
        FirstAppearanceRole,            // bool: the call (or location) where the text first appeared
    };

    explicit SearchResultsModel(QObject *parent = nullptr);
    void setResult(std::shared_ptr<const report::SearchResult> result);
    const report::SearchResult *result() const { return m_result.get(); }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const report::SearchResult> m_result;
};

// One match to show: the call, the part of it (a core SearchPart with its index or name), and which of that part's
// matches.
struct SearchMatch
{
    int ordinal = -1;
    report::SearchPart part = report::SearchPart::Message;
    int index = 0;
    QString name;
    int occurrence = 0;
    QString location; // "messages[14]"
};

// Find across the run (QKeySequence::Find): every call whose served context contains the text, and the first call
// where it appeared. Searches on a worker thread; a new query cancels the one running and drops its late result.
class SearchPanel : public QWidget
{
    Q_OBJECT

public:
    explicit SearchPanel(QWidget *parent = nullptr);
    ~SearchPanel() override;

    void setRun(std::shared_ptr<const recording::Run> run);
    SearchResultsModel *model() const { return m_model; }
    QString text() const;
    // The query of the result shown (empty while none is).
    FindQuery query() const;
    // The match Next / Previous last went to, and its number among them all ("3 of 17").
    std::optional<report::MatchPosition> position() const { return m_position; }
    QString positionText() const;

public slots:
    // Focuses the field and selects its text (bind QKeySequence::Find to this).
    void focusSearch();
    void search(const QString &text);
    // The next / previous match in call order, wrapping around (F3 / Shift+F3).
    void findNext();
    void findPrevious();

signals:
    void callActivated(int ordinal);
    void locationActivated(int ordinal, const QString &location);
    // A match to show, from Next / Previous, Go to First, or a result row.
    void matchActivated(const tf::ui::SearchMatch &match);
    // The text whose matches the panes mark (empty: none), whenever a search finishes or is cleared.
    void queryChanged(const tf::ui::FindQuery &query);
    void searchFinished();

private:
    void startSearch();
    void activate(const QModelIndex &index);
    void goTo(const report::MatchPosition &position);
    void showResult(std::shared_ptr<const report::SearchResult> result);

    std::shared_ptr<const recording::Run> m_run;
    SearchResultsModel *m_model = nullptr;
    QLineEdit *m_field = nullptr;
    QCheckBox *m_ignoreCase = nullptr;
    QCheckBox *m_responses = nullptr;
    QPushButton *m_first = nullptr;
    QToolButton *m_previous = nullptr;
    QToolButton *m_next = nullptr;
    QLabel *m_positionLabel = nullptr;
    QLabel *m_summary = nullptr;
    QTreeView *m_view = nullptr;
    QTimer *m_debounce = nullptr;
    quint64 m_generation = 0;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::optional<report::MatchPosition> m_position;
};

} // namespace tf::ui

Q_DECLARE_METATYPE(tf::ui::SearchMatch)
