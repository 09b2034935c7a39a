#include "ui/widgets/ledgerdelegate.h"

#include "ui/models/ledgermodel.h"
#include "ui/widgets/chippainter.h"
#include "ui/widgets/theme.h"

#include <QApplication>
#include <QPainter>

namespace tf::ui {

using theme::Tone;

namespace {

QList<Chip> chipsFor(int marks)
{
    QList<Chip> chips;
    const QStringList names = LedgerModel::markNames(marks);
    int i = 0;
    const auto next = [&] { return names.value(i++); };
    if (marks & LedgerModel::NewMark)
        chips.append({next(), Tone::Accent, false});
    if (marks & LedgerModel::ConflictMark)
        chips.append({next(), Tone::Bad, false});
    if (marks & LedgerModel::ContingentMark)
        chips.append({next(), Tone::Warn, false});
    if (marks & LedgerModel::UnsettledMark)
        chips.append({next(), Tone::Warn, true});
    if (marks & LedgerModel::SupersededMark)
        chips.append({next(), Tone::Neutral, true});
    if (marks & LedgerModel::MalformedMark)
        chips.append({next(), Tone::Bad, true});
    if (marks & LedgerModel::UnknownKindMark)
        chips.append({next(), Tone::Neutral, true});
    return chips;
}

} // namespace

void LedgerDelegate::initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const
{
    ItemDelegate::initStyleOption(option, index);
    const int marks = index.data(LedgerModel::MarksRole).toInt();
    if (marks & LedgerModel::NewMark)
        option->backgroundBrush = theme::tint(Tone::Accent, option->palette, 0.10);
    if (marks & (LedgerModel::SupersededMark | LedgerModel::UnknownKindMark))
        option->palette.setColor(QPalette::Text, theme::libraryText(option->palette));
    if (index.column() == LedgerModel::MarksColumn)
        option->text.clear();
}

void LedgerDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    ItemDelegate::paint(painter, option, index);
    const int marks = index.data(LedgerModel::MarksRole).toInt();
    if (index.column() == 0 && (marks & LedgerModel::NewMark))
        painter->fillRect(QRect(option.rect.left(), option.rect.top(), 3, option.rect.height()),
                          theme::strong(Tone::Accent, option.palette));
    if (index.column() != LedgerModel::MarksColumn || !marks)
        return;
    painter->save();
    painter->setClipRect(option.rect);
    qreal x = option.rect.left() + 4;
    for (const Chip &chip : chipsFor(marks))
        x += paintChip(painter, x, option.rect, chip, option.palette, option.font) + 3;
    painter->restore();
}

QSize LedgerDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    if (index.column() == LedgerModel::MarksColumn) {
        qreal w = 8;
        for (const Chip &chip : chipsFor(index.data(LedgerModel::MarksRole).toInt()))
            w += chipWidth(chip, option.font) + 3;
        s.setWidth(int(w));
    }
    return s;
}

} // namespace tf::ui
