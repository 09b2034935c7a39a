#include "ui/services/englishplurals.h"

#include <QRegularExpression>

namespace tf::ui {

QString EnglishPlurals::pluralize(const QString &text, int n)
{
    static const QRegularExpression marker(QStringLiteral("(\\w)\\((s|es|ies)\\)"));
    QString out;
    qsizetype from = 0;
    for (auto it = marker.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += QStringView(text).mid(from, m.capturedStart() - from);
        out += m.captured(1);
        if (m.captured(2) == QLatin1String("ies"))
            out += n == 1 ? QStringLiteral("y") : QStringLiteral("ies");
        else if (n != 1)
            out += m.captured(2);
        from = m.capturedEnd();
    }
    out += QStringView(text).mid(from);
    return out;
}

QString EnglishPlurals::translate(const char *, const char *sourceText, const char *, int n) const
{
    // Only plural messages: anything else is left to the next translator or the source text itself.
    if (n < 0 || !sourceText)
        return {};
    const QString source = QString::fromUtf8(sourceText);
    const QString result = pluralize(source, n);
    return result == source ? QString() : result;
}

} // namespace tf::ui
