#pragma once

#include <QColor>
#include <QPalette>

// Colours for states, derived from the current palette so they read in the light and the dark system palette. The
// state colours are the Okabe-Ito set (distinguishable with the common colour-vision deficiencies); every state is
// also told apart by a shape (glyphs.h) or a word, never by colour alone.
namespace tf::ui::theme {

bool isDark(const QPalette &palette);
QColor mix(const QColor &a, const QColor &b, qreal t); // t = 0: a, t = 1: b

enum class Tone
{
    Good,    // verified, prefix reusable (bluish green)
    Info,    // reconstructed, model words (blue)
    Bad,     // damaged, cache miss (vermillion)
    Warn,    // collapsed, overflow (orange)
    Neutral, // not on record, unknown (grey)
    Accent,  // ledger changes, rows filed at this call (reddish purple)
};

// A saturated colour for glyphs, lines and bars.
QColor strong(Tone tone, const QPalette &palette);
// A quiet fill for row and span backgrounds, blended into the base colour.
QColor tint(Tone tone, const QPalette &palette, qreal amount = 0.16);
// Text drawn on a tint(tone) background.
QColor textOn(Tone tone, const QPalette &palette);

// The library's own wording in the findings piece and the model's declared words.
QColor libraryText(const QPalette &palette);
QColor modelText(const QPalette &palette);
QColor modelBackground(const QPalette &palette);

QColor mutedText(const QPalette &palette);
// The background of a line standing for lines folded away (a click shows them).
QColor foldBackground(const QPalette &palette);
QColor gridLine(const QPalette &palette);

} // namespace tf::ui::theme
