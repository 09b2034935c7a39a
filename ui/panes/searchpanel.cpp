#include "ui/panes/searchpanel.h"

#include <QtConcurrent/QtConcurrentRun>

#include <QCheckBox>
#include <QFont>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace tf::ui {

namespace {

QString fromCore(const std::string &s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

} // namespace

SearchResultsModel::SearchResultsModel(QObject *parent)
    : QAbstractItemModel(parent)
{
}

void SearchResultsModel::setResult(std::shared_ptr<const report::SearchResult> result)
{
    beginResetModel();
    m_result = std::move(result);
    endResetModel();
}

QModelIndex SearchResultsModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    // Call rows carry id 0; a location row carries its call's row + 1.
    return createIndex(row, column, parent.isValid() ? quintptr(parent.row() + 1) : quintptr(0));
}

QModelIndex SearchResultsModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int SearchResultsModel::rowCount(const QModelIndex &parent) const
{
    if (!m_result || parent.column() > 0)
        return 0;
    if (!parent.isValid())
        return int(m_result->calls.size());
    if (parent.internalId() != 0)
        return 0;
    return int(m_result->calls[std::size_t(parent.row())].hits.size());
}

int SearchResultsModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant SearchResultsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !m_result)
        return {};
    const bool isCall = index.internalId() == 0;
    const report::CallHits &call = m_result->calls[std::size_t(isCall ? index.row() : int(index.internalId() - 1))];
    const report::SearchHit *hit = isCall ? nullptr : &call.hits[std::size_t(index.row())];
    const bool first = m_result->firstOrdinal && *m_result->firstOrdinal == call.ordinal &&
                       (isCall || hit->location == m_result->firstLocation);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case CallColumn:
            return isCall ? tr("Call %1").arg(call.ordinal + 1) : fromCore(hit->location);
        case MatchesColumn:
            return qulonglong(isCall ? call.total : hit->count);
        case WhereColumn:
            if (isCall)
                return first ? tr("first appearance \u00B7 %1").arg(fromCore(call.callRuntimeStageId))
                             : fromCore(call.callRuntimeStageId);
            return tr("%1: %2").arg(fromCore(hit->label), fromCore(hit->snippet));
        }
        break;
    case Qt::ToolTipRole:
        if (hit)
            return fromCore(hit->snippet);
        break;
    case Qt::FontRole:
        if (first && index.column() == CallColumn) {
            QFont f;
            f.setBold(true);
            return f;
        }
        break;
    case Qt::TextAlignmentRole:
        if (index.column() == MatchesColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case OrdinalRole:
        return int(call.ordinal);
    case LocationRole:
        return hit ? fromCore(hit->location) : QString();
    case FirstAppearanceRole:
        return first;
    }
    return {};
}

QVariant SearchResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case CallColumn:
        return tr("Call");
    case MatchesColumn:
        return tr("Matches");
    case WhereColumn:
        return tr("Where");
    }
    return {};
}

SearchPanel::SearchPanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new SearchResultsModel(this))
{
    setObjectName(QStringLiteral("searchPanel"));
    m_field = new QLineEdit(this);
    m_field->setObjectName(QStringLiteral("searchField"));
    m_field->setPlaceholderText(tr("Find in every call's served context"));
    m_field->setClearButtonEnabled(true);
    m_ignoreCase = new QCheckBox(tr("Ignore case"), this);
    m_ignoreCase->setObjectName(QStringLiteral("searchIgnoreCase"));
    m_ignoreCase->setToolTip(tr("ASCII letters only; every other character must match exactly"));
    m_responses = new QCheckBox(tr("Responses and answers"), this);
    m_responses->setObjectName(QStringLiteral("searchResponses"));
    m_responses->setChecked(true);
    m_responses->setToolTip(tr("Also search what the model wrote: each response's text, the arguments of the tools "
                               "it called, and each turn's final answer"));
    m_previous = new QToolButton(this);
    m_previous->setObjectName(QStringLiteral("searchPrevious"));
    m_previous->setArrowType(Qt::UpArrow);
    m_previous->setToolTip(tr("Previous match (Shift+F3)"));
    m_previous->setEnabled(false);
    m_next = new QToolButton(this);
    m_next->setObjectName(QStringLiteral("searchNext"));
    m_next->setArrowType(Qt::DownArrow);
    m_next->setToolTip(tr("Next match (F3)"));
    m_next->setEnabled(false);
    m_positionLabel = new QLabel(this);
    m_positionLabel->setObjectName(QStringLiteral("searchPosition"));
    m_positionLabel->setTextFormat(Qt::PlainText); // the location names a tool, from the recording
    m_positionLabel->setWordWrap(true);
    m_first = new QPushButton(tr("Go to First"), this);
    m_first->setObjectName(QStringLiteral("searchGoToFirst"));
    m_first->setEnabled(false);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("searchSummary"));
    m_summary->setWordWrap(true);
    m_view = new QTreeView(this);
    m_view->setObjectName(QStringLiteral("searchResults"));
    m_view->setModel(m_model);
    m_view->setUniformRowHeights(true);
    m_view->header()->setStretchLastSection(true);
    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(250);

    m_summary->setTextFormat(Qt::PlainText);

    // The field and its arrows on one line, wide enough to read what was typed however narrow the dock; the options
    // under it.
    m_field->setMinimumWidth(m_field->fontMetrics().averageCharWidth() * 18);
    auto *row = new QHBoxLayout;
    row->addWidget(m_field, 1);
    row->addWidget(m_previous);
    row->addWidget(m_next);
    auto *options = new QHBoxLayout;
    options->addWidget(m_ignoreCase);
    options->addWidget(m_responses);
    options->addStretch(1);
    options->addWidget(m_first);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(row);
    layout->addLayout(options);
    layout->addWidget(m_positionLabel);
    layout->addWidget(m_summary);
    layout->addWidget(m_view, 1);

    connect(m_field, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_field, &QLineEdit::returnPressed, this, &SearchPanel::startSearch);
    connect(m_ignoreCase, &QCheckBox::toggled, this, &SearchPanel::startSearch);
    connect(m_responses, &QCheckBox::toggled, this, &SearchPanel::startSearch);
    connect(m_next, &QToolButton::clicked, this, &SearchPanel::findNext);
    connect(m_previous, &QToolButton::clicked, this, &SearchPanel::findPrevious);
    connect(m_debounce, &QTimer::timeout, this, &SearchPanel::startSearch);
    connect(m_view, &QTreeView::activated, this, &SearchPanel::activate);
    connect(m_first, &QPushButton::clicked, this, [this] {
        const report::SearchResult *r = m_model->result();
        if (!r || !r->firstOrdinal)
            return;
        emit callActivated(int(*r->firstOrdinal));
        emit locationActivated(int(*r->firstOrdinal), fromCore(r->firstLocation));
        for (std::size_t c = 0; c < r->calls.size(); ++c)
            for (std::size_t h = 0; c < r->calls.size() && h < r->calls[c].hits.size(); ++h)
                if (r->calls[c].ordinal == *r->firstOrdinal && r->calls[c].hits[h].location == r->firstLocation)
                    return goTo({c, h, 0});
    });
}

SearchPanel::~SearchPanel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void SearchPanel::setRun(std::shared_ptr<const recording::Run> run)
{
    m_run = std::move(run);
    startSearch();
}

QString SearchPanel::text() const
{
    return m_field->text();
}

void SearchPanel::focusSearch()
{
    m_field->setFocus(Qt::ShortcutFocusReason);
    m_field->selectAll();
}

void SearchPanel::search(const QString &text)
{
    m_field->setText(text);
    m_debounce->stop();
    startSearch();
}

void SearchPanel::startSearch()
{
    m_debounce->stop();
    if (m_cancel)
        m_cancel->store(true);
    const quint64 generation = ++m_generation;
    const QString text = m_field->text();
    if (!m_run || text.isEmpty()) {
        showResult(nullptr);
        m_summary->setText(m_run ? QString() : tr("No recording is open."));
        emit searchFinished();
        return;
    }
    m_summary->setText(tr("Searching\u2026"));
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancel;
    const std::string needle = text.toStdString();
    const bool ignoreCase = m_ignoreCase->isChecked();
    const bool responses = m_responses->isChecked();
    auto *watcher = new QFutureWatcher<std::shared_ptr<const report::SearchResult>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        // A later query superseded this one: its result is stale.
        if (generation != m_generation)
            return;
        const auto result = watcher->result();
        showResult(result);
        m_view->expandAll();
        for (int c = 0; c < SearchResultsModel::WhereColumn; ++c)
            m_view->resizeColumnToContents(c);
        if (result->calls.empty()) {
            m_summary->setText(
                tr("No call's served context contains this text (%1 calls searched).").arg(result->callsSearched));
        } else {
            m_summary->setText(tr("%1 of %2 calls, %3 matches \u00B7 first appeared at call %4 in %5")
                                   .arg(result->calls.size())
                                   .arg(result->callsSearched)
                                   .arg(result->totalMatches())
                                   .arg(*result->firstOrdinal + 1)
                                   .arg(fromCore(result->firstLocation)));
        }
        if (!result->partialOrdinals.empty())
            m_summary->setText(m_summary->text() + QLatin1Char('\n') +
                               tr("%1 calls are only partly on record; a miss there proves nothing.")
                                   .arg(result->partialOrdinals.size()));
        emit searchFinished();
    });
    watcher->setFuture(QtConcurrent::run([run = m_run, needle, ignoreCase, responses, cancel] {
        report::SearchOptions options;
        options.caseInsensitive = ignoreCase;
        options.includeResponses = responses;
        options.cancel = cancel.get();
        return std::shared_ptr<const report::SearchResult>(
            std::make_shared<report::SearchResult>(report::searchRun(*run, needle, options)));
    }));
}

void SearchPanel::activate(const QModelIndex &index)
{
    if (!index.isValid())
        return;
    const int ordinal = index.data(SearchResultsModel::OrdinalRole).toInt();
    emit callActivated(ordinal);
    const QString location = index.data(SearchResultsModel::LocationRole).toString();
    if (!location.isEmpty())
        emit locationActivated(ordinal, location);
    // A call row shows its first match; a location row, that location's.
    const QModelIndex callRow = index.parent().isValid() ? index.parent() : index;
    const std::size_t hit = index.parent().isValid() ? std::size_t(index.row()) : 0;
    goTo({std::size_t(callRow.row()), hit, 0});
}

void SearchPanel::showResult(std::shared_ptr<const report::SearchResult> result)
{
    m_model->setResult(result);
    m_position.reset();
    const bool any = result && result->totalMatches() > 0;
    m_first->setEnabled(result && result->firstOrdinal.has_value());
    m_next->setEnabled(any);
    m_previous->setEnabled(any);
    m_positionLabel->setText(
        result ? tr("%n match(es) \u00B7 F3 goes to the next", nullptr, int(result->totalMatches())) : QString());
    m_positionLabel->setVisible(any);
    emit queryChanged(query());
}

FindQuery SearchPanel::query() const
{
    const report::SearchResult *r = m_model->result();
    if (!r)
        return {};
    return {fromCore(r->needle), r->caseInsensitive};
}

QString SearchPanel::positionText() const
{
    return m_positionLabel->text();
}

void SearchPanel::findNext()
{
    if (const report::SearchResult *r = m_model->result())
        if (const auto next = report::stepMatch(*r, m_position, false))
            goTo(*next);
}

void SearchPanel::findPrevious()
{
    if (const report::SearchResult *r = m_model->result())
        if (const auto previous = report::stepMatch(*r, m_position, true))
            goTo(*previous);
}

void SearchPanel::goTo(const report::MatchPosition &position)
{
    const report::SearchResult *r = m_model->result();
    if (!r || position.call >= r->calls.size() || position.hit >= r->calls[position.call].hits.size())
        return;
    m_position = position;
    const report::CallHits &call = r->calls[position.call];
    const report::SearchHit &hit = call.hits[position.hit];
    m_positionLabel->setText(tr("Match %1 of %2 \u00B7 call %3, %4 \u00B7 %5")
                                 .arg(report::matchNumber(*r, position))
                                 .arg(r->totalMatches())
                                 .arg(call.ordinal + 1)
                                 .arg(fromCore(hit.location), fromCore(hit.label)));
    // The result row of that location, current and in view (a row is activated by the user only: this does not).
    const QModelIndex row = m_model->index(int(position.hit), 0, m_model->index(int(position.call), 0));
    m_view->setCurrentIndex(row);
    m_view->scrollTo(row);
    SearchMatch match;
    match.ordinal = int(call.ordinal);
    match.part = hit.part;
    match.index = int(hit.index);
    match.name = fromCore(hit.name);
    match.occurrence = int(position.occurrence);
    match.location = fromCore(hit.location);
    emit matchActivated(match);
}

} // namespace tf::ui
