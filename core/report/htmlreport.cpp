#include "htmlreport.h"

#include "backtrack.h"
#include "hitrate.h"
#include "htmlescape.h"
#include "tokentotals.h"

#include "core/findings/ledgerfold.h"
#include "core/findings/ledgerrowview.h"
#include "core/findings/piecediff.h"
#include "core/json/jsnumber.h"
#include "core/json/writer.h"
#include "core/recording/callview.h"
#include "core/text/utf.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <set>

namespace tf::report {

namespace {

using json::Value;
using recording::Badge;
using recording::CallView;

// The report's stylesheet. Written for browsers first; everything it relies on for meaning (tables, colours, bold,
// monospace) is also understood by Qt's rich-text engine, so the PDF keeps the structure when the rest is ignored.
const char *kStyle = R"CSS(
:root { color-scheme: light; }
* { box-sizing: border-box; }
html { background: #eef1f5; }
body { margin: 0; color: #1f2933; background: #eef1f5;
  font-family: "Inter", "Segoe UI", "Helvetica Neue", Arial, "DejaVu Sans", sans-serif; font-size: 14px; line-height: 1.5; }
.page { max-width: 1160px; margin: 24px auto; padding: 36px 44px 48px; background: #ffffff;
  border: 1px solid #dde3ea; box-shadow: 0 1px 3px rgba(16, 42, 67, 0.08); }
a { color: #1d4e89; text-decoration: none; }
a:hover { text-decoration: underline; }
.eyebrow { font-size: 11px; letter-spacing: 0.16em; text-transform: uppercase; color: #52606d; font-weight: 700; }
h1 { font-size: 27px; line-height: 1.25; margin: 8px 0 6px; color: #102a43; font-weight: 700; overflow-wrap: anywhere; }
h2 { font-size: 19px; color: #102a43; border-bottom: 1px solid #d9e2ec; padding-bottom: 6px; margin: 40px 0 14px;
  font-weight: 700; }
h2 .secno { color: #829ab1; font-weight: 600; margin-right: 6px; }
h3 { font-size: 16px; margin: 0; color: #102a43; font-weight: 700; }
h4 { font-size: 12px; text-transform: uppercase; letter-spacing: 0.08em; color: #486581; margin: 18px 0 6px;
  font-weight: 700; }
p { margin: 6px 0 10px; }
.sub { color: #52606d; margin: 0; overflow-wrap: anywhere; }
.muted { color: #7b8794; }
.small { font-size: 12px; }
table { border-collapse: collapse; width: 100%; margin: 6px 0 14px; }
th, td { text-align: left; vertical-align: top; padding: 5px 8px; border-bottom: 1px solid #e4e7eb; }
thead th { font-size: 11px; text-transform: uppercase; letter-spacing: 0.06em; color: #486581; background: #f3f6f9;
  border-bottom: 1px solid #cbd2d9; font-weight: 700; white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.wrap { overflow-wrap: anywhere; }
code, .mono, pre { font-family: "JetBrains Mono", "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; }
code { overflow-wrap: anywhere; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
table.kv th { width: 26%; font-weight: 600; color: #486581; background: transparent; font-size: 13px;
  text-transform: none; letter-spacing: 0; border-bottom: 1px solid #e4e7eb; }
table.kv td { overflow-wrap: anywhere; }
table.figures { border-collapse: separate; border-spacing: 10px 0; margin: 12px -10px 8px; width: calc(100% + 20px); }
table.figures td { width: 25%; border: 1px solid #d9e2ec; background: #f8fafc; padding: 12px 14px; }
.fig-label { font-size: 11px; text-transform: uppercase; letter-spacing: 0.08em; color: #627d98; font-weight: 700; }
.fig-value { font-size: 23px; font-weight: 700; color: #102a43; line-height: 1.3; }
.fig-note { font-size: 12px; color: #627d98; }
.chip { display: inline-block; padding: 0 7px; border-radius: 9px; font-size: 11px; font-weight: 700;
  border: 1px solid #d5d9df; white-space: nowrap; line-height: 18px; }
.b-verified { color: #1d6b3a; background: #e3f4e8; border-color: #b7e0c3; }
.b-reconstructed { color: #1f4e8c; background: #e6eefa; border-color: #c2d5f0; }
.b-damaged { color: #a61b1b; background: #fde8e8; border-color: #f5b5b5; }
.b-not-on-record { color: #4b5563; background: #eef0f3; border-color: #d5d9df; }
.b-redacted { color: #5b3d8a; background: #f1ebfa; border-color: #d6c6ee; }
.v-hit { color: #1d6b3a; background: #e3f4e8; border-color: #b7e0c3; }
.v-write-only { color: #1f4e8c; background: #e6eefa; border-color: #c2d5f0; }
.v-miss { color: #8a4b00; background: #fff3dc; border-color: #f3d19c; }
.v-unmeasured { color: #4b5563; background: #eef0f3; border-color: #d5d9df; }
.k-excuse { color: #1f4e8c; background: #e6eefa; border-color: #c2d5f0; }
.k-missing { color: #8a4b00; background: #fff3dc; border-color: #f3d19c; }
.k-caveat { color: #5b3e96; background: #f0ebfa; border-color: #d4c6f0; }
.k-note { color: #4b5563; background: #eef0f3; border-color: #d5d9df; }
.s-fact { color: #1d6b3a; background: #e3f4e8; border-color: #b7e0c3; }
.s-open { color: #1f4e8c; background: #e6eefa; border-color: #c2d5f0; }
.s-noise { color: #4b5563; background: #eef0f3; border-color: #d5d9df; }
.s-ruled-out { color: #8a4b00; background: #fff3dc; border-color: #f3d19c; }
.yes { color: #1d6b3a; font-weight: 600; }
.no { color: #a61b1b; font-weight: 600; }
.unknown { color: #7b8794; }
table.timeline td, table.timeline th { padding: 5px 6px; font-size: 13px; }
table.timeline tr.damaged td { background: #fff5f5; }
table.timeline tr.turn td { background: #f0f4f8; color: #243b53; border-top: 2px solid #bcccdc; }
table.rows tr.damaged td, table.rows tr.damaged th { background: #fff5f5; }
table.transcript th { width: 8em; text-align: left; vertical-align: top; }
section.call { margin: 28px 0 0; }
table.cover { margin: 0 0 8px; }
table.cover td { border-bottom: 3px solid #1e3a5f; padding: 0 0 18px; }
table.toc { margin: 16px 0 0; background: #f8fafc; border: 1px solid #e4e7eb; font-size: 13px; }
table.toc td { border: none; padding: 3px 16px; }
table.toc tr:first-child td { padding-top: 12px; }
table.toc tr:last-child td { padding-bottom: 12px; }
table.verdict { margin: 14px 0; }
table.verdict td { border: 1px solid #d9e2ec; border-left: 5px solid #1e3a5f; background: #f8fafc; padding: 12px 16px; }
table.verdict.good td { border-left-color: #2f855a; }
table.verdict.bad td { border-left-color: #c53030; background: #fff8f8; }
table.verdict.warn td { border-left-color: #c27c0e; background: #fffbf2; }
details > summary { cursor: pointer; color: #486581; font-size: 12px; }
table.verdict p { margin: 3px 0; }
table.callhead { margin: 0; }
table.callhead td { background: #f3f6f9; border: 1px solid #d9e2ec; border-left: 5px solid #1e3a5f; padding: 10px 14px; }
table.callhead.damaged td { border-left-color: #c53030; background: #fff8f8; }
table.callhead .sub { font-size: 12px; }
table.note { margin: 8px 0; }
table.note td { border: 1px solid #f0d9a8; border-left: 5px solid #d69e2e; background: #fffaf0; padding: 8px 12px; }
table.note.orphan td { border-color: #f5c2c2; border-left-color: #c53030; background: #fff5f5; }
.note .meta { font-size: 12px; color: #7b6a43; margin-bottom: 3px; }
.note pre { font-family: inherit; font-size: 13px; }
table.answer { margin: 10px 0 14px; }
table.answer td { border: none; border-left: 5px solid #1e3a5f; background: #f3f6f9; padding: 12px 16px; font-size: 15px;
  white-space: pre-wrap; overflow-wrap: anywhere; }
table.vhead { margin: 14px 0 0; }
table.vhead td { background: #f3f6f9; border: 1px solid #d9e2ec; padding: 8px 12px; }
table.vhead .v { font-family: "JetBrains Mono", "DejaVu Sans Mono", Menlo, Consolas, monospace; font-weight: 700;
  background: #fff4cc; padding: 0 4px; }
table.kv.value { border: 1px solid #d9e2ec; border-top: none; margin-top: 0; }
table.kv.value th { width: 20%; padding-left: 12px; }
.callbody { padding: 2px 4px 0 4px; }
table.piece { border: 1px solid #d9e2ec; background: #fbfcfd; margin: 4px 0 8px; }
table.piece td { border: none; padding: 1px 8px; font-family: "JetBrains Mono", "DejaVu Sans Mono", Menlo, Consolas, monospace;
  font-size: 12px; white-space: pre-wrap; overflow-wrap: anywhere; line-height: 1.45; }
table.piece td.g { width: 92px; color: #829ab1; text-align: right; white-space: nowrap; border-right: 1px solid #e4e7eb;
  font-size: 11px; background: #f3f6f9; }
table.piece td.t { color: #334e68; }
code.pl { font-size: 12px; overflow-wrap: anywhere; }
table.piece tr.h td.t { font-weight: 700; color: #102a43; padding-top: 6px; }
table.piece tr.hdr td.t { color: #829ab1; font-style: italic; }
table.piece tr.more td.t { color: #8a4b00; font-style: italic; }
table.piece tr.ask td.t { color: #486581; }
.mdl { background: #fff4cc; color: #3d2e00; }
.lib { color: #334e68; }
.ovf { color: #a61b1b; font-weight: 700; }
.clip { color: #a61b1b; font-weight: 700; }
.legend span { margin-right: 14px; }
ul.statements { margin: 8px 0 16px; padding-left: 20px; }
ul.statements li { margin: 3px 0; }
pre.json, pre.result { background: #f8fafc; border: 1px solid #e4e7eb; padding: 7px 10px; }
.footer { margin-top: 44px; padding-top: 12px; border-top: 1px solid #d9e2ec; font-size: 12px; color: #7b8794; }
@page { size: A4; margin: 14mm 12mm; }
@media print {
  html, body { background: #ffffff; }
  .page { max-width: none; margin: 0; padding: 0; border: none; box-shadow: none; }
  a { color: inherit; }
  h2, h4 { break-after: avoid; }
  tr, table.callhead, table.note, table.verdict, table.vhead { break-inside: avoid; }
}
)CSS";

// The same document for Qt's rich-text engine (the PDF): point sizes, the one font family every Debian desktop has,
// no page background, and only properties QTextDocument implements (it ignores the rest, but px sizes and inherited
// body fonts lay out differently there, so the print stylesheet states every size it needs).
const char *kPrintStyle = R"CSS(
body { font-family: "DejaVu Sans"; font-size: 8pt; color: #1f2933; }
a { color: #1d4e89; text-decoration: none; }
p { margin-top: 3px; margin-bottom: 5px; }
.eyebrow { font-size: 6.5pt; color: #52606d; font-weight: bold; text-transform: uppercase; }
h1 { font-size: 17pt; color: #102a43; margin-top: 4px; margin-bottom: 3px; }
h2 { font-size: 12.5pt; color: #102a43; margin-top: 19px; margin-bottom: 7px; }
h2 .secno { color: #829ab1; }
h3 { font-size: 10.5pt; color: #102a43; margin-top: 0; margin-bottom: 1px; }
h4 { font-size: 6.5pt; color: #486581; text-transform: uppercase; font-weight: bold; margin-top: 12px; margin-bottom: 3px; }
.sub { color: #52606d; margin-top: 0; margin-bottom: 0; }
.muted { color: #7b8794; }
.small { font-size: 7pt; }
table { border-collapse: collapse; margin-top: 3px; margin-bottom: 8px; }
th { text-align: left; vertical-align: top; color: #486581; background-color: #f3f6f9; font-size: 6.5pt; font-weight: bold;
  text-transform: uppercase; border-bottom: 1px solid #cbd2d9; }
td { text-align: left; vertical-align: top; border-bottom: 1px solid #e4e7eb; font-size: 8pt; }
td.num, th.num { text-align: right; }
code, .mono, pre { font-family: "DejaVu Sans Mono"; font-size: 7pt; }
pre { white-space: pre-wrap; margin-top: 0; margin-bottom: 0; }
table.kv th { background-color: #ffffff; color: #486581; font-size: 7.5pt; text-transform: none; border-bottom: 1px solid #e4e7eb; }
table.figures td { background-color: #f8fafc; border: 1px solid #d9e2ec; }
.fig-label { font-size: 6pt; color: #627d98; font-weight: bold; text-transform: uppercase; }
.fig-value { font-size: 12pt; color: #102a43; font-weight: bold; }
.fig-note { font-size: 6.5pt; color: #627d98; }
.chip { font-size: 6.5pt; font-weight: bold; }
.b-verified, .v-hit, .s-fact { color: #1d6b3a; background-color: #e3f4e8; }
.b-reconstructed, .v-write-only, .k-excuse, .s-open { color: #1f4e8c; background-color: #e6eefa; }
.b-damaged { color: #a61b1b; background-color: #fde8e8; }
.b-not-on-record, .v-unmeasured, .k-note, .s-noise { color: #4b5563; background-color: #eef0f3; }
.b-redacted { color: #5b3d8a; background-color: #f1ebfa; }
.v-miss, .k-missing, .s-ruled-out { color: #8a4b00; background-color: #fff3dc; }
.k-caveat { color: #5b3e96; background-color: #f0ebfa; }
.yes { color: #1d6b3a; font-weight: bold; }
.no { color: #a61b1b; font-weight: bold; }
.unknown { color: #7b8794; }
table.timeline td { font-size: 7pt; }
table.timeline tr.damaged td { background-color: #fff5f5; }
table.timeline tr.turn td { background-color: #f0f4f8; color: #243b53; }
table.rows tr.damaged td { background-color: #fff5f5; }
table.transcript th { width: 8em; }
table.cover td { border-bottom: 2pt solid #1e3a5f; }
table.toc td { background-color: #f8fafc; border-bottom: 0px; font-size: 7.5pt; }
table.verdict td { background-color: #f8fafc; border: 1px solid #d9e2ec; border-left: 3pt solid #1e3a5f; }
table.verdict.good td { border-left: 3pt solid #2f855a; }
table.verdict.bad td { border-left: 3pt solid #c53030; background-color: #fff8f8; }
table.verdict.warn td { border-left: 3pt solid #c27c0e; background-color: #fffbf2; }
table.callhead td { background-color: #f3f6f9; border: 1px solid #d9e2ec; border-left: 3pt solid #1e3a5f; }
table.callhead.damaged td { border-left: 3pt solid #c53030; background-color: #fff8f8; }
table.note td { background-color: #fffaf0; border: 1px solid #f0d9a8; border-left: 3pt solid #d69e2e; }
table.note.orphan td { background-color: #fff5f5; border-left: 3pt solid #c53030; }
.note .meta { font-size: 7pt; color: #7b6a43; }
.note pre { font-family: "DejaVu Sans"; font-size: 8pt; }
table.answer td { background-color: #f3f6f9; border-left: 3pt solid #1e3a5f; border-bottom: 0px; font-size: 9.5pt;
  white-space: pre-wrap; }
table.vhead td { background-color: #f3f6f9; border: 1px solid #d9e2ec; }
table.vhead .v { font-family: "DejaVu Sans Mono"; font-weight: bold; background-color: #fff4cc; }
table.piece td { border-bottom: 0px; font-family: "DejaVu Sans Mono"; font-size: 6.5pt; white-space: pre-wrap; }
table.piece td.g { color: #829ab1; background-color: #f3f6f9; text-align: right; font-size: 6pt; }
table.piece td.t { color: #334e68; }
code.pl { font-family: "DejaVu Sans Mono"; font-size: 6.5pt; }
table.piece tr.h td.t { font-weight: bold; color: #102a43; }
table.piece tr.hdr td.t { color: #829ab1; font-style: italic; }
table.piece tr.more td.t { color: #8a4b00; font-style: italic; }
.mdl { background-color: #fff4cc; color: #3d2e00; font-family: "DejaVu Sans Mono"; font-size: 6.5pt; }
.lib { color: #334e68; font-family: "DejaVu Sans Mono"; font-size: 6.5pt; }
.ovf { color: #a61b1b; font-weight: bold; font-family: "DejaVu Sans Mono"; font-size: 6.5pt; }
.clip { color: #a61b1b; font-weight: bold; }
table.piece tr.sep td { font-size: 2pt; }
pre.json, pre.result { background-color: #f8fafc; }
.footer { font-size: 7pt; color: #7b8794; margin-top: 24px; }
)CSS";

// -- small formatting helpers --------------------------------------------------------------------------------------

class Html
{
public:
    Html &raw(std::string_view s)
    {
        m_out += s;
        return *this;
    }
    Html &text(std::string_view wtf8)
    {
        appendEscaped(m_out, wtf8);
        return *this;
    }
    Html &text16(std::u16string_view u)
    {
        m_out += escapeHtml(u);
        return *this;
    }
    Html &num(std::size_t n)
    {
        m_out += std::to_string(n);
        return *this;
    }
    std::string &str() { return m_out; }

private:
    std::string m_out;
};

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

const char *badgeLabel(Badge b)
{
    switch (b) {
    case Badge::Verified:
        return "Verified";
    case Badge::Reconstructed:
        return "Reconstructed";
    case Badge::Damaged:
        return "Damaged";
    case Badge::NotOnRecord:
        return "Not on record";
    case Badge::Redacted:
        return "Redacted";
    }
    return "Reconstructed";
}

const char *verdictLabel(recording::CacheVerdict v)
{
    switch (v) {
    case recording::CacheVerdict::Hit:
        return "hit";
    case recording::CacheVerdict::WriteOnly:
        return "write only";
    case recording::CacheVerdict::Miss:
        return "miss";
    case recording::CacheVerdict::Unmeasured:
        return "unmeasured";
    }
    return "unmeasured";
}

void badgeChip(Html &h, Badge b)
{
    h.raw("<span class=\"chip b-").raw(recording::badgeId(b)).raw("\">").raw(badgeLabel(b)).raw("</span>");
}

void verdictChip(Html &h, recording::CacheVerdict v)
{
    h.raw("<span class=\"chip v-").raw(recording::cacheVerdictId(v)).raw("\">").raw(verdictLabel(v)).raw("</span>");
}

void gapChip(Html &h, const recording::Gap &g)
{
    h.raw("<span class=\"chip k-").raw(recording::gapKindName(g.kind)).raw("\">").text(g.name).raw("</span>");
}

// A standing value is untrusted text; only the four known values pick a colour class.
void standingChip(Html &h, std::string_view standing)
{
    const char *cls = standing == "fact"        ? "s-fact"
                      : standing == "open"      ? "s-open"
                      : standing == "noise"     ? "s-noise"
                      : standing == "ruled-out" ? "s-ruled-out"
                                                : "k-note";
    h.raw("<span class=\"chip ").raw(cls).raw("\">").text(standing).raw("</span>");
}

void yesNo(Html &h, const std::optional<bool> &b, const char *yes = "yes", const char *no = "no")
{
    if (!b)
        h.raw("<span class=\"unknown\">unknown</span>");
    else if (*b)
        h.raw("<span class=\"yes\">").raw(yes).raw("</span>");
    else
        h.raw("<span class=\"no\">").raw(no).raw("</span>");
}

// At most `units` UTF-16 units of a WTF-8 string, never splitting a surrogate pair; `cut` receives what was left out.
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

void callLink(Html &h, const recording::Run &run, std::size_t ordinal)
{
    h.raw("<a href=\"#").raw(callAnchor(ordinal)).raw("\">call ").num(ordinal + 1);
    h.raw("</a>");
    (void)run;
}

// -- runs: outcome, responses, tool runs (spec/runs.md) -----------------------------------------------------------

const char *toolRunChip(const recording::ToolRun &t)
{
    if (t.error)
        return "<span class=\"chip b-damaged\">threw</span>";
    if (t.returned)
        return "<span class=\"chip b-verified\">returned</span>";
    return t.started ? "<span class=\"chip v-miss\">never returned</span>"
                     : "<span class=\"chip b-not-on-record\">not run</span>";
}

// A long text folded behind <details> (a browser opens it; Qt's engine shows the summary line and the text), always
// escaped.
void foldedText(Html &h, std::string_view wtf8, std::size_t foldAboveUnits, const char *what)
{
    const std::size_t units = text::lengthU16(wtf8);
    if (units <= foldAboveUnits) {
        h.raw("<pre>").text(wtf8).raw("</pre>");
        return;
    }
    h.raw("<details><summary>").raw(what).raw(" \u00B7 ").raw(grouped(double(units))).raw(" units</summary><pre>");
    h.text(wtf8).raw("</pre></details>");
}

void renderOutcome(Html &h, const recording::Run &run, const std::vector<recording::CallSummary> &calls)
{
    const recording::RunOutcome &o = run.outcome;
    const char *cls = o.status == recording::OutcomeStatus::Failed      ? "bad"
                      : o.status == recording::OutcomeStatus::Completed ? "plain"
                                                                        : "warn";
    h.raw("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"8\" class=\"verdict ")
        .raw(cls)
        .raw("\"><tr><td><p><b>");
    switch (o.status) {
    case recording::OutcomeStatus::Completed:
        h.raw("The run completed");
        break;
    case recording::OutcomeStatus::Failed:
        h.raw("The run failed");
        break;
    case recording::OutcomeStatus::Paused:
        h.raw("The run paused for a human");
        break;
    case recording::OutcomeStatus::Incomplete:
        h.raw("The recording stops mid-run");
        break;
    }
    if (o.call) {
        h.raw(" at ");
        callLink(h, run, *o.call);
    }
    h.raw("</b>");
    if (run.turns.size() > 1)
        h.raw(" (").num(run.turns.size()).raw(" turns)");
    h.raw(o.message ? ": " : ".");
    if (o.message)
        h.text(*o.message);
    h.raw("</p>");
    std::vector<std::size_t> failedAt;
    std::size_t threw = 0;
    for (const recording::CallSummary &c : calls)
        if (c.anyToolError()) {
            failedAt.push_back(c.ordinal);
            for (const auto &t : c.toolResults)
                threw += t.error;
        }
    if (threw) {
        h.raw("<p class=\"small\"><b>")
            .num(threw)
            .raw(threw == 1 ? " tool call threw" : " tool calls threw")
            .raw("</b> (");
        for (std::size_t i = 0; i < failedAt.size(); ++i) {
            if (i)
                h.raw(", ");
            callLink(h, run, failedAt[i]);
        }
        h.raw("); the model was sent the error text as the result.</p>");
    }
    for (const recording::RunLimit &l : run.limits) {
        h.raw("<p class=\"small\"><b>").text(l.kind).raw("</b>");
        if (l.call) {
            h.raw(" at ");
            callLink(h, run, *l.call);
        }
        h.raw(": ").text(l.message).raw("</p>");
    }
    h.raw("</td></tr></table>");
}

void renderResponse(Html &h, const recording::Run &run, const CallView &view, const HtmlReportOptions &options)
{
    h.raw("<h4>Response</h4>");
    const recording::RunOutcome &o = run.outcome;
    if (o.call == view.ordinal && o.message &&
        (o.status == recording::OutcomeStatus::Failed || o.status == recording::OutcomeStatus::Paused))
        h.raw("<p><span class=\"chip b-damaged\">")
            .raw(o.status == recording::OutcomeStatus::Failed ? "the run failed here" : "the run paused here")
            .raw("</span> ")
            .text(*o.message)
            .raw("</p>");
    for (const recording::RunLimit &l : run.limits)
        if (l.call == view.ordinal)
            h.raw("<p class=\"small\"><span class=\"chip v-miss\">")
                .text(l.kind)
                .raw("</span> ")
                .text(l.message)
                .raw("</p>");
    if (!view.response) {
        h.raw("<p><span class=\"unknown\">No response on record</span>: the call has an llm_start and no llm_end (the "
              "provider failed, or the recording was frozen mid-call).</p>");
        return;
    }
    const recording::Response &r = *view.response;
    h.raw("<p class=\"small\">stop reason <code>")
        .text(r.stopReason.value_or("not on record"))
        .raw("</code> \u00B7 ")
        .raw(r.durationMs ? duration(*r.durationMs) : "latency not on record")
        .raw(" \u00B7 in ")
        .raw(optCount(r.usage.input))
        .raw(" \u00B7 out ")
        .raw(optCount(r.usage.output));
    if (r.usage.measured())
        h.raw(" \u00B7 cache read ")
            .raw(optCount(r.usage.cacheRead))
            .raw(" \u00B7 write ")
            .raw(optCount(r.usage.cacheWrite));
    h.raw("</p>");
    if (r.text.empty()) {
        h.raw("<p class=\"muted\">The model wrote no text; it only called tools.</p>");
    } else {
        std::size_t cut = 0;
        h.raw("<pre>").text(excerpt(r.text, options.responseExcerptUnits, &cut)).raw("</pre>");
        if (cut)
            h.raw("<span class=\"small muted\">").num(cut).raw(" more units not shown.</span>");
    }
    if (view.toolRuns.empty())
        return;
    h.raw("<table width=\"100%\" class=\"rows\" cellspacing=\"0\" cellpadding=\"4\"><thead><tr><th>Tool</th><th>Call "
          "id</th><th>Status</th><th class=\"num\">Duration</th><th>Arguments and result</th></tr></thead><tbody>");
    for (const recording::ToolRun &t : view.toolRuns) {
        h.raw(t.error ? "<tr class=\"damaged\">" : "<tr>");
        h.raw("<td><code>").text(t.name).raw("</code>");
        if (t.parallelCount)
            h.raw("<br><span class=\"small muted\">")
                .num(std::size_t(std::max(0, *t.parallelCount)))
                .raw(" in parallel</span>");
        h.raw("</td><td><code>").text(t.id).raw("</code></td><td>").raw(toolRunChip(t)).raw("</td><td class=\"num\">");
        h.raw(t.durationMs ? duration(*t.durationMs) : "\u2013").raw("</td><td>");
        foldedText(h, t.argsText(), 400, "arguments");
        for (const recording::ToolCallRequest &c : r.toolCalls)
            if (c.id == t.id && c.findings) {
                h.raw("<div class=\"small\"><b>_findings</b>, the model's own declaration:</div>");
                foldedText(h, *c.findingsText(), 400, "_findings");
            }
        if (t.returned && t.result) {
            h.raw("<div class=\"small\"><b>")
                .raw(t.error ? "Error" : "Result")
                .raw("</b>")
                .raw(t.error ? " (the tool threw; this text is what the model was sent)" : "")
                .raw("</div>");
            foldedText(h, *t.result, 600, t.error ? "error text" : "result");
        } else {
            h.raw("<div class=\"small muted\">").text(t.missingReason).raw("</div>");
        }
        h.raw("</td></tr>");
    }
    h.raw("</tbody></table>");
}

// The conversation as a transcript: each message once, at the call where it entered the context, then the last
// response. Long results fold behind <details>; everything is escaped.
void renderTranscript(Html &h, const recording::Run &run)
{
    std::size_t seen = 0;
    std::optional<std::size_t> turn;
    std::optional<CallView> last;
    for (std::size_t i = 0; i < run.calls.size(); ++i) {
        CallView view = recording::buildCallView(run, i);
        if (view.turn != turn) {
            turn = view.turn;
            const recording::Turn &t = run.turns.at(view.turn);
            h.raw("<h4>Turn ").num(t.number).raw("</h4>");
        }
        h.raw("<p class=\"small muted\">");
        callLink(h, run, i);
        if (!view.conversationOnRecord) {
            h.raw(": the conversation is not on record</p>");
            last = std::move(view);
            continue;
        }
        const json::Value &messages = view.committed;
        if (messages.size() < seen)
            seen = 0; // the history was not carried over (an eviction window, a new conversation): show it whole
        h.raw(": ")
            .num(messages.size() - seen)
            .raw(messages.size() - seen == 1 ? " new message" : " new messages")
            .raw("</p>");
        h.raw("<table width=\"100%\" class=\"rows transcript\" cellspacing=\"0\" cellpadding=\"4\"><tbody>");
        for (std::size_t m = seen; m < messages.size(); ++m) {
            const json::Value &msg = messages.at(m);
            const json::Value *role = msg.findString("role");
            const json::Value *content = msg.find("content");
            const json::Value *id = msg.findString("toolCallId");
            const recording::Event *end = id ? run.toolEnd(id->asString()) : nullptr;
            const bool error = end && end->payloadError;
            h.raw(error ? "<tr class=\"damaged\"><th>" : "<tr><th>").text(role ? role->asString() : "?");
            if (id)
                h.raw("<br><code class=\"small\">").text(id->asString()).raw("</code>");
            if (error)
                h.raw("<br><span class=\"chip b-damaged\">tool threw</span>");
            h.raw("</th><td>");
            const std::string body = !content              ? std::string()
                                     : content->isString() ? content->decodedString()
                                                           : json::stringify(*content);
            foldedText(h, body, 600, role && role->asString() == "tool" ? "tool result" : "message");
            if (const json::Value *calls = msg.findArray("toolCalls"))
                for (const json::Value &c : *calls) {
                    const json::Value *name = c.findString("name");
                    h.raw("<div class=\"small\">calls <code>").text(name ? name->asString() : "?").raw("</code></div>");
                }
            h.raw("</td></tr>");
        }
        h.raw("</tbody></table>");
        seen = messages.size();
        last = std::move(view);
    }
    if (last && last->response && !last->response->text.empty()) {
        h.raw("<p class=\"small muted\">The last response (");
        callLink(h, run, last->ordinal);
        h.raw(")</p><table width=\"100%\" class=\"rows transcript\" cellspacing=\"0\" "
              "cellpadding=\"4\"><tbody><tr><th>assistant</th><td>");
        foldedText(h, last->response->text, 2000, "message");
        h.raw("</td></tr></tbody></table>");
    } else if (last && !last->response) {
        h.raw("<p class=\"small\"><span class=\"unknown\">The last call has no response on record.</span></p>");
    }
}

// -- the findings piece ------------------------------------------------------------------------------------------

void pieceLineSpans(Html &h, const findings::PieceLine &line)
{
    const std::u16string_view text = line.text;
    if (line.spans.empty()) {
        h.text16(text);
        return;
    }
    for (const findings::PieceSpan &span : line.spans) {
        const std::size_t begin = std::min(span.begin, text.size());
        const std::size_t end = std::min(std::max(span.end, begin), text.size());
        // The library's wording is the line's own colour (td.t); only quoted model text and clip notes are marked,
        // which keeps long runs' reports small.
        if (span.origin == findings::SpanOrigin::Library) {
            h.text16(text.substr(begin, end - begin));
            continue;
        }
        const char *cls = span.origin == findings::SpanOrigin::Model ? "mdl" : "ovf";
        h.raw("<span class=\"").raw(cls).raw("\">").text16(text.substr(begin, end - begin)).raw("</span>");
    }
}

void pieceLineText(Html &h, const findings::PieceLine &line)
{
    // One monospace element per line: Qt's rich-text engine takes the font from it, not from the table cell.
    h.raw("<code class=\"pl\">");
    pieceLineSpans(h, line);
    h.raw("</code>");
}

std::string rowsGutter(const std::vector<std::size_t> &rows)
{
    std::string out;
    const std::size_t shown = std::min<std::size_t>(rows.size(), 4);
    for (std::size_t i = 0; i < shown; ++i)
        out += (i ? " " : "") + std::string("#") + std::to_string(rows[i]);
    if (rows.size() > shown)
        out += " +" + std::to_string(rows.size() - shown);
    return out;
}

bool isShortHeader(const findings::PieceSection &section)
{
    std::u16string joined;
    for (const findings::PieceLine &l : section.lines)
        joined += (joined.empty() ? u"" : u"\n") + l.text;
    return joined == findings::pieceHeader(findings::HeaderTable::Short);
}

void renderPiece(Html &h, const findings::FindingsPiece &piece)
{
    h.raw("<table width=\"100%\" class=\"piece\" cellspacing=\"0\" cellpadding=\"2\">");
    bool firstSection = true;
    for (const findings::PieceSection &section : piece.sections) {
        if (!firstSection)
            h.raw("<tr class=\"sep\"><td class=\"g\"></td><td class=\"t\"></td></tr>");
        firstSection = false;
        if (section.kind == findings::SectionKind::Header) {
            // The header is the library's fixed text: named here, quoted in full once in the appendix.
            std::size_t units = 0;
            for (const auto &l : section.lines)
                units += l.text.size();
            units += section.lines.empty() ? 0 : section.lines.size() - 1;
            h.raw("<tr class=\"hdr\"><td class=\"g\">header</td><td class=\"t\">[fixed header: ")
                .num(section.lines.size())
                .raw(" lines, ")
                .num(units)
                .raw(" units, ")
                .raw(isShortHeader(section) ? "short meanings table" : "long meanings table")
                .raw(" \u2014 quoted in the appendix]</td></tr>");
            continue;
        }
        for (const findings::PieceLine &line : section.lines) {
            const char *cls = line.kind == findings::LineKind::Heading     ? "h"
                              : line.kind == findings::LineKind::More      ? "more"
                              : line.kind == findings::LineKind::Ask       ? "ask"
                              : line.kind == findings::LineKind::CountLine ? "count"
                                                                           : "c";
            h.raw("<tr class=\"").raw(cls).raw("\"><td class=\"g\">");
            if (line.kind == findings::LineKind::More)
                h.raw("<span class=\"clip\">").num(line.hiddenLines).raw(" hidden</span>");
            else if (line.clippedUnits)
                h.raw("<span class=\"clip\">clipped</span> ");
            if (line.kind != findings::LineKind::More)
                h.raw(rowsGutter(line.rowIndices));
            h.raw("</td><td class=\"t\">");
            pieceLineText(h, line);
            h.raw("</td></tr>");
        }
    }
    h.raw("</table>");
}

struct PieceStats
{
    std::size_t contentLines = 0, clippedLines = 0, hiddenLines = 0;
};

PieceStats statsOf(const findings::FindingsPiece &piece)
{
    PieceStats s;
    for (const auto &section : piece.sections)
        for (const auto &line : section.lines) {
            if (line.kind == findings::LineKind::Content || line.kind == findings::LineKind::CountLine)
                ++s.contentLines;
            if (line.clippedUnits)
                ++s.clippedLines;
            if (line.kind == findings::LineKind::More)
                s.hiddenLines += line.hiddenLines;
        }
    return s;
}

// -- ledger rows -----------------------------------------------------------------------------------------------

// The ledger rows [from, to) of a call, as the Ledger pane shows them: the core's row views with their marks.
void renderRowTable(Html &h, const CallView &view, std::size_t from, std::size_t to)
{
    const findings::LedgerFold fold = findings::foldLedger(view.ledger);
    const std::vector<findings::LedgerRowView> rows =
        findings::ledgerRowViews(view.ledger, fold, view.ledgerIssues, view.ledgerRowsAtPrevious);
    h.raw("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"4\"><thead><tr><th class=\"num\">Row</th><th>Kind</th>"
          "<th>Tool call</th><th>Standing</th><th>Marks</th><th>Detail</th></tr></thead><tbody>");
    for (std::size_t i = from; i < to && i < rows.size(); ++i) {
        const findings::LedgerRowView &r = rows[i];
        h.raw("<tr><td class=\"num\">#").num(i).raw("</td><td>");
        if (r.kind == findings::RowKind::Unknown && findings::isNewerRowKind(r.kindName))
            h.text(r.kindName).raw(" <span class=\"muted\">(not in the piece)</span>");
        else if (r.kind == findings::RowKind::Unknown)
            h.raw("<span class=\"muted\">")
                .text(r.kindName.empty() ? "(no kind)" : r.kindName)
                .raw(" (ignored)</span>");
        else
            h.raw(findings::rowKindName(r.kind));
        h.raw("</td><td class=\"wrap\"><code>").text(r.resultId).raw("</code></td><td>");
        if (r.kind == findings::RowKind::Standing)
            standingChip(h, r.standing);
        else
            h.text(r.standing);
        h.raw("</td><td>");
        for (const std::string &mark : findings::ledgerMarkNames(r.marks & ~unsigned(findings::MarkNew)))
            h.raw("<span class=\"chip ")
                .raw(mark == "conflict" || mark == "malformed" ? "b-damaged" : "v-miss")
                .raw("\">")
                .text(mark)
                .raw("</span> ");
        h.raw("</td><td class=\"wrap\">").text(r.detailText()).raw("</td></tr>");
    }
    h.raw("</tbody></table>");
}

// -- notes -----------------------------------------------------------------------------------------------------

struct NoteIndex
{
    const notes::Sidecar *sidecar = nullptr;
    notes::Resolution resolution;
    std::map<std::size_t, std::vector<std::size_t>> byCall; // ordinal -> note indices
    std::set<std::size_t> bookmarked;                       // ordinals

    std::size_t notesAt(std::size_t ordinal) const
    {
        auto it = byCall.find(ordinal);
        return it == byCall.end() ? 0 : it->second.size();
    }
};

void renderNote(Html &h, const notes::Note &note, const notes::Resolved *resolved, const recording::Run &run,
                bool showTarget)
{
    const bool orphaned = resolved && resolved->orphaned;
    h.raw(orphaned ? "<table width=\"100%\" class=\"note orphan\" cellspacing=\"0\" cellpadding=\"6\"><tr><td>"
                   : "<table width=\"100%\" class=\"note\" cellspacing=\"0\" cellpadding=\"6\"><tr><td>");
    h.raw("<div class=\"meta\">");
    if (orphaned)
        h.raw("<span class=\"chip b-damaged\">Orphaned</span> ");
    if (note.target.kind == notes::TargetKind::LedgerRow)
        h.raw("Note on ledger row #").num(note.target.rowIndex.value_or(0));
    else
        h.raw("Note on the call");
    if (note.target.kind == notes::TargetKind::LedgerRow && note.target.toolCallId)
        h.raw(" (tool:").text(*note.target.toolCallId).raw(")");
    if (showTarget) {
        h.raw(" at ");
        if (resolved && resolved->ordinal)
            callLink(h, run, *resolved->ordinal);
        else
            h.raw("call ").raw(std::to_string(note.target.call.epoch));
        h.raw(" <code>").text(note.target.call.callRuntimeStageId).raw("</code>");
    }
    if (!note.created.empty())
        h.raw(" \u00B7 ").text(note.created);
    if (orphaned)
        h.raw("<br>").text(resolved->reason);
    h.raw("</div><pre>").text(note.text).raw("</pre></td></tr></table>");
}

// -- sections --------------------------------------------------------------------------------------------------

struct Totals
{
    std::size_t verified = 0, reconstructed = 0, damaged = 0, notOnRecord = 0, redacted = 0;
    std::vector<std::size_t> damagedCalls;
};

Totals totalsOf(const std::vector<recording::CallSummary> &calls)
{
    Totals t;
    for (const auto &c : calls) {
        t.verified += c.verified;
        t.reconstructed += c.reconstructed;
        t.damaged += c.damagedParts;
        t.notOnRecord += c.notOnRecord;
        t.redacted += c.redacted;
        if (c.damaged)
            t.damagedCalls.push_back(c.ordinal);
    }
    return t;
}

void sectionHeading(Html &h, const char *id, int number, const char *title)
{
    h.raw("<h2 id=\"")
        .raw(id)
        .raw("\"><span class=\"secno\">")
        .num(std::size_t(number))
        .raw("</span>")
        .raw(title)
        .raw("</h2>");
}

void renderSummary(Html &h, const recording::Run &run, const std::vector<recording::CallSummary> &calls,
                   const Backtrack &backtrack, const NoteIndex &notes)
{
    const Totals t = totalsOf(calls);
    const HitRate rate = hitRate(calls);
    sectionHeading(h, "summary", 1, "Summary");

    // The verdict: what a reviewer needs first.
    const bool damaged = !t.damagedCalls.empty();
    h.raw("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"8\" class=\"verdict ")
        .raw(damaged      ? "bad"
             : t.verified ? "good"
                          : "plain")
        .raw("\"><tr><td>");
    if (damaged) {
        h.raw("<p><b>The record contradicts itself at ")
            .num(t.damagedCalls.size())
            .raw(" of ")
            .num(calls.size())
            .raw(" calls:</b> ");
        for (std::size_t i = 0; i < t.damagedCalls.size(); ++i) {
            if (i)
                h.raw(", ");
            callLink(h, run, t.damagedCalls[i]);
        }
        h.raw(". A damaged part is one whose rebuilt bytes disagree with the receipt hash the run committed.</p>");
    } else if (t.verified && t.redacted) {
        h.raw("<p><b>Every rebuilt part that a receipt hashes matched its hash, but for ")
            .raw(grouped(double(t.redacted)))
            .raw(" redacted parts</b> (")
            .raw(grouped(double(t.verified)))
            .raw(" parts verified across ")
            .num(calls.size())
            .raw(" calls): the run was served under a redaction policy, and those parts were rebuilt from values it "
                 "kept out, which the receipts hashed as they were. No part is damaged.</p>");
    } else if (t.verified) {
        h.raw("<p><b>Every rebuilt part that a receipt hashes matched its hash</b> (")
            .raw(grouped(double(t.verified)))
            .raw(" parts verified across ")
            .num(calls.size())
            .raw(" calls); no part is damaged.</p>");
    } else {
        h.raw("<p><b>Nothing in this recording could be verified by hash</b>: it carries no usable receipts, so "
              "every rebuilt part is Reconstructed, not proven.</p>");
    }
    for (const std::string &s : backtrack.statements)
        h.raw("<p>").text(s).raw("</p>");
    if (!backtrack.details.empty())
        h.raw("<p>")
            .num(backtrack.details.size())
            .raw(backtrack.details.size() == 1 ? " caveat" : " caveats")
            .raw(" on where those values came from (a conflict, or a value its result does not hold): see <a "
                 "href=\"#answer\">the backtrack</a>.</p>");
    h.raw("</td></tr></table>");
    renderOutcome(h, run, calls);

    // Key figures.
    h.raw("<table width=\"100%\" class=\"figures\" cellspacing=\"8\" cellpadding=\"10\"><tr>");
    h.raw("<td><div class=\"fig-label\">Calls</div><div class=\"fig-value\">")
        .num(calls.size())
        .raw("</div><div class=\"fig-note\">");
    h.raw(grouped(double(run.events.size())))
        .raw(" events \u00B7 ")
        .raw(run.durationMs ? duration(*run.durationMs) : "duration not on record");
    h.raw("</div></td>");
    h.raw("<td><div class=\"fig-label\">Receipt verification</div><div class=\"fig-value\">");
    if (damaged)
        h.raw("<span class=\"no\">").num(t.damagedCalls.size()).raw(" damaged</span>");
    else
        h.raw(grouped(double(t.verified))).raw(" verified");
    h.raw("</div><div class=\"fig-note\">")
        .raw(grouped(double(t.verified)))
        .raw(" V \u00B7 ")
        .raw(grouped(double(t.reconstructed)))
        .raw(" R \u00B7 ")
        .raw(grouped(double(t.damaged)))
        .raw(" D \u00B7 ")
        .raw(grouped(double(t.notOnRecord)))
        .raw(" N")
        .raw(t.redacted ? " \u00B7 " + grouped(double(t.redacted)) + " X" : std::string())
        .raw("</div></td>");
    h.raw("<td><div class=\"fig-label\">Cache hit rate</div><div class=\"fig-value\">");
    if (rate.rate) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f%%", *rate.rate * 100);
        h.raw(buf);
    } else {
        h.raw("unknown");
    }
    h.raw("</div><div class=\"fig-note\">")
        .num(rate.measured)
        .raw(" measured \u00B7 ")
        .num(rate.unmeasured)
        .raw(" unmeasured");
    if (!rate.rate)
        h.raw(" \u00B7 ").text(rate.reason);
    h.raw("</div></td>");
    const TokenTotals tokens = tokenTotals(calls);
    h.raw("<td><div class=\"fig-label\">Tokens in / out</div><div class=\"fig-value\">")
        .raw(optCount(tokens.input))
        .raw(" / ")
        .raw(optCount(tokens.output))
        .raw("</div><div class=\"fig-note\">summed over ")
        .num(tokens.reportingCalls)
        .raw(" of ")
        .num(tokens.calls)
        .raw(tokens.calls == 1 ? " call" : " calls")
        .raw(tokens.partial() ? " (partial)" : "")
        .raw("</div></td>");
    h.raw("</tr></table>");

    // Run facts.
    const std::optional<json::Value> finalLedger = run.finalLedger();
    std::size_t ledgerRows = finalLedger ? finalLedger->size() : 0;
    std::set<std::string> gapNames;
    for (const auto &g : run.gaps)
        gapNames.insert(g.name);
    for (const auto &c : calls)
        for (const auto &g : c.gaps())
            gapNames.insert(g.name);
    h.raw("<h4>The run</h4><table width=\"100%\" class=\"kv\" cellspacing=\"0\" cellpadding=\"4\">");
    const auto kv = [&](const char *key, const std::string &value, bool mono = false) {
        h.raw("<tr><th>").raw(key).raw("</th><td>");
        if (value.empty())
            h.raw("<span class=\"unknown\">not on record</span>");
        else if (mono)
            h.raw("<code>").text(value).raw("</code>");
        else
            h.text(value);
        h.raw("</td></tr>");
    };
    kv("File", run.path, true);
    kv("Format", recording::shapeDescription(run.shape));
    kv("Run id", run.runId, true);
    kv("Engine run id", run.engineRunId, true);
    kv("Model", run.model.empty() ? "" : run.model + (run.provider.empty() ? "" : " (" + run.provider + ")"));
    kv("React mode", run.reactMode);
    kv("Fold basis", recording::foldBasisName(run.basis));
    kv("Turns", std::to_string(run.turns.size()) +
                    (run.runIds.size() > 1 ? " (" + std::to_string(run.runIds.size()) + " run ids)" : ""));
    kv("Outcome", recording::outcomeStatusId(run.outcome.status));
    kv("Findings", run.constants.armed
                       ? "armed (serve mode " + run.constants.findingsServe.value_or("ledger-and-facts") +
                             ", answer ask " + run.constants.findingsAnswerAsk.value_or("none") + ")"
                       : "not armed");
    kv("Final ledger", finalLedger ? std::to_string(ledgerRows) + " rows" : "");
    {
        std::string g;
        for (const auto &n : gapNames)
            g += (g.empty() ? "" : ", ") + n;
        kv("Gaps", g.empty() ? "none" : g);
    }
    if (notes.sidecar) {
        std::string n = std::to_string(notes.sidecar->notes.size()) + " notes, " +
                        std::to_string(notes.sidecar->bookmarks.size()) + " bookmarks";
        if (const std::size_t o = notes.resolution.orphanedNotes())
            n += ", " + std::to_string(o) + " orphaned";
        kv("Reviewer notes", n);
    }
    for (const std::string &w : run.warnings)
        kv("Warning", w);
    h.raw("</table>");
}

void renderBacktrack(Html &h, const recording::Run &run, const Backtrack &bt, const HtmlReportOptions &options)
{
    sectionHeading(h, "answer", 2, "Final answer and backtrack");
    if (!bt.answer) {
        h.raw("<p class=\"muted\">The recording holds no final answer.</p>");
        return;
    }
    h.raw("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"10\" class=\"answer\"><tr><td>")
        .text(*bt.answer)
        .raw("</td></tr></table>");
    h.raw("<p class=\"small muted\">For each value the answer uses: the fact line the model was served, the standing "
          "row that declared it, the tool result that row judged, and the call at which that result first entered "
          "the served context.");
    if (bt.finalOrdinal) {
        h.raw(" The answer is the output of ");
        callLink(h, run, *bt.finalOrdinal);
        h.raw(".");
    }
    h.raw("</p><ul class=\"statements\">");
    for (const std::string &s : bt.statements)
        h.raw("<li>").text(s).raw("</li>");
    for (const std::string &s : bt.details)
        h.raw("<li>").text(s).raw("</li>");
    h.raw("</ul>");

    for (const BacktrackValue &v : bt.values) {
        for (const ValueSource &s : v.sources) {
            h.raw("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"6\" class=\"vhead\"><tr><td>Value <span "
                  "class=\"v\">")
                .text(v.value)
                .raw("</span> \u2014 ");
            h.text(s.subject);
            if (s.conflicted)
                h.raw(" <span class=\"chip b-damaged\">in conflict</span>");
            h.raw("</td></tr></table><table width=\"100%\" class=\"kv value\" cellspacing=\"0\" cellpadding=\"4\">");
            h.raw("<tr><th>Fact line</th><td><table width=\"100%\" class=\"piece\" cellspacing=\"0\" "
                  "cellpadding=\"2\"><tr class=\"c\">"
                  "<td class=\"g\">#")
                .num(s.standingRowIndex)
                .raw("</td><td class=\"t\">");
            pieceLineText(h, s.factLine);
            h.raw("</td></tr></table>");
            if (!s.factLineInPiece)
                h.raw("<span class=\"small muted\">Past the piece's 64-line cap: the model was not shown this line; "
                      "it is composed here by the same grammar.</span>");
            h.raw("</td></tr>");
            h.raw("<tr><th>Standing row #")
                .num(s.standingRowIndex)
                .raw("</th><td><pre class=\"json\">")
                .text(json::stringify(s.standingRow))
                .raw("</pre></td></tr>");
            h.raw("<tr><th>Tool result</th><td><code>tool:").text(s.toolCallId).raw("</code>");
            if (s.toolName)
                h.raw(" (").text(*s.toolName).raw(")");
            if (s.resultContent) {
                std::size_t cut = 0;
                const std::string shown = excerpt(*s.resultContent, options.resultExcerptUnits, &cut);
                h.raw(s.valueInResult ? " \u00B7 <span class=\"yes\">the value occurs in this result</span>"
                                      : " \u00B7 <span class=\"no\">the value does not occur in this result</span>");
                h.raw("<pre class=\"result\">").text(shown).raw("</pre>");
                if (cut)
                    h.raw("<span class=\"small muted\">").num(cut).raw(" more units not shown.</span>");
            } else if (s.resultMessage) {
                h.raw("<pre class=\"result\">").text(json::prettyPrint(*s.resultMessage)).raw("</pre>");
            } else {
                h.raw(" \u00B7 <span class=\"no\">not in the final call's history</span>");
            }
            h.raw("</td></tr><tr><th>Entered the context</th><td>");
            if (s.enteredOrdinal) {
                h.raw("at ");
                callLink(h, run, *s.enteredOrdinal);
                h.raw(" <code>").text(s.enteredStageId).raw("</code>");
                if (s.enteredAsTicket)
                    h.raw(" \u2014 served as a collapse ticket at that call, not in full");
            } else {
                h.raw("<span class=\"unknown\">no call's served context holds this result</span>");
            }
            h.raw("</td></tr></table>");
        }
    }

    if (!bt.contingent.empty()) {
        h.raw("<h4>Values used only from set-aside results (contingent)</h4>");
        h.raw("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"4\"><thead><tr><th "
              "class=\"num\">Row</th><th>Value</th><th>In the "
              "answer</th><th>Carriers</th></tr></thead><tbody>");
        for (const ContingentUse &use : bt.contingent) {
            h.raw("<tr><td class=\"num\">#")
                .num(use.rowIndex)
                .raw("</td><td class=\"wrap\"><code>")
                .text(use.value)
                .raw("</code></td><td>");
            yesNo(h, use.inAnswer);
            h.raw("</td><td class=\"wrap\">");
            for (std::size_t i = 0; i < use.carriers.size(); ++i) {
                const auto &c = use.carriers[i];
                if (i)
                    h.raw("<br>");
                h.raw("<code>tool:").text(c.toolCallId).raw("</code> ");
                standingChip(h, c.standing);
                if (c.enteredOrdinal) {
                    h.raw(" entered at ");
                    callLink(h, run, *c.enteredOrdinal);
                }
            }
            if (use.carriers.empty())
                h.raw("<span class=\"unknown\">none named</span>");
            h.raw("</td></tr>");
        }
        h.raw("</tbody></table>");
    }
}

void renderTimeline(Html &h, const recording::Run &run, const std::vector<recording::CallSummary> &calls,
                    const std::vector<CallView> *, const NoteIndex &notes, const std::vector<double> &wallClock)
{
    sectionHeading(h, "timeline", 3, "Timeline");
    h.raw("<p class=\"small muted\">One row per LLM call. <b>Prefix</b>: whether the provider could reuse the cached "
          "tools and system prefix of the previous call (same tool schemas and the same system block). <b>Cache</b>: "
          "what the provider reported (read / write / fresh input tokens). <b>Receipt</b>: verified, reconstructed, "
          "damaged and not-on-record parts.</p>");
    h.raw("<table width=\"100%\" class=\"timeline\" cellspacing=\"0\" cellpadding=\"4\"><thead><tr><th "
          "class=\"num\">Call</th>"
          "<th>Time (UTC)</th><th>Response</th><th class=\"num\">Msgs</th><th class=\"num\">Collapsed</th>"
          "<th class=\"num\">Ledger</th><th class=\"num\">Piece</th><th>Prefix</th><th>Cache</th>"
          "<th class=\"num\">Read / write / fresh</th><th>Receipt</th><th>Marks</th></tr></thead><tbody>");
    for (std::size_t i = 0; i < calls.size(); ++i) {
        const recording::CallSummary &c = calls[i];
        // A conversation's turns head their calls: the user's prompt, as the turn began.
        if (run.turns.size() > 1 && (i == 0 || calls[i - 1].turn != c.turn)) {
            const recording::Turn &t = run.turns.at(c.turn);
            h.raw("<tr class=\"turn\"><td colspan=\"12\"><b>Turn ").num(t.number).raw("</b> \u00B7 ");
            std::size_t cut = 0;
            if (t.userPrompt)
                h.text(excerpt(*t.userPrompt, 200, &cut)).raw(cut ? "\u2026" : "");
            else
                h.raw("<span class=\"unknown\">prompt not on record</span>");
            h.raw("</td></tr>");
        }
        h.raw(c.damaged || !c.response || c.anyToolError() ? "<tr class=\"damaged\">" : "<tr>");
        h.raw("<td class=\"num\"><a href=\"#")
            .raw(callAnchor(c.ordinal))
            .raw("\">")
            .num(c.ordinal + 1)
            .raw("</a></td>");
        h.raw("<td class=\"mono\">")
            .raw(i < wallClock.size() ? utcTime(wallClock[i], false) : "\u2013")
            .raw("</td><td>");
        if (!c.response)
            h.raw("<span class=\"chip b-damaged\">none</span>");
        else if (c.anyToolError())
            h.raw("<span class=\"chip b-damaged\">tool threw</span>");
        else
            h.raw("<code>").text(c.response->stopReason.value_or("?")).raw("</code>");
        h.raw("</td>");
        h.raw("<td class=\"num\">").raw(c.messageCount ? std::to_string(*c.messageCount) : "\u2013").raw("</td>");
        h.raw("<td class=\"num\">").num(c.collapsedIds.size()).raw("</td>");
        h.raw("<td class=\"num\">").num(c.ledgerRows);
        if (c.ledgerChanged)
            h.raw(" <span class=\"muted\">\u25B2</span>");
        h.raw("</td><td class=\"num\">");
        if (c.pieceLengthU16) {
            h.raw(grouped(double(*c.pieceLengthU16)));
            h.raw(c.pieceChangedSincePrevious ? " <span class=\"muted\">\u0394</span>" : "");
        } else {
            h.raw("<span class=\"unknown\">none</span>");
        }
        h.raw("</td><td>");
        yesNo(h, c.prefixReusable, "reusable", "moved");
        h.raw("</td><td>");
        verdictChip(h, c.verdict);
        h.raw("</td><td class=\"num mono\">")
            .raw(optCount(c.cacheRead))
            .raw(" / ")
            .raw(optCount(c.cacheWrite))
            .raw(" / ")
            .raw(optCount(c.input))
            .raw("</td><td>");
        if (c.damaged)
            h.raw("<span class=\"chip b-damaged\">").num(c.damagedParts).raw(" D</span> ");
        h.raw("<span class=\"small\">").num(c.verified).raw("V ").num(c.reconstructed).raw("R");
        if (c.notOnRecord)
            h.raw(" ").num(c.notOnRecord).raw("N");
        if (c.redacted)
            h.raw(" ").num(c.redacted).raw("X");
        h.raw("</span></td><td>");
        if (notes.bookmarked.count(c.ordinal))
            h.raw("\u2605 ");
        if (const std::size_t n = notes.notesAt(c.ordinal))
            h.raw("\u270E").num(n);
        h.raw("</td></tr>");
    }
    h.raw("</tbody></table>");
}

// "messages[0]", "messages[1]", … "messages[29]" as "messages[0–29]": the verified list grows with the history, so
// on a long run it would otherwise be most of the report.
std::vector<std::string> compactParts(const std::vector<const recording::PartCheck *> &checks)
{
    std::vector<std::string> out;
    std::string prefix;
    long first = -1, last = -1;
    const auto flush = [&] {
        if (first < 0)
            return;
        out.push_back(prefix + "[" + std::to_string(first) + (last > first ? "\u2013" + std::to_string(last) : "") +
                      "]");
        first = last = -1;
    };
    for (const recording::PartCheck *c : checks) {
        const std::string &part = c->part;
        const std::size_t open = part.find('[');
        long index = -1;
        if (open != std::string::npos && part.back() == ']' && open + 2 < part.size()) {
            const std::string digits = part.substr(open + 1, part.size() - open - 2);
            if (digits.find_first_not_of("0123456789") == std::string::npos && digits.size() < 9)
                index = std::stol(digits);
        }
        if (index >= 0 && first >= 0 && part.compare(0, open, prefix) == 0 && index == last + 1) {
            last = index;
            continue;
        }
        flush();
        if (index >= 0) {
            prefix = part.substr(0, open);
            first = last = index;
        } else {
            out.push_back(part);
        }
    }
    flush();
    return out;
}

void renderCall(Html &h, const recording::Run &run, const CallView &view, const NoteIndex &notes,
                const HtmlReportOptions &options, std::optional<std::size_t> &lastPieceOrdinal,
                const findings::FindingsPiece *previousPiece)
{
    const std::size_t ordinal = view.ordinal;
    const recording::CallRecord &rec = run.calls[ordinal];
    h.raw("<section class=\"call\" id=\"").raw(callAnchor(ordinal)).raw("\">");
    h.raw(view.damaged ? "<table width=\"100%\" cellspacing=\"0\" cellpadding=\"8\" class=\"callhead damaged\">"
                       : "<table width=\"100%\" cellspacing=\"0\" cellpadding=\"8\" class=\"callhead\">");
    h.raw("<tr><td>");
    h.raw("<h3>Call ").num(ordinal + 1);
    if (run.turns.size() > 1)
        h.raw(" <span class=\"muted\">\u00B7 turn ").num(view.turn + 1).raw("</span>");
    h.raw(" <span class=\"muted\">\u00B7 iteration ").num(std::size_t(std::max(0, view.epoch))).raw("</span>");
    if (notes.bookmarked.count(ordinal))
        h.raw(" <span class=\"chip v-miss\">\u2605 bookmarked</span>");
    if (view.damaged)
        h.raw(" <span class=\"chip b-damaged\">damaged</span>");
    h.raw("</h3><p class=\"sub\"><code>").text(rec.callRuntimeStageId).raw("</code> \u00B7 ");
    h.text(view.model.empty() ? std::string("model not on record") : view.model);
    if (!view.provider.empty())
        h.raw(" (").text(view.provider).raw(")");
    h.raw(" \u00B7 log ").text(rec.logName);
    if (view.wallClockMs)
        h.raw(" \u00B7 ").raw(utcTime(*view.wallClockMs, true));
    if (view.durationMs)
        h.raw(" \u00B7 ").raw(duration(*view.durationMs));
    if (view.route)
        h.raw(" \u00B7 route ").text(*view.route);
    h.raw("</p></td></tr></table><div class=\"callbody\">");

    // Notes first: they are what the engineer wanted the reviewer to see here.
    if (auto it = notes.byCall.find(ordinal); it != notes.byCall.end())
        for (std::size_t n : it->second)
            renderNote(h, notes.sidecar->notes[n], &notes.resolution.notes[n], run, false);

    // Served context in one table.
    h.raw("<h4>Served context</h4><table width=\"100%\" class=\"kv\" cellspacing=\"0\" cellpadding=\"4\">");
    h.raw("<tr><th>System prompt</th><td>");
    if (view.systemOnRecord) {
        h.raw(grouped(double(text::lengthU16(view.systemText))))
            .raw(" units in ")
            .num(view.systemPieces.size())
            .raw(" pieces: ");
        for (std::size_t i = 0; i < view.systemPieces.size(); ++i) {
            if (i)
                h.raw(", ");
            h.raw("<code>").text(view.systemPieces[i].source).raw("</code>");
        }
    } else {
        h.raw("<span class=\"unknown\">not fully on record</span>");
    }
    if (!view.systemNote.empty())
        h.raw(" \u00B7 ").text(view.systemNote);
    h.raw("</td></tr><tr><th>Messages</th><td>");
    if (view.conversationOnRecord)
        h.num(view.asSent.size())
            .raw(" as sent, ")
            .num(view.servedIds.size())
            .raw(" tool results served, ")
            .num(view.collapsed.size())
            .raw(" collapsed to tickets, ")
            .num(view.undeclaredIds.size())
            .raw(" undeclared");
    else
        h.raw("<span class=\"unknown\">the conversation is not on record</span>");
    h.raw("</td></tr><tr><th>Tools</th><td>");
    for (std::size_t i = 0; i < view.tools.size(); ++i) {
        if (i)
            h.raw(", ");
        h.raw("<code>").text(view.tools[i].name).raw("</code>");
    }
    if (view.tools.empty())
        h.raw(view.withheld ? "withheld (" : "none").text(view.withheld.value_or("")).raw(view.withheld ? ")" : "");
    if (view.forcedTool)
        h.raw(" \u00B7 forced ").text(*view.forcedTool);
    h.raw("</td></tr><tr><th>Ledger</th><td>");
    if (view.ledgerOnRecord) {
        h.num(view.ledger.size()).raw(" rows");
        if (view.ledger.size() > view.ledgerRowsAtPrevious)
            h.raw(", ").num(view.ledger.size() - view.ledgerRowsAtPrevious).raw(" filed since the previous call");
        if (!view.ledgerIssues.empty())
            h.raw(" \u00B7 <span class=\"no\">").num(view.ledgerIssues.size()).raw(" malformed</span>");
    } else {
        h.raw("<span class=\"unknown\">not on record</span>");
    }
    h.raw("</td></tr>");
    h.raw("</table>");
    renderResponse(h, run, view, options);

    // Cache.
    const recording::CacheFacts &cache = view.cache;
    h.raw("<h4>Cache</h4><table width=\"100%\" class=\"kv\" cellspacing=\"0\" cellpadding=\"4\"><tr><th>Provider "
          "said</th><td>");
    verdictChip(h, cache.verdict);
    h.raw(" read ")
        .raw(optCount(view.usage.cacheRead))
        .raw(" \u00B7 write ")
        .raw(optCount(view.usage.cacheWrite))
        .raw(" \u00B7 fresh input ")
        .raw(optCount(view.usage.input))
        .raw(" \u00B7 output ")
        .raw(optCount(view.usage.output));
    h.raw("</td></tr><tr><th>Prefix reusable</th><td>");
    yesNo(h, cache.prefixReusable);
    h.raw(" \u00B7 tools unchanged ");
    yesNo(h, cache.toolsUnchanged);
    h.raw(" \u00B7 system unchanged ");
    yesNo(h, cache.systemUnchanged);
    h.raw(cache.fromStoredHashes ? " \u00B7 from the stored receipt hashes" : " \u00B7 from the rebuilt text");
    if (!cache.reason.empty())
        h.raw("<br><span class=\"small\">").text(cache.reason).raw("</span>");
    h.raw("</td></tr><tr><th>Markers</th><td>candidates ");
    h.raw(cache.candidates ? "" : "<span class=\"unknown\">not on record</span>").text(markerList(cache.candidates));
    h.raw(" \u00B7 applied ")
        .raw(cache.applied ? "" : "<span class=\"unknown\">not on record</span>")
        .text(markerList(cache.applied));
    if (cache.gateBranch)
        h.raw(" \u00B7 gate ").text(*cache.gateBranch);
    if (cache.strategy)
        h.raw(" \u00B7 strategy ").text(*cache.strategy);
    h.raw("</td></tr>");
    if (cache.gapMs) {
        h.raw("<tr><th>Since previous call</th><td>")
            .raw(duration(*cache.gapMs))
            .raw(" (TTL ")
            .raw(duration(cache.ttlMs))
            .raw(")");
        if (cache.pastTtl)
            h.raw(" \u00B7 <span class=\"no\">past the TTL: a reuse is unlikely even with equal hashes</span>");
        h.raw("</td></tr>");
    }
    h.raw("</table>");

    // Findings piece.
    h.raw("<h4>Findings piece</h4>");
    if (!view.piece) {
        h.raw("<p class=\"muted\">No piece: ").text(view.noPieceReason).raw(".</p>");
    } else if (!view.pieceChangedSincePrevious && lastPieceOrdinal) {
        h.raw("<p>Byte for byte the piece of ");
        callLink(h, run, *lastPieceOrdinal);
        h.raw(" (")
            .raw(grouped(double(view.piece->lengthU16())))
            .raw(" units): the system block did not move because of "
                 "the ledger.</p>");
    } else {
        const PieceStats stats = statsOf(*view.piece);
        h.raw("<p class=\"small\">")
            .raw(grouped(double(view.piece->lengthU16())))
            .raw(" units, ")
            .raw(grouped(double(view.piece->sizeUtf8())))
            .raw(" UTF-8 bytes \u00B7 ")
            .num(stats.contentLines)
            .raw(" content lines");
        if (stats.clippedLines)
            h.raw(" \u00B7 <span class=\"clip\">").num(stats.clippedLines).raw(" clipped</span>");
        if (stats.hiddenLines)
            h.raw(" \u00B7 <span class=\"clip\">").num(stats.hiddenLines).raw(" hidden past a 64-line cap</span>");
        if (view.piece->hasLoneSurrogate())
            h.raw(" \u00B7 holds a lone surrogate (shown as \uFFFD)");
        h.raw(" \u00B7 gutter: ledger rows each line quotes</p>");
        // The same line diff as the Since Previous Call pane (findings::pieceLineDiff): its counts; the lines are
        // the piece's own, rendered below.
        if (ordinal > 0) {
            const text::DiffStats d = text::diffStats(findings::pieceLineDiff(previousPiece, &*view.piece));
            h.raw("<p class=\"small\">Since the previous call: +")
                .num(std::size_t(d.added))
                .raw(" \u2212")
                .num(std::size_t(d.removed))
                .raw(" lines</p>");
        }
        renderPiece(h, *view.piece);
        lastPieceOrdinal = ordinal;
    }
    if (view.ledgerOnRecord && view.ledger.size() > view.ledgerRowsAtPrevious) {
        h.raw("<h4>Ledger rows filed since the previous call</h4>");
        renderRowTable(h, view, view.ledgerRowsAtPrevious, view.ledger.size());
    }
    for (const auto &issue : view.ledgerIssues)
        h.raw("<p class=\"no small\">Malformed ledger row ")
            .raw(issue.index == findings::kLedgerIssue ? std::string("(the ledger)")
                                                       : "#" + std::to_string(issue.index))
            .raw(": ")
            .text(issue.reason)
            .raw("</p>");

    // Collapsed results.
    if (!view.collapsed.empty()) {
        h.raw(
            "<h4>Collapsed results</h4><table width=\"100%\" cellspacing=\"0\" "
            "cellpadding=\"4\"><thead><tr><th>Message</th>"
            "<th>Tool call</th><th>Tool</th><th>Standing</th><th class=\"num\">Row</th><th>Ticket sent instead of the "
            "content</th></tr></thead><tbody>");
        for (const findings::CollapsedMessage &c : view.collapsed) {
            std::string toolName;
            if (c.index < view.committed.size())
                toolName = stringMember(view.committed.at(c.index), "toolName");
            h.raw("<tr><td class=\"mono\">messages[")
                .num(c.index)
                .raw("]</td><td class=\"wrap\"><code>")
                .text(c.toolCallId)
                .raw("</code></td><td class=\"wrap\">")
                .text(toolName)
                .raw("</td><td>");
            standingChip(h, c.standing);
            h.raw("</td><td class=\"num\">#")
                .num(c.standingRowIndex)
                .raw("</td><td class=\"wrap\"><code>")
                .text(c.ticket)
                .raw("</code></td></tr>");
        }
        h.raw("</tbody></table>");
    }

    // Receipt verification: everything that is not Verified in full, the verified parts as one list.
    h.raw("<h4>Receipt verification</h4>");
    const char *receiptState = view.receiptState == CallView::ReceiptState::Hashed ? "hashed receipt"
                               : view.receiptState == CallView::ReceiptState::Placeholder
                                   ? "receipt with placeholder hashes"
                               : view.receiptState == CallView::ReceiptState::Rejected ? "rejected receipt"
                                                                                       : "no receipt";
    std::vector<const recording::PartCheck *> verified, other;
    for (const recording::PartCheck &c : view.checks)
        (c.badge == Badge::Verified ? verified : other).push_back(&c);
    h.raw("<p class=\"small\">")
        .raw(receiptState)
        .raw(" \u00B7 ")
        .num(verified.size())
        .raw(" of ")
        .num(view.checks.size())
        .raw(" parts verified");
    if (!verified.empty()) {
        h.raw(": ");
        const std::vector<std::string> parts = compactParts(verified);
        for (std::size_t i = 0; i < parts.size(); ++i) {
            if (i)
                h.raw(", ");
            h.raw("<code>").text(parts[i]).raw("</code>");
        }
    }
    h.raw("</p>");
    if (!other.empty()) {
        h.raw("<table width=\"100%\" cellspacing=\"0\" "
              "cellpadding=\"4\"><thead><tr><th>Part</th><th>Status</th><th>Why</th></tr></thead>"
              "<tbody>");
        for (const recording::PartCheck *c : other) {
            h.raw("<tr><td class=\"wrap\"><code>").text(c->part).raw("</code></td><td>");
            badgeChip(h, c->badge);
            h.raw("</td><td class=\"wrap\">").text(c->reason).raw("</td></tr>");
        }
        h.raw("</tbody></table>");
    }
    if (!view.gaps.empty()) {
        h.raw("<p class=\"small\">Gaps: ");
        for (std::size_t i = 0; i < view.gaps.size(); ++i) {
            if (i)
                h.raw(" ");
            gapChip(h, view.gaps[i]);
        }
        h.raw(" <a href=\"#gaps\">(what they mean)</a></p>");
    }
    for (const std::string &n : view.notes)
        h.raw("<p class=\"small muted\">").text(n).raw("</p>");
    h.raw("</div></section>");
}

void renderGaps(Html &h, const recording::Run &run, const std::vector<recording::CallSummary> &calls)
{
    sectionHeading(h, "gaps", 6, "Gaps");
    h.raw("<p class=\"small muted\">What the recording cannot prove. An <b>excuse</b> means the rebuild may be shorter "
          "than what went out; <b>missing</b> means the thing is not on record; a <b>caveat</b> means the receipt "
          "describes the request before a later party (a cache strategy, the vendor) could change it. Caveats never "
          "excuse a mismatch.</p>");
    struct Row
    {
        const recording::Gap *gap = nullptr;
        std::vector<std::size_t> calls;
        bool runLevel = false;
    };
    std::vector<Row> rows;
    const auto rowFor = [&](const recording::Gap &g) -> Row & {
        for (Row &r : rows)
            if (r.gap->name == g.name && r.gap->cause == g.cause)
                return r;
        rows.push_back({&g, {}, false});
        return rows.back();
    };
    for (const recording::Gap &g : run.gaps)
        rowFor(g).runLevel = true;
    for (const recording::CallSummary &c : calls)
        for (const recording::Gap &g : c.gaps())
            rowFor(g).calls.push_back(c.ordinal);
    if (rows.empty()) {
        h.raw("<p>None: every part of every call is on record.</p>");
        return;
    }
    h.raw("<table width=\"100%\" cellspacing=\"0\" "
          "cellpadding=\"4\"><thead><tr><th>Gap</th><th>Where</th><th>Why</th><th>Covers</th>"
          "</tr></thead><tbody>");
    for (const Row &r : rows) {
        h.raw("<tr><td>");
        gapChip(h, *r.gap);
        if (!r.gap->cause.empty())
            h.raw("<br><span class=\"small muted\">").text(r.gap->cause).raw("</span>");
        h.raw("</td><td>");
        if (r.runLevel)
            h.raw("the whole run");
        if (!r.calls.empty()) {
            if (r.runLevel)
                h.raw("; ");
            if (r.calls.size() == calls.size() && calls.size() > 1) {
                h.raw("every call");
            } else {
                for (std::size_t i = 0; i < r.calls.size(); ++i) {
                    if (i)
                        h.raw(", ");
                    callLink(h, run, r.calls[i]);
                }
            }
        }
        h.raw("</td><td class=\"wrap\">").text(r.gap->why).raw("</td><td class=\"wrap small\">");
        for (std::size_t i = 0; i < r.gap->fields.size(); ++i)
            h.raw(i ? ", " : "").raw("<code>").text(r.gap->fields[i]).raw("</code>");
        h.raw("</td></tr>");
    }
    h.raw("</tbody></table>");
}

void renderNotes(Html &h, const recording::Run &run, const NoteIndex &notes)
{
    sectionHeading(h, "notes", 7, "Bookmarks and notes");
    if (!notes.sidecar || notes.sidecar->empty()) {
        h.raw("<p class=\"muted\">No bookmarks or notes were kept for this recording.</p>");
        return;
    }
    h.raw("<p class=\"small muted\">Kept by the engineer in <code>")
        .text(notes::sidecarPathFor(notes::identityOf(run).path))
        .raw("</code> beside the recording; the recording itself is never modified.</p>");
    if (!notes.resolution.sameRecording)
        h.raw("<table width=\"100%\" class=\"note orphan\" cellspacing=\"0\" cellpadding=\"6\"><tr><td><div "
              "class=\"meta\">Another version of the recording</div><pre>")
            .text(notes.resolution.recordingNote)
            .raw("</pre></td></tr></table>");
    if (!notes.sidecar->bookmarks.empty()) {
        h.raw("<h4>Bookmarks</h4><table width=\"100%\" cellspacing=\"0\" "
              "cellpadding=\"4\"><thead><tr><th>Call</th><th>Stage</th>"
              "<th>Created</th><th>Status</th></tr></thead><tbody>");
        for (std::size_t i = 0; i < notes.sidecar->bookmarks.size(); ++i) {
            const notes::Bookmark &b = notes.sidecar->bookmarks[i];
            const notes::Resolved &r = notes.resolution.bookmarks[i];
            h.raw("<tr><td>");
            if (r.ordinal)
                callLink(h, run, *r.ordinal);
            else
                h.raw("call ").raw(std::to_string(b.call.epoch));
            h.raw("</td><td class=\"wrap\"><code>")
                .text(b.call.callRuntimeStageId)
                .raw("</code></td><td>")
                .text(b.created)
                .raw("</td><td>");
            if (r.orphaned)
                h.raw("<span class=\"chip b-damaged\">Orphaned</span> ").text(r.reason);
            else
                h.raw("<span class=\"chip b-verified\">Attached</span>");
            h.raw("</td></tr>");
        }
        h.raw("</tbody></table>");
    }
    if (!notes.sidecar->notes.empty()) {
        h.raw("<h4>Notes</h4>");
        for (std::size_t i = 0; i < notes.sidecar->notes.size(); ++i)
            renderNote(h, notes.sidecar->notes[i], &notes.resolution.notes[i], run, true);
    }
}

void renderAppendix(Html &h)
{
    sectionHeading(h, "appendix", 8, "How to read this report");
    h.raw("<h4>Receipt statuses</h4><table width=\"100%\" class=\"kv\" cellspacing=\"0\" cellpadding=\"4\">");
    h.raw("<tr><th><span class=\"chip b-verified\">Verified</span></th><td>The rebuilt part hashes to the value the "
          "run's "
          "own receipt committed for it.</td></tr>");
    h.raw("<tr><th><span class=\"chip b-reconstructed\">Reconstructed</span></th><td>Rebuilt from the record but not "
          "witnessed by a hash (no receipt, a part that is never hashed, or a mismatch a gap excuses).</td></tr>");
    h.raw("<tr><th><span class=\"chip b-damaged\">Damaged</span></th><td>The record contradicts itself: the rebuilt "
          "bytes "
          "differ from the committed hash, or a part has no receipt row to pair with.</td></tr>");
    h.raw("<tr><th><span class=\"chip b-not-on-record\">Not on record</span></th><td>The recording does not hold the "
          "thing. This is never the same as \u201Cnone\u201D.</td></tr>");
    h.raw("<tr><th><span class=\"chip b-redacted\">Redacted</span></th><td>The run was served under a redaction "
          "policy and the part was rebuilt from a value it kept out (REDACTED or [REDACTED]); the receipt hashed the "
          "original, so the part cannot be verified. It is not damage.</td></tr></table>");
    h.raw(
        "<h4>Findings piece</h4><p class=\"legend small\"><span><span class=\"mdl\">model text</span> quoted from the "
        "ledger</span><span><span class=\"lib\">library wording</span></span><span><span class=\"ovf\">"
        " \u2026[clipped N chars]</span> overflow note of a clip</span></p>");
    h.raw(
        "<p class=\"small\">The piece ends the system prompt of every call at which the ledger holds a standing. It is "
        "request-only (never committed), so Tracefold rebuilds it byte for byte from the ledger as of the call. Lines "
        "are cut at 240 UTF-16 units, each bucket shows at most 64 lines followed by a <i>+K more (cap 64)</i> line, "
        "and newlines inside model text are folded to one space so a value cannot forge a line of its own. The left "
        "column names the ledger rows each line quotes.</p>");
    h.raw("<p class=\"small\">Every piece opens with the same fixed header, quoted here once:</p>");
    const std::u16string &header = findings::pieceHeader(findings::HeaderTable::Short);
    h.raw("<pre class=\"json\">").text16(header).raw("</pre>");
    h.raw("<h4>Collapse tickets</h4><p class=\"small\">A tool result the model judged noise or ruled out is sent as a "
          "short ticket, <code>{\"collapsed\":true,\"standing\":\u2026,\"toolCallId\":\u2026}</code>, instead of its "
          "content. The history keeps the content; only the wire copy changes.</p>");
}

} // namespace

std::string renderHtmlReport(const recording::Run &run, const HtmlReportOptions &options)
{
    const std::vector<recording::CallSummary> calls = recording::summarizeCalls(run);
    const Backtrack backtrack = backtrackAnswer(run);

    NoteIndex notes;
    notes.sidecar = options.sidecar;
    if (options.sidecar) {
        notes.resolution = notes::resolve(*options.sidecar, run);
        for (const notes::Resolved &r : notes.resolution.notes)
            if (r.ordinal)
                notes.byCall[*r.ordinal].push_back(r.index);
        for (const notes::Resolved &r : notes.resolution.bookmarks)
            if (r.ordinal)
                notes.bookmarked.insert(*r.ordinal);
    }
    std::vector<double> wallClock(run.calls.size(), -1);
    for (std::size_t i = 0; i < run.calls.size(); ++i)
        if (const recording::Event *e = run.event(run.calls[i].llmStartEvent))
            wallClock[i] = e->wallClockMs.value_or(-1);

    Html h;
    const std::string title =
        "Tracefold report \u2014 " + (run.runId.empty() ? notes::identityOf(run).path : run.runId);
    h.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    // No script, no frame, no remote fetch: even markup that escaped the escaper could not run or call out.
    h.raw("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
          "img-src data:; base-uri 'none'; form-action 'none'\">\n");
    h.raw("<meta name=\"referrer\" content=\"no-referrer\">\n");
    h.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    h.raw("<meta name=\"generator\" content=\"Tracefold ").raw(TRACEFOLD_VERSION).raw("\">\n");
    h.raw("<title>")
        .text(title)
        .raw("</title>\n<style>")
        .raw(options.flavor == HtmlReportOptions::Flavor::QtPrint ? kPrintStyle : kStyle)
        .raw("</style>\n</head>\n<body>\n<div class=\"page\">\n");

    // Cover.
    h.raw("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"0\" class=\"cover\"><tr><td><div "
          "class=\"eyebrow\">Tracefold \u00B7 Run audit report</div><h1>");
    if (run.runId.empty())
        h.raw("Run ").text(notes::identityOf(run).path);
    else
        h.raw("Run ").text(run.runId);
    h.raw("</h1><p class=\"sub\">")
        .text(notes::identityOf(run).path)
        .raw(" \u00B7 ")
        .num(run.calls.size())
        .raw(run.calls.size() == 1 ? " LLM call" : " LLM calls");
    if (!run.model.empty())
        h.raw(" \u00B7 ").text(run.model);
    if (!run.events.empty() && run.events.front().wallClockMs)
        h.raw(" \u00B7 recorded ").raw(utcTime(*run.events.front().wallClockMs, true));
    h.raw("</p></td></tr></table>\n");
    h.raw("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"3\" class=\"toc\">"
          "<tr><td width=\"50%\"><a href=\"#summary\">1 \u00A0Summary</a></td><td><a href=\"#calls\">5 "
          "\u00A0Calls</a></td></tr>"
          "<tr><td><a href=\"#answer\">2 \u00A0Final answer and backtrack</a></td><td><a href=\"#gaps\">6 "
          "\u00A0Gaps</a></td></tr>"
          "<tr><td><a href=\"#timeline\">3 \u00A0Timeline</a></td><td><a href=\"#notes\">7 \u00A0Bookmarks and "
          "notes</a></td></tr>"
          "<tr><td><a href=\"#conversation\">4 \u00A0Conversation</a></td><td><a href=\"#appendix\">8 \u00A0How to "
          "read this report</a></td></tr></table>\n");

    renderSummary(h, run, calls, backtrack, notes);
    renderBacktrack(h, run, backtrack, options);
    renderTimeline(h, run, calls, nullptr, notes, wallClock);
    sectionHeading(h, "conversation", 4, "Conversation");
    renderTranscript(h, run);

    sectionHeading(h, "calls", 5, "Calls");
    std::optional<std::size_t> lastPieceOrdinal;
    std::optional<findings::FindingsPiece> previousPiece;
    for (std::size_t i = 0; i < run.calls.size(); ++i) {
        const CallView view = recording::buildCallView(run, i);
        renderCall(h, run, view, notes, options, lastPieceOrdinal, previousPiece ? &*previousPiece : nullptr);
        previousPiece = view.piece;
        h.raw("\n");
        if (options.progress && !options.progress(double(i + 1) / double(run.calls.size())))
            return {};
    }
    if (run.calls.empty())
        h.raw("<p class=\"muted\">The recording holds no LLM call.</p>");

    renderGaps(h, run, calls);
    renderNotes(h, run, notes);
    renderAppendix(h);

    const notes::RecordingIdentity id = notes::identityOf(run);
    h.raw("<div class=\"footer\">Generated by Tracefold ")
        .raw(TRACEFOLD_VERSION)
        .raw(" from <code>")
        .text(id.path)
        .raw("</code> (")
        .raw(grouped(double(id.size)))
        .raw(" bytes; SHA-256 of the first MiB <code>")
        .text(id.sha256OfFirstMiB)
        .raw("</code>)");
    if (!options.generatedAt.empty())
        h.raw(" on ").text(options.generatedAt);
    h.raw(". The report is self-contained: no script, no external resource.</div>\n</div>\n</body>\n</html>\n");
    return std::move(h.str());
}

} // namespace tf::report
