#pragma once

#include "ui/services/loadedcomparison.h"
#include "ui/services/loadedrun.h"

#include <QWidget>

#include <optional>
#include <utility>

class QLabel;
class QTableView;
class QToolButton;

namespace tf::ui {

class AlignedCallsModel;
class CallListModel;
class ColumnFitter;
class ElidedLabel;
class CallTableView;

// One row per LLM call; the current row is the call every other pane shows. While a comparison is open the list
// shows both runs aligned instead (AlignedCallsModel): one row per aligned pair, the open run's call beside the
// baseline's; choosing a row asks for it (alignedRowChosen) and the comparison shows the pair.
class CallsPane : public QWidget
{
    Q_OBJECT

public:
    explicit CallsPane(QWidget *parent = nullptr);

    void setRun(const RunHandle &run);
    CallListModel *model() const { return m_model; }
    CallTableView *view() const { return m_view; }
    // The width that shows every visible column whole (the stretching one at its fitted width) and the scroll bar.
    int neededWidth() const;
    int currentCall() const;
    // Both runs aligned side by side; nullptr: the plain list again.
    void setComparison(const ComparisonHandle &comparison);
    bool isAligned() const;
    AlignedCallsModel *alignedModel() const { return m_alignedModel; }
    QTableView *alignedView() const { return m_alignedView; }
    int alignedRow() const;
    // The calls a timeline range reaches, when the list shows only those (0-based, inclusive).
    std::optional<std::pair<int, int>> callRange() const { return m_range; }

public slots:
    void setCurrentCall(int ordinal);
    // Shows only calls [first, last]; the other rows come back with clearCallRange, or when a hidden call is chosen.
    void setCallRange(int first, int last);
    void clearCallRange();
    // Selects aligned row `row` without emitting alignedRowChosen (the comparison already shows it).
    void setAlignedRow(int row);

signals:
    void currentCallChanged(int ordinal);
    void alignedRowChosen(int row);
    void callRangeCleared();

private:
    void updateFooter();

    CallListModel *m_model = nullptr;
    CallTableView *m_view = nullptr;
    AlignedCallsModel *m_alignedModel = nullptr;
    QTableView *m_alignedView = nullptr;
    bool m_settingAlignedRow = false;
    ColumnFitter *m_fitter = nullptr;
    ElidedLabel *m_footer = nullptr;
    QToolButton *m_showAll = nullptr;
    QString m_footerText;
    std::optional<std::pair<int, int>> m_range;
};

} // namespace tf::ui
