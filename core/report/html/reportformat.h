#pragma once

#include "htmlwriter.h"

#include "core/json/value.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tf::report::html {

// Numbers, times and excerpts as every report section writes them.
std::string grouped(double v);                        // 12,345; non-integers as JS prints them
std::string optCount(const std::optional<double> &v); // grouped, or an en dash when not on record
std::string duration(double ms);
std::string utcTime(double ms, bool withDate);
// At most `units` UTF-16 units of a WTF-8 string, never splitting a surrogate pair; `cut` receives what was left out.
std::string excerpt(std::string_view wtf8, std::size_t units, std::size_t *cut);
std::string stringMember(const json::Value &o, std::string_view key);
std::string markerList(const std::optional<json::Value> &markers);

// Calls are numbered 1..N in the report; the anchor of call ordinal i is "call-(i+1)".
std::string callAnchor(std::size_t ordinal);
void callLink(HtmlWriter &h, std::size_t ordinal);
// A numbered section heading with its anchor id (ids are the report's own words, never recorded text).
void sectionHeading(HtmlWriter &h, const char *id, int number, const char *title);
// A long text folded behind <details> (a browser opens it; Qt's engine shows the summary line and the text), always
// escaped.
void foldedText(HtmlWriter &h, std::string_view wtf8, std::size_t foldAboveUnits, const char *what);

} // namespace tf::report::html
