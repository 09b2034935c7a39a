#pragma once

#include <QIcon>
#include <QPalette>
#include <QRectF>

class QPainter;

// Small state glyphs drawn with QPainter, so they are sharp at any device pixel ratio and follow the palette.
// Each state has its own shape as well as its own colour (colour-blind friendly):
//   cache:  reusable = filled circle with a check; rewritten = filled circle with a cross; unknown = dashed ring "?"
//   badges: verified = filled shield with a check; reconstructed = outlined shield with "="; damaged = triangle "!";
//           not on record = dashed empty shield
//   marks:  ledger changed = diamond; collapsed = ticket; undeclared = dashed square; miss = down triangle
//   runs:   tool error = filled octagon "!"; never returned / no response = dashed ring with an ellipsis
namespace tf::ui {

enum class Glyph
{
    CacheReusable,
    CacheRewritten,
    CacheUnknown,
    Verified,
    Reconstructed,
    Damaged,
    NotOnRecord,
    LedgerChanged,
    Collapsed,
    Undeclared,
    ToolError,
    NeverReturned,
    Miss, // the last: glyphIcon() keeps one icon per glyph up to it
};

void paintGlyph(QPainter *painter, const QRectF &rect, Glyph glyph, const QPalette &palette);
// An icon that paints the glyph at whatever size and scale it is asked for, with the application palette.
QIcon glyphIcon(Glyph glyph);

} // namespace tf::ui
