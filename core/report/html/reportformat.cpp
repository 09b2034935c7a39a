#include "reportformat.h"

#include "core/json/jsnumber.h"
#include "core/text/counted.h"
#include "core/text/utf.h"

#include <cmath>
#include <cstdio>
#include <ctime>

namespace tf::report::html {

using json::Value;

std::string grouped(double v)
{
    if (!std::isfinite(v) || v != std::floor(v) || std::fabs(v) >= 1e15)
        return json::jsNumberToString(v);
    std::string digits = std::to_string(static_cast<long long>(std::fabs(v)));
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return v < 0 ? "-" + out : out;
}

std::string optCount(const std::optional<double> &v)
{
    return v ? grouped(*v) : "\u2013";
}

std::string duration(double ms)
{
    if (!std::isfinite(ms) || ms < 0)
        return "\u2013";
    if (ms < 1000)
        return json::jsNumberToString(std::round(ms)) + " ms";
    const double s = ms / 1000;
    if (s < 90) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f s", s);
        return buf;
    }
    const long long total = static_cast<long long>(std::llround(s));
    const long long h = total / 3600, m = (total % 3600) / 60, sec = total % 60;
    char buf[48];
    if (h)
        std::snprintf(buf, sizeof buf, "%lld h %lld min", h, m);
    else
        std::snprintf(buf, sizeof buf, "%lld min %lld s", m, sec);
    return buf;
}

std::string utcTime(double ms, bool withDate)
{
    if (!std::isfinite(ms) || ms < 0 || ms > 253402300799000.0)
        return "\u2013";
    const std::time_t t = static_cast<std::time_t>(ms / 1000);
    std::tm utc{};
    gmtime_r(&t, &utc);
    char buf[40];
    std::strftime(buf, sizeof buf, withDate ? "%Y-%m-%d %H:%M:%S UTC" : "%H:%M:%S", &utc);
    return buf;
}

std::string excerpt(std::string_view wtf8, std::size_t units, std::size_t *cut)
{
    std::u16string u = text::toUtf16(wtf8);
    *cut = 0;
    if (u.size() <= units)
        return std::string(wtf8);
    std::size_t end = units;
    if (end > 0 && text::isHighSurrogate(u[end - 1]) && end < u.size() && text::isLowSurrogate(u[end]))
        --end;
    *cut = u.size() - end;
    return text::toWtf8(std::u16string_view(u).substr(0, end));
}

std::string stringMember(const Value &o, std::string_view key)
{
    const Value *v = o.isObject() ? o.findString(key) : nullptr;
    return v ? v->decodedString() : std::string();
}

std::string markerList(const std::optional<Value> &markers)
{
    if (!markers)
        return "";
    std::string out;
    for (const Value &m : *markers) {
        if (!out.empty())
            out += ", ";
        const Value *index = m.isObject() ? m.findNumber("boundaryIndex") : nullptr;
        out += stringMember(m, "field") + "@" + (index ? json::jsNumberToString(index->asNumber()) : "?") + " " +
               stringMember(m, "ttl");
    }
    return out.empty() ? "none" : out;
}

std::string callAnchor(std::size_t ordinal)
{
    return "call-" + std::to_string(ordinal + 1);
}

void callLink(HtmlWriter &h, std::size_t ordinal)
{
    h.raw("<a href=\"#").raw(callAnchor(ordinal)).raw("\">call ").num(ordinal + 1);
    h.raw("</a>");
}

void foldedText(HtmlWriter &h, std::string_view wtf8, std::size_t foldAboveUnits, const char *what)
{
    const std::size_t units = text::lengthU16(wtf8);
    if (units <= foldAboveUnits) {
        h.raw("<pre>").text(wtf8).raw("</pre>");
        return;
    }
    h.raw("<details><summary>").raw(what).raw(" \u00B7 ").raw(counted(units, "unit", "units")).raw("</summary><pre>");
    h.text(wtf8).raw("</pre></details>");
}

void sectionHeading(HtmlWriter &h, const char *id, int number, const char *title)
{
    h.raw("<h2 id=\"")
        .raw(id)
        .raw("\"><span class=\"secno\">")
        .num(std::size_t(number))
        .raw("</span> ") // a real space: Qt's rich-text engine ignores the span's margin, and text extraction needs it
        .raw(title)
        .raw("</h2>");
}

std::string counted(std::size_t n, std::string_view one, std::string_view many)
{
    return grouped(double(n)) + " " + std::string(text::nounFor(n, one, many));
}

} // namespace tf::report::html
