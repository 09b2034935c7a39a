#include "ui/services/qtstrings.h"

#include "core/text/utf.h"

#include <QLocale>

namespace tf::ui {

QString toQString(std::u16string_view utf16)
{
    QString out(reinterpret_cast<const QChar *>(utf16.data()), qsizetype(utf16.size()));
    // A pair is kept; a surrogate without its partner becomes U+FFFD in place (same length, same offsets).
    QChar *data = out.data();
    const qsizetype n = out.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t u = data[i].unicode();
        if (text::isHighSurrogate(u) && i + 1 < n && text::isLowSurrogate(data[i + 1].unicode())) {
            ++i;
            continue;
        }
        if (text::isHighSurrogate(u) || text::isLowSurrogate(u))
            data[i] = QChar::ReplacementCharacter;
    }
    return out;
}

QString toQString(std::string_view wtf8)
{
    if (!text::hasLoneSurrogate(wtf8))
        return QString::fromUtf8(wtf8.data(), qsizetype(wtf8.size()));
    return toQString(std::u16string_view(text::toUtf16(wtf8)));
}

QList<LoneSurrogate> loneSurrogates(std::u16string_view utf16)
{
    QList<LoneSurrogate> out;
    for (std::size_t i = 0; i < utf16.size(); ++i) {
        const char16_t u = utf16[i];
        if (text::isHighSurrogate(u) && i + 1 < utf16.size() && text::isLowSurrogate(utf16[i + 1])) {
            ++i;
            continue;
        }
        if (text::isHighSurrogate(u) || text::isLowSurrogate(u))
            out.append({qsizetype(i), u});
    }
    return out;
}

QList<LoneSurrogate> loneSurrogates(std::string_view wtf8)
{
    if (!text::hasLoneSurrogate(wtf8))
        return {};
    return loneSurrogates(std::u16string_view(text::toUtf16(wtf8)));
}

QString codeUnitName(char16_t unit)
{
    return QStringLiteral("U+") + QString::number(uint(unit), 16).toUpper().rightJustified(4, QLatin1Char('0'));
}

QString toolTipText(const QString &plain)
{
    if (plain.isEmpty())
        return {};
    return QStringLiteral("<p style='white-space:pre-wrap'>") + plain.toHtmlEscaped() + QStringLiteral("</p>");
}

QString previewLine(const QString &text, qsizetype maxChars)
{
    QString out;
    out.reserve(qMin(text.size(), maxChars + 1));
    bool space = false;
    for (const QChar c : text) {
        if (out.size() > maxChars)
            break;
        if (c.isSpace()) {
            space = !out.isEmpty();
            continue;
        }
        if (space)
            out += QLatin1Char(' ');
        space = false;
        out += c;
    }
    if (out.size() > maxChars) {
        out.truncate(maxChars);
        out += QChar(0x2026);
    }
    return out;
}

QString formatCount(double value)
{
    return QLocale().toString(value, 'f', 0);
}

QString formatCount(std::size_t value)
{
    return QLocale().toString(qulonglong(value));
}

QString escapeMnemonic(QString text)
{
    return text.replace(QLatin1Char('&'), QStringLiteral("&&"));
}

} // namespace tf::ui
