#include "ui/widgets/filenotice.h"

#include <QDesktopServices>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QTimer>
#include <QToolButton>
#include <QUrl>

namespace tf::ui {

namespace {

FileNotice::Opener s_opener = &QDesktopServices::openUrl;

constexpr int kShownMs = 60 * 1000;

} // namespace

FileNotice::FileNotice(QWidget *parent)
    : QWidget(parent)
    , m_label(new QLabel(this))
    , m_timer(new QTimer(this))
{
    setObjectName(QStringLiteral("fileNotice"));
    m_label->setObjectName(QStringLiteral("fileNoticeText"));
    m_label->setTextFormat(Qt::PlainText); // a file name is the user's, not markup
    auto *open = new QToolButton(this);
    open->setObjectName(QStringLiteral("fileNoticeOpen"));
    open->setText(tr("Open"));
    open->setAutoRaise(true);
    auto *folder = new QToolButton(this);
    folder->setObjectName(QStringLiteral("fileNoticeShowInFolder"));
    folder->setText(tr("Show in Folder"));
    folder->setAutoRaise(true);
    auto *close = new QToolButton(this);
    close->setObjectName(QStringLiteral("fileNoticeClose"));
    close->setText(QStringLiteral("\u2715"));
    close->setToolTip(tr("Dismiss"));
    close->setAutoRaise(true);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_label);
    layout->addWidget(open);
    layout->addWidget(folder);
    layout->addWidget(close);
    connect(open, &QToolButton::clicked, this, &FileNotice::openFile);
    connect(folder, &QToolButton::clicked, this, &FileNotice::showInFolder);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &QWidget::hide);
    hide();
}

void FileNotice::setOpener(Opener opener)
{
    s_opener = opener ? opener : &QDesktopServices::openUrl;
}

void FileNotice::show(const QString &message, const QString &path)
{
    m_path = path;
    m_label->setText(message);
    m_label->setToolTip(QFileInfo(path).absoluteFilePath());
    QWidget::show();
    m_timer->start(kShownMs);
}

void FileNotice::openFile()
{
    s_opener(QUrl::fromLocalFile(QFileInfo(m_path).absoluteFilePath()));
}

void FileNotice::showInFolder()
{
    s_opener(QUrl::fromLocalFile(QFileInfo(m_path).absolutePath()));
}

} // namespace tf::ui
