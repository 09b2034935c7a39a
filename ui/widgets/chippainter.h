#pragma once

#include "ui/widgets/theme.h"

#include <QFont>
#include <QPalette>
#include <QRectF>
#include <QString>

class QPainter;

namespace tf::ui {

// Small rounded labels ("new", "collapsed · noise", gap names) drawn in delegates and bars; plain text only.
struct Chip
{
    QString text;
    theme::Tone tone = theme::Tone::Neutral;
    bool outlined = false; // dashed outline instead of a fill (states that are absences: undeclared, not on record)
};

qreal chipWidth(const Chip &chip, const QFont &font);
// Draws the chip with its left edge at `x`, vertically centred in `band`; returns its width.
qreal paintChip(QPainter *painter, qreal x, const QRectF &band, const Chip &chip, const QPalette &palette,
                const QFont &font);
QFont chipFont(const QFont &base);

} // namespace tf::ui
