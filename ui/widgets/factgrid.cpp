#include "ui/widgets/factgrid.h"

#include "ui/widgets/selectablelabel.h"

#include <QGridLayout>
#include <QLabel>

#include <algorithm>

namespace tf::ui {

FactGrid::FactGrid(QWidget *parent)
    : QWidget(parent)
    , m_grid(new QGridLayout(this))
{
    m_grid->setContentsMargins(0, 4, 0, 0);
    m_grid->setHorizontalSpacing(10);
    m_grid->setVerticalSpacing(2);
}

SelectableLabel *FactGrid::addFact(const QString &caption, bool wide)
{
    auto *c = new QLabel(caption, this);
    c->setTextFormat(Qt::PlainText);
    c->setForegroundRole(QPalette::PlaceholderText);
    c->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    auto *v = new SelectableLabel(this);
    v->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    v->setWordWrap(true);
    m_facts.append({c, v, wide});
    m_placed = false;
    refit();
    return v;
}

int FactGrid::textWidth(const QLabel *label)
{
    return label->fontMetrics().horizontalAdvance(label->text());
}

QList<bool> FactGrid::pairing(int width) const
{
    // Facts pair up in order (a wide one stands alone and starts the pairing again). The grid's columns are shared by
    // every paired row, so a row whose values do not fit beside each other is split until the rest fit.
    QList<bool> paired(m_facts.size(), false); // paired[i]: fact i has fact i + 1 beside it
    for (qsizetype i = 0; i + 1 < m_facts.size(); ++i) {
        if (!m_facts[i].wide && !m_facts[i + 1].wide) {
            paired[i] = true;
            ++i;
        }
    }
    int caption = 0;
    QList<int> value; // each value's text width, measured once
    for (const Fact &f : m_facts) {
        caption = std::max(caption, textWidth(f.caption));
        value.append(textWidth(f.value));
    }
    const QMargins m = m_grid->contentsMargins();
    const int fixed = m.left() + m.right() + 2 * caption + 3 * m_grid->horizontalSpacing() + 4;
    for (;;) {
        int left = 0, right = 0;
        qsizetype widest = -1;
        for (qsizetype i = 0; i < m_facts.size(); ++i) {
            if (!paired[i])
                continue;
            left = std::max(left, value[i]);
            right = std::max(right, value[i + 1]);
            if (widest < 0 || value[i] + value[i + 1] > value[widest] + value[widest + 1])
                widest = i;
        }
        if (widest < 0 || fixed + left + right <= width)
            return paired;
        paired[widest] = false;
    }
}

bool FactGrid::sideBySide(const QLabel *value) const
{
    for (qsizetype i = 0; i < m_facts.size() && i < m_paired.size(); ++i)
        if (m_facts[i].value == value)
            return m_paired[i] || (i > 0 && m_paired[i - 1]);
    return false;
}

void FactGrid::refit()
{
    place(pairing(width()));
}

void FactGrid::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    refit();
}

void FactGrid::place(const QList<bool> &paired)
{
    if (m_placed && paired == m_paired)
        return;
    m_paired = paired;
    m_placed = true;
    for (const Fact &f : std::as_const(m_facts)) {
        m_grid->removeWidget(f.caption);
        m_grid->removeWidget(f.value);
    }
    int row = 0;
    for (qsizetype i = 0; i < m_facts.size(); ++i, ++row) {
        m_grid->addWidget(m_facts[i].caption, row, 0);
        if (!paired[i]) {
            m_grid->addWidget(m_facts[i].value, row, 1, 1, 3);
            continue;
        }
        m_grid->addWidget(m_facts[i].value, row, 1);
        m_grid->addWidget(m_facts[i + 1].caption, row, 2);
        m_grid->addWidget(m_facts[i + 1].value, row, 3);
        ++i;
    }
    m_grid->setColumnStretch(1, 1);
    m_grid->setColumnStretch(3, 1);
}

} // namespace tf::ui
