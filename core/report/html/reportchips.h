#pragma once

#include "htmlwriter.h"

#include "core/recording/callview.h"

#include <optional>
#include <string_view>

namespace tf::report::html {

// The small coloured labels of the report. Only the report's own words pick a class; recorded text is only content.
const char *badgeLabel(recording::Badge b);
const char *verdictLabel(recording::CacheVerdict v);
void badgeChip(HtmlWriter &h, recording::Badge b);
void verdictChip(HtmlWriter &h, recording::CacheVerdict v);
void gapChip(HtmlWriter &h, const recording::Gap &g);
void standingChip(HtmlWriter &h, std::string_view standing);
void yesNo(HtmlWriter &h, const std::optional<bool> &b, const char *yes = "yes", const char *no = "no");
const char *toolRunChip(const recording::ToolRun &t);

} // namespace tf::report::html
