#include "ui/widgets/changedbanner.h"

#include "ui/widgets/selectablelabel.h"
#include "ui/widgets/theme.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>

namespace tf::ui {

ChangedBanner::ChangedBanner(QWidget *parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("fileChangedBar"));
    setFrameShape(QFrame::NoFrame);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);

    m_icon = new QLabel(this);
    const int iconSize = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning, nullptr, this).pixmap(iconSize, iconSize));
    m_title = new QLabel(tr("The file changed on disk."), this);
    m_title->setObjectName(QStringLiteral("fileChangedTitle"));
    m_title->setTextFormat(Qt::PlainText);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_reason = new SelectableLabel(this);
    m_reason->setObjectName(QStringLiteral("fileChangedReason"));
    m_reason->setTextFormat(Qt::PlainText);
    m_reason->setWordWrap(true);
    m_reason->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    setToolTip(tr("What the window shows was read before the change; calls not shown yet are read again after a "
                  "reload. Bookmarks and notes are kept."));

    m_reload = new QPushButton(tr("&Reload"), this);
    m_reload->setObjectName(QStringLiteral("fileChangedReload"));
    m_reload->setDefault(false);
    m_reload->setAutoDefault(false);
    connect(m_reload, &QPushButton::clicked, this, &ChangedBanner::reloadRequested);
    auto *dismiss = new QToolButton(this);
    dismiss->setObjectName(QStringLiteral("fileChangedDismiss"));
    dismiss->setAutoRaise(true);
    dismiss->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton, nullptr, this));
    dismiss->setToolTip(tr("Hide this bar; File > Reload reads the file again"));
    connect(dismiss, &QToolButton::clicked, this, &ChangedBanner::dismissed);

    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(12, 4, 4, 4);
    row->setSpacing(8);
    row->addWidget(m_icon, 0, Qt::AlignVCenter);
    row->addWidget(m_title, 0, Qt::AlignVCenter);
    row->addWidget(m_reason, 1, Qt::AlignVCenter);
    row->addWidget(m_reload, 0, Qt::AlignVCenter);
    row->addWidget(dismiss, 0, Qt::AlignVCenter);
}

void ChangedBanner::showChange(const QString &reason)
{
    m_reason->setText(reason);
}

QString ChangedBanner::reason() const
{
    return m_reason->text();
}

void ChangedBanner::paintEvent(QPaintEvent *)
{
    // A warning tint with an accent edge, from the current palette so it reads in light and dark themes; painted
    // here because the tool bar it sits in paints over a palette-filled background.
    QPainter p(this);
    p.fillRect(rect(), theme::tint(theme::Tone::Warn, palette(), 0.22));
    p.fillRect(QRect(0, 0, 4, height()), theme::strong(theme::Tone::Warn, palette()));
}

} // namespace tf::ui
