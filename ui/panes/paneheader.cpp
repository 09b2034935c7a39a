#include "ui/panes/paneheader.h"

#include "ui/widgets/elidedlabel.h"
#include "ui/widgets/glyphlabel.h"

#include <QHBoxLayout>
#include <QVBoxLayout>

namespace tf::ui {

PaneHeader::PaneHeader(QWidget *parent, const QString &titleObjectName, const QString &subtitleObjectName)
    : QWidget(parent)
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 6);
    layout->setSpacing(8);
    m_glyph = new GlyphLabel(this, 22);
    auto *lines = new QVBoxLayout;
    lines->setSpacing(0);
    m_title = new ElidedLabel(this);
    m_title->setObjectName(titleObjectName);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_subtitle = new ElidedLabel(this);
    m_subtitle->setObjectName(subtitleObjectName);
    m_subtitle->setForegroundRole(QPalette::PlaceholderText);
    // A verdict is read whole: it wraps to a second line where the pane is narrow (the tooltip has it all).
    m_title->setMaximumLines(2);
    m_subtitle->setMaximumLines(2);
    lines->addWidget(m_title);
    lines->addWidget(m_subtitle);
    layout->addWidget(m_glyph, 0, Qt::AlignTop);
    layout->addLayout(lines, 1);
}

} // namespace tf::ui
