#include "ui/panes/welcomepage.h"

#include "ui/widgets/theme.h"

#include <QFileInfo>
#include <QIcon>
#include <QLabel>
#include <QListWidget>
#include <QPainter>
#include <QPushButton>
#include <QVBoxLayout>

namespace tf::ui {

WelcomePage::WelcomePage(QWidget *parent)
    : QWidget(parent)
    , m_message(new QLabel(this))
    , m_recentTitle(new QLabel(tr("Recent recordings"), this))
    , m_recent(new QListWidget(this))
{
    setObjectName(QStringLiteral("welcomePage"));
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);

    auto *icon = new QLabel(this);
    icon->setPixmap(QIcon(QStringLiteral(":/tracefold/icons/tracefold.svg")).pixmap(64, 64));
    icon->setAlignment(Qt::AlignCenter);
    auto *title = new QLabel(tr("Tracefold"), this);
    QFont big = title->font();
    big.setPointSizeF(big.pointSizeF() * 2.0);
    big.setBold(true);
    title->setFont(big);
    title->setAlignment(Qt::AlignCenter);
    auto *subtitle = new QLabel(tr("Replay a recorded agentfootprint run, call by call."), this);
    subtitle->setAlignment(Qt::AlignCenter);
    subtitle->setForegroundRole(QPalette::PlaceholderText);
    m_message->setObjectName(QStringLiteral("welcomeMessage"));
    m_message->setTextFormat(Qt::PlainText); // an error names the user's file
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->hide();

    auto *open = new QPushButton(QIcon::fromTheme(QStringLiteral("document-open")), tr("Open a Recording…"), this);
    open->setObjectName(QStringLiteral("welcomeOpen"));
    open->setDefault(true);
    auto *sample = new QPushButton(tr("Open the Bundled Sample"), this);
    sample->setObjectName(QStringLiteral("welcomeSample"));
    auto *drop = new QLabel(tr("or drop a recording (.json, .ndjson, .jsonl) anywhere on this window"), this);
    drop->setAlignment(Qt::AlignCenter);
    drop->setForegroundRole(QPalette::PlaceholderText);

    QFont bold = m_recentTitle->font();
    bold.setBold(true);
    m_recentTitle->setFont(bold);
    m_recent->setObjectName(QStringLiteral("welcomeRecent"));
    m_recent->setFrameShape(QFrame::NoFrame);
    m_recent->setMaximumHeight(220);

    auto *column = new QWidget(this);
    column->setMaximumWidth(520);
    auto *inner = new QVBoxLayout(column);
    inner->setSpacing(10);
    inner->addWidget(icon);
    inner->addWidget(title);
    inner->addWidget(subtitle);
    inner->addWidget(m_message);
    inner->addSpacing(12);
    inner->addWidget(open);
    inner->addWidget(sample);
    inner->addWidget(drop);
    inner->addSpacing(12);
    inner->addWidget(m_recentTitle);
    inner->addWidget(m_recent);

    auto *outer = new QVBoxLayout(this);
    outer->addStretch(1);
    outer->addWidget(column, 0, Qt::AlignHCenter);
    outer->addStretch(2);

    connect(open, &QPushButton::clicked, this, &WelcomePage::openRequested);
    connect(sample, &QPushButton::clicked, this, &WelcomePage::sampleRequested);
    connect(m_recent, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *item) { emit recentRequested(item->data(Qt::UserRole).toString()); });
    setRecentFiles({});
}

void WelcomePage::setRecentFiles(const QStringList &paths)
{
    m_recent->clear();
    for (const QString &path : paths) {
        auto *item = new QListWidgetItem(QFileInfo(path).fileName(), m_recent);
        item->setData(Qt::UserRole, path);
        item->setToolTip(path);
    }
    m_recentTitle->setVisible(!paths.isEmpty());
    m_recent->setVisible(!paths.isEmpty());
}

void WelcomePage::setMessage(const QString &message)
{
    m_message->setText(message);
    m_message->setVisible(!message.isEmpty());
}

void WelcomePage::paintEvent(QPaintEvent *event)
{
    QWidget::paintEvent(event);
    // A dashed frame says the whole page takes a dropped file.
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    QPen pen(theme::gridLine(palette()), 2, Qt::DashLine);
    p.setPen(pen);
    p.drawRoundedRect(QRectF(rect()).adjusted(12, 12, -12, -12), 10, 10);
}

} // namespace tf::ui
