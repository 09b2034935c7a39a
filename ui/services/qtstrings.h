#pragma once

#include <QList>
#include <QString>

#include <string>
#include <string_view>

// The one seam where the core's text becomes QString. Core strings are WTF-8 (UTF-8 that may hold a lone surrogate
// as ED A0..BF xx) or UTF-16 (std::u16string). A lone surrogate is shown as U+FFFD, one UTF-16 unit for one unit,
// so every offset the core reports (spans, clip positions) stays valid in the QString; views that care mark those
// positions with loneSurrogates() and say what was there. Nothing is ever dropped.
namespace tf::ui {

QString toQString(std::string_view wtf8);
QString toQString(std::u16string_view utf16);

// Positions (UTF-16 units) and code units of the lone surrogates in a core string.
struct LoneSurrogate
{
    qsizetype position = 0;
    char16_t unit = 0;
};
QList<LoneSurrogate> loneSurrogates(std::u16string_view utf16);
QList<LoneSurrogate> loneSurrogates(std::string_view wtf8);

// "U+D83D"
QString codeUnitName(char16_t unit);

// QToolTip renders anything that looks like markup as rich text, so text that may come from a recording goes
// through here: escaped, newlines kept.
QString toolTipText(const QString &plain);

// `text` on one line (runs of whitespace, newlines included, folded to one space), elided to `maxChars` with an
// ellipsis.
QString previewLine(const QString &text, qsizetype maxChars = 160);

// Locale-aware "1,234".
QString formatCount(double value);
QString formatCount(std::size_t value);

// Display names are plain text; menus treat & as a mnemonic.
QString escapeMnemonic(QString text);

} // namespace tf::ui
