#include "ui/panes/summarybar.h"

#include "ui/models/callstatus.h"
#include "ui/models/problemsmodel.h"
#include "ui/services/qtstrings.h"
#include "ui/widgets/chipstrip.h"
#include "ui/widgets/elidedlabel.h"
#include "ui/widgets/theme.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace tf::ui {

using theme::Tone;

namespace {

// Short verdicts (the outcome, the problem counts) keep their words when the bar is tight; long identifiers elide.
void keepWhole(ElidedLabel *label)
{
    label->setMinimumWidth(label->sizeHint().width());
}

} // namespace

SummaryBar::SummaryBar(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("summaryBar"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 3, 8, 4);
    layout->setSpacing(18);
    m_file = addField(QStringLiteral("summaryFile"), tr("Recording"), 0, 260);
    m_runId = addField(QStringLiteral("summaryRunId"), tr("Run"), 0, 220);
    m_model = addField(QStringLiteral("summaryModel"), tr("Model"), 0, 220);
    m_outcome = addField(QStringLiteral("summaryOutcome"), tr("Outcome"), 0, 260);
    // Coloured by the outcome: the role is pinned, since an unset one follows the tool bar's background role.
    m_outcome->setForegroundRole(QPalette::WindowText);
    m_problems = addField(QStringLiteral("summaryProblems"), tr("Problems"), 0, 260);
    m_problems->setForegroundRole(QPalette::WindowText);
    m_calls = addField(QStringLiteral("summaryCalls"), tr("Calls"), 0);
    m_tokens = addField(QStringLiteral("summaryTokens"), tr("Tokens"), 0);
    m_cache = addField(QStringLiteral("summaryCache"), tr("Cache"), 0);
    m_answer = addField(QStringLiteral("summaryAnswer"), tr("Final answer"), 1);

    auto *gapBox = new QWidget(this);
    auto *gapLayout = new QVBoxLayout(gapBox);
    gapLayout->setContentsMargins(0, 0, 0, 0);
    gapLayout->setSpacing(0);
    auto *caption = new QLabel(tr("Gaps"), gapBox);
    QFont small = caption->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    caption->setFont(small);
    caption->setForegroundRole(QPalette::PlaceholderText);
    m_gaps = new ChipStrip(gapBox);
    m_gaps->setObjectName(QStringLiteral("summaryGaps"));
    gapLayout->addWidget(caption);
    gapLayout->addWidget(m_gaps);
    layout->addWidget(gapBox, 0);
}

void SummaryBar::setOutcome(const recording::Run &run)
{
    const recording::RunOutcome &o = run.outcome;
    QString text;
    Tone tone = Tone::Good;
    switch (o.status) {
    case recording::OutcomeStatus::Completed:
        text = tr("Completed");
        break;
    case recording::OutcomeStatus::Failed:
        text = o.call ? tr("Failed at call %1").arg(*o.call + 1) : tr("Failed");
        tone = Tone::Bad;
        break;
    case recording::OutcomeStatus::Paused:
        text = o.call ? tr("Paused at call %1").arg(*o.call + 1) : tr("Paused");
        tone = Tone::Warn;
        break;
    case recording::OutcomeStatus::Incomplete:
        // A followed log that has not ended is not cut short: it is still being written.
        text = run.preview ? tr("Indexing…") : run.live ? tr("In progress") : tr("Incomplete");
        tone = Tone::Neutral;
        break;
    }
    if (!run.limits.empty()) {
        QStringList kinds;
        for (const recording::RunLimit &l : run.limits)
            if (l.kind != "context.budget_pressure" && !kinds.contains(toQString(l.kind)))
                kinds << toQString(l.kind);
        if (!kinds.isEmpty())
            text += tr(" · limit hit");
    }
    m_outcome->setText(text);
    keepWhole(m_outcome);
    QPalette p = m_outcome->palette();
    p.setColor(QPalette::WindowText,
               tone == Tone::Good ? palette().color(QPalette::WindowText) : theme::strong(tone, p));
    m_outcome->setPalette(p);
    QString tip = text;
    if (o.message)
        tip += QLatin1Char('\n') + toQString(*o.message);
    for (const recording::RunLimit &l : run.limits)
        tip += QLatin1Char('\n') + tr("%1%2: %3")
                                       .arg(toQString(l.kind), l.call ? tr(" at call %1").arg(*l.call + 1) : QString(),
                                            toQString(l.message));
    m_outcome->setToolTip(toolTipText(tip));
}

void SummaryBar::setProblems(const LoadedRun &run)
{
    if (run.indexing) { // the audit reads every call's summary: it runs once they are all done
        m_problems->setText(tr("audit once indexed"));
        keepWhole(m_problems);
        m_problems->setPalette(palette());
        m_problems->setToolTip(toolTipText(tr("The audit runs once every call is indexed.")));
        return;
    }
    const audit::ProblemCounts n = audit::countProblems(run.problems);
    m_problems->setText(problemCountsText(n));
    keepWhole(m_problems);
    const Tone tone = n.errors ? Tone::Bad : n.warnings ? Tone::Warn : Tone::Good;
    QPalette p = m_problems->palette();
    p.setColor(QPalette::WindowText,
               tone == Tone::Good ? palette().color(QPalette::WindowText) : theme::strong(tone, p));
    m_problems->setPalette(p);
    // Counted by rule, in the audit's rule order.
    std::vector<std::size_t> byRule(audit::kAuditRuleCount, 0);
    for (const audit::Problem &problem : run.problems)
        ++byRule[std::size_t(problem.rule)];
    QString tip = tr("What the audit found in the record (View > Problems lists each with its call).");
    for (int r = 0; r < audit::kAuditRuleCount; ++r)
        if (byRule[std::size_t(r)])
            tip += QLatin1Char('\n') + QStringLiteral("%1 \u00D7 %2")
                                           .arg(byRule[std::size_t(r)])
                                           .arg(QString::fromLatin1(audit::auditRuleId(audit::AuditRule(r))));
    m_problems->setToolTip(toolTipText(tip));
}

ElidedLabel *SummaryBar::addField(const QString &objectName, const QString &caption, int stretch, int maxWidth)
{
    auto *box = new QWidget(this);
    auto *v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(0);
    auto *c = new QLabel(caption, box);
    QFont small = c->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    c->setFont(small);
    c->setForegroundRole(QPalette::PlaceholderText);
    auto *value = new ElidedLabel(box);
    value->setObjectName(objectName);
    if (maxWidth > 0)
        value->setMaximumTextWidth(maxWidth);
    v->addWidget(c);
    v->addWidget(value);
    static_cast<QHBoxLayout *>(layout())->addWidget(box, stretch);
    return value;
}

QString SummaryBar::fieldText(const QString &objectName) const
{
    const auto *label = findChild<ElidedLabel *>(objectName);
    return label ? label->text() : QString();
}

void SummaryBar::setRun(const RunHandle &handle)
{
    if (!handle) {
        for (ElidedLabel *l : {m_file, m_runId, m_model, m_outcome, m_problems, m_calls, m_tokens, m_cache, m_answer})
            l->setText(QString());
        m_gaps->setChips({}, {});
        return;
    }
    const recording::Run &run = *handle->run;
    const QString notOnRecord = StatusText::notOnRecord();
    m_file->setText(handle->displayName);
    m_file->setToolTip(toolTipText(handle->bundled ? handle->displayName
                                                   : handle->path + QLatin1Char('\n') + StatusText::shape(run.shape)));
    m_runId->setText(run.runId.empty() ? notOnRecord : toQString(run.runId));
    QString model = run.model.empty() ? notOnRecord : toQString(run.model);
    if (!run.provider.empty())
        model += QStringLiteral(" · ") + toQString(run.provider);
    m_model->setText(model);
    QString calls = run.turns.size() > 1 ? tr("%1 in %2 turns").arg(run.calls.size()).arg(run.turns.size())
                                         : QString::number(run.calls.size());
    // While the calls are summarized, the figures below cover the ones done so far.
    if (handle->indexing && !run.preview)
        calls = tr("%1 (%2 indexed)").arg(calls).arg(handle->calls.size());
    m_calls->setText(calls);
    setOutcome(run);
    setProblems(*handle);
    const auto count = [&](const std::optional<double> &v) { return v ? formatCount(*v) : QStringLiteral("—"); };
    const report::TokenTotals &tokens = handle->tokens;
    m_tokens->setText(tr("in %1 · out %2").arg(count(tokens.input), count(tokens.output)) +
                      (tokens.partial() && tokens.reportingCalls ? tr(" (partial)") : QString()));
    m_tokens->setToolTip(toolTipText(
        tr("Summed over the %1 of %2 calls that reported usage").arg(tokens.reportingCalls).arg(tokens.calls)));
    QString cache = tr("read %1 · write %2").arg(count(tokens.cacheRead), count(tokens.cacheWrite));
    if (handle->hitRate.rate)
        cache += tr(" · hit %1%").arg(QString::number(*handle->hitRate.rate * 100, 'f', 1));
    else
        cache += tr(" · hit rate unknown");
    m_cache->setText(cache);
    m_cache->setToolTip(toolTipText(
        tr("Over %n measured call(s)", nullptr, int(handle->hitRate.measured)) +
        (handle->hitRate.reason.empty() ? QString() : QLatin1Char('\n') + toQString(handle->hitRate.reason))));
    m_answer->setText(run.finalAnswer ? toQString(*run.finalAnswer) : notOnRecord);

    // As inspect --json lists them (computed by the loader: a run of 100,000 calls lists gaps on every call).
    QList<Chip> chips;
    QStringList tips;
    for (std::size_t i = 0; i < handle->gaps.size(); ++i) {
        const recording::Gap &g = handle->gaps[i];
        const QString name = toQString(g.name);
        const Tone tone = g.kind == recording::Gap::Kind::Missing  ? Tone::Bad
                          : g.kind == recording::Gap::Kind::Excuse ? Tone::Warn
                                                                   : Tone::Neutral;
        chips.append({name, tone, g.kind == recording::Gap::Kind::Note});
        QString tip =
            name + QStringLiteral(" (") + StatusText::gapKind(g.kind) + QStringLiteral(")\n") + toQString(g.why);
        if (i >= run.gaps.size())
            tip += QLatin1Char('\n') + tr("Found on at least one call.");
        tips << tip;
    }
    for (const std::string &w : run.warnings) {
        chips.append({tr("warning"), Tone::Bad, false});
        tips << toQString(w);
    }
    m_gaps->setChips(chips, tips);
}

} // namespace tf::ui
