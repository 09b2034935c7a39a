#include "ui/panes/transcriptpane.h"

#include "ui/models/transcriptmodel.h"
#include "ui/widgets/elidedlabel.h"
#include "ui/widgets/transcriptview.h"

#include <QHBoxLayout>
#include <QToolButton>
#include <QVBoxLayout>

namespace tf::ui {

TranscriptPane::TranscriptPane(QWidget *parent)
    : QWidget(parent)
    , m_model(new TranscriptModel(this))
{
    setObjectName(QStringLiteral("transcriptPane"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    auto *head = new QHBoxLayout;
    head->setContentsMargins(10, 5, 4, 5);
    head->setSpacing(6);
    m_summary = new ElidedLabel(this);
    m_summary->setObjectName(QStringLiteral("transcriptSummary"));
    head->addWidget(m_summary, 1);
    m_unfold = new QToolButton(this);
    m_unfold->setObjectName(QStringLiteral("transcriptUnfoldButton"));
    m_unfold->setText(tr("Unfold all"));
    m_unfold->setCheckable(true);
    m_unfold->setAutoRaise(true);
    m_unfold->setToolTip(tr("Show tool results and long messages in full (a click on one folds or unfolds it)"));
    head->addWidget(m_unfold);
    layout->addLayout(head);

    m_view = new TranscriptView(this);
    m_view->setObjectName(QStringLiteral("transcriptView"));
    m_view->setModel(m_model);
    layout->addWidget(m_view, 1);

    connect(m_unfold, &QToolButton::toggled, m_model, &TranscriptModel::setAllExpanded);
}

QString TranscriptPane::summaryText() const
{
    return m_summary->text();
}

void TranscriptPane::setBundle(const BundleHandle &bundle)
{
    m_model->setBundle(bundle);
    if (m_unfold->isChecked())
        m_model->setAllExpanded(true);
    const recording::Transcript *t = m_model->transcript();
    if (!t) {
        m_summary->clear();
        return;
    }
    if (t->messages.empty()) {
        m_summary->setText(bundle->view->conversationOnRecord
                               ? tr("Call %1 sent no messages").arg(bundle->ordinal + 1)
                               : tr("Call %1: the conversation is not on record").arg(bundle->ordinal + 1));
        return;
    }
    std::size_t collapsed = 0;
    for (const recording::MessageView &m : t->messages)
        collapsed += m.collapsed ? 1 : 0;
    QString text = tr("Call %1 · %n message(s)", nullptr, int(t->messages.size())).arg(bundle->ordinal + 1);
    if (bundle->ordinal == 0)
        text += tr(" · the first call: all new");
    else if (t->comparable)
        text += tr(" · %n new since call %1", nullptr, int(t->newCount)).arg(bundle->ordinal);
    else
        text += tr(" · what is new cannot be told (call %1's conversation is not on record)").arg(bundle->ordinal);
    if (collapsed)
        text += tr(" · %n sent as collapse ticket(s)", nullptr, int(collapsed));
    m_summary->setText(text);
    // Read from where this call's conversation moved on: the first new message, else the end.
    for (std::size_t i = 0; i < t->isNew.size(); ++i)
        if (t->isNew[i] && bundle->ordinal > 0) {
            m_view->scrollToWhenShown(m_model->index(int(i)), QAbstractItemView::PositionAtTop);
            return;
        }
    m_view->scrollToWhenShown(m_model->index(bundle->ordinal == 0 ? 0 : m_model->rowCount() - 1));
}

} // namespace tf::ui
