#include "ui/panes/comparisonpane.h"

#include "ui/models/alignmentmodel.h"
#include "ui/services/qtstrings.h"
#include "ui/widgets/alignmentdelegate.h"
#include "ui/widgets/fonts.h"
#include "ui/widgets/selectablelabel.h"

#include "core/report/diffreport.h"

#include <QtConcurrent/QtConcurrentRun>

#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTableView>
#include <QVBoxLayout>

namespace tf::ui {

ComparisonPane::ComparisonPane(QWidget *parent)
    : QWidget(parent)
    , m_model(new AlignmentModel(this))
{
    setObjectName(QStringLiteral("comparisonPane"));
    m_verdict = new SelectableLabel(this);
    m_verdict->setObjectName(QStringLiteral("comparisonVerdict"));
    m_verdict->setTextFormat(Qt::PlainText);
    m_verdict->setWordWrap(true);

    m_pairTitle = new QLabel(this);
    m_pairTitle->setObjectName(QStringLiteral("comparisonPairTitle"));
    m_pairTitle->setTextFormat(Qt::PlainText);
    m_pairTitle->setWordWrap(true);
    m_pairDetail = new QPlainTextEdit(this);
    m_pairDetail->setObjectName(QStringLiteral("comparisonPairDetail"));
    m_pairDetail->setReadOnly(true);
    m_pairDetail->setFont(fonts::fixedPitch());
    m_pairDetail->setLineWrapMode(QPlainTextEdit::NoWrap);

    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("alignmentView"));
    m_view->setModel(m_model);
    m_view->setItemDelegate(new AlignmentDelegate(m_view));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_verdict);
    layout->addWidget(m_pairTitle);
    // The alignment beside what else differs at the chosen pair.
    auto *lower = new QHBoxLayout;
    lower->addWidget(m_view, 3);
    lower->addWidget(m_pairDetail, 2);
    layout->addLayout(lower, 1);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (!current.isValid())
                    return;
                emit rowChosen(current.row());
                showPair(current.row());
                if (m_selecting)
                    return;
                const int ordinal = current.data(AlignmentModel::ThisCallRole).toInt();
                if (ordinal >= 0)
                    emit callActivated(ordinal);
            });
    setMessage(tr("No comparison. File > Compare With… lines this run up against another run of the same task."));
}

void ComparisonPane::setMessage(const QString &message)
{
    m_model->setComparison(nullptr);
    m_verdict->setText(message);
    ++m_pairGeneration;
    m_pairTitle->clear();
    m_pairDetail->clear();
}

void ComparisonPane::setComparison(const ComparisonHandle &comparison)
{
    if (!comparison) {
        setMessage(QString());
        return;
    }
    m_model->setComparison(comparison);
    const compare::RunDiff &diff = comparison->diff;
    QString verdict = tr("Baseline: %1.").arg(comparison->baselinePath) + QLatin1Char(' ');
    if (diff.same()) {
        verdict += tr("Every aligned call was served the same, and the answers agree.");
    } else if (!diff.firstDivergence) {
        verdict += diff.answersSame ? tr("No call is known to have been served differently, but not every call "
                                         "could be compared.")
                                    : tr("No call is known to have been served differently, but the answers "
                                         "differ.");
    } else {
        const compare::Divergence &d = *diff.firstDivergence;
        if (!d.a)
            verdict += tr("The runs first went apart where the baseline made a call this run did not (baseline "
                          "call %1).")
                           .arg(*d.b + 1);
        else if (!d.b)
            verdict += tr("The runs first went apart where this run made a call the baseline did not (call %1).")
                           .arg(*d.a + 1);
        else
            // One arg() call: a part name from the recording may itself hold "%1".
            verdict += tr("The runs first went apart at call %1 (baseline call %2): %3 from UTF-16 offset %4.")
                           .arg(QString::number(*d.a + 1), QString::number(*d.b + 1),
                                toQString(d.part.value_or(std::string())), QString::number(d.utf16Offset.value_or(0)));
        if (!diff.answersSame)
            verdict += QLatin1Char(' ') + tr("The final answers differ.");
    }
    m_verdict->setText(verdict);

    m_view->resizeColumnToContents(AlignmentModel::ThisRunColumn);
    m_view->resizeColumnToContents(AlignmentModel::BaselineColumn);
    m_view->resizeColumnToContents(AlignmentModel::ServedColumn);
}

void ComparisonPane::showPair(int row)
{
    const ComparisonHandle comparison = m_model->comparison();
    const quint64 generation = ++m_pairGeneration;
    m_pairDetail->clear();
    if (!comparison || row < 0 || row >= m_model->rowCount())
        return;
    const compare::AlignedCall c = comparison->diff.aligned[std::size_t(row)];
    const bool pair = c.a && c.b;
    if (pair)
        m_pairTitle->setText(tr("Call %1 against baseline call %2 (A: this run, B: the baseline): building\u2026")
                                 .arg(QString::number(*c.a + 1), QString::number(*c.b + 1)));
    else
        m_pairTitle->setText(c.a ? tr("Call %1: only this run made it.").arg(*c.a + 1)
                                 : tr("Baseline call %1: only the baseline made it.").arg(*c.b + 1));
    auto *watcher = new QFutureWatcher<ComparedPairHandle>(this);
    connect(watcher, &QFutureWatcher<ComparedPairHandle>::finished, this, [this, watcher, generation, row, c, pair] {
        watcher->deleteLater();
        if (generation != m_pairGeneration)
            return;
        const ComparedPairHandle built = watcher->result();
        if (pair) {
            const compare::PairDiff &diff = built->diff;
            QString title = tr("Call %1 against baseline call %2 (A: this run, B: the baseline): ")
                                .arg(QString::number(*c.a + 1), QString::number(*c.b + 1));
            if (diff.served.empty())
                title += diff.notCompared.empty() ? tr("served the same.") : tr("not every part could be compared.");
            else
                // One arg() call: a part name from the recording may itself hold "%1".
                title += tr("%1 differs from UTF-16 offset %2.")
                             .arg(toQString(diff.served.front().name),
                                  QString::number(diff.served.front().utf16Offset.value_or(0)));
            m_pairTitle->setText(title);
            m_pairDetail->setPlainText(toQString(report::pairText(diff)));
        }
        emit pairReady(built);
        emit pairShown(row);
    });
    // The views rebuild the calls from their runs, which the comparison keeps alive; the panes' sides are laid out
    // there too, so the GUI thread only sets text. A call beside a gap is laid out against no call.
    watcher->setFuture(QtConcurrent::run([comparison, row, c] {
        auto built = std::make_shared<ComparedPair>();
        built->row = row;
        built->a = c.a;
        built->b = c.b;
        if (c.a && c.b)
            built->diff = compare::comparePair(*comparison->run, *c.a, *comparison->baseline, *c.b);
        else if (c.a)
            built->diff = compare::compareWithNoCall(*comparison->run, *c.a, true);
        else
            built->diff = compare::compareWithNoCall(*comparison->baseline, *c.b, false);
        built->panes = compare::pairPanes(built->diff);
        return ComparedPairHandle(std::move(built));
    }));
}

int ComparisonPane::currentRow() const
{
    return m_view->currentIndex().isValid() ? m_view->currentIndex().row() : -1;
}

void ComparisonPane::selectRow(int row, bool activate)
{
    m_selecting = !activate;
    m_view->setCurrentIndex(m_model->index(row, AlignmentModel::ThisRunColumn));
    m_view->scrollTo(m_model->index(row, 0));
    m_selecting = false;
}

void ComparisonPane::chooseRow(int row)
{
    if (row >= 0 && row < m_model->rowCount() && row != currentRow())
        selectRow(row, true);
}

void ComparisonPane::showThisCall(int ordinal)
{
    const int row = m_model->rowOfThisCall(ordinal);
    if (row >= 0 && row != currentRow())
        selectRow(row, false);
}

bool ComparisonPane::stepDivergence(int step)
{
    const int from = currentRow() < 0 ? (step > 0 ? -1 : m_model->rowCount()) : currentRow();
    const int row = m_model->divergentRow(from, step);
    if (row < 0)
        return false;
    selectRow(row, true);
    return true;
}

} // namespace tf::ui
