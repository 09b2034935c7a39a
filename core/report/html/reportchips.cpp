#include "reportchips.h"

namespace tf::report::html {

using recording::Badge;

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

void badgeChip(HtmlWriter &h, Badge b)
{
    h.raw("<span class=\"chip b-").raw(recording::badgeId(b)).raw("\">").raw(badgeLabel(b)).raw("</span>");
}

void verdictChip(HtmlWriter &h, recording::CacheVerdict v)
{
    h.raw("<span class=\"chip v-").raw(recording::cacheVerdictId(v)).raw("\">").raw(verdictLabel(v)).raw("</span>");
}

void gapChip(HtmlWriter &h, const recording::Gap &g)
{
    h.raw("<span class=\"chip k-").raw(recording::gapKindName(g.kind)).raw("\">").text(g.name).raw("</span>");
}

// A standing value is untrusted text; only the four known values pick a colour class.
void standingChip(HtmlWriter &h, std::string_view standing)
{
    const char *cls = standing == "fact"        ? "s-fact"
                      : standing == "open"      ? "s-open"
                      : standing == "noise"     ? "s-noise"
                      : standing == "ruled-out" ? "s-ruled-out"
                                                : "k-note";
    h.raw("<span class=\"chip ").raw(cls).raw("\">").text(standing).raw("</span>");
}

void yesNo(HtmlWriter &h, const std::optional<bool> &b, const char *yes, const char *no)
{
    if (!b)
        h.raw("<span class=\"unknown\">unknown</span>");
    else if (*b)
        h.raw("<span class=\"yes\">").raw(yes).raw("</span>");
    else
        h.raw("<span class=\"no\">").raw(no).raw("</span>");
}

const char *toolRunChip(const recording::ToolRun &t)
{
    if (t.error)
        return "<span class=\"chip b-damaged\">threw</span>";
    if (t.returned)
        return "<span class=\"chip b-verified\">returned</span>";
    return t.started ? "<span class=\"chip v-miss\">never returned</span>"
                     : "<span class=\"chip b-not-on-record\">not run</span>";
}

} // namespace tf::report::html
