#pragma once

#include "core/report/htmlreport.h"

namespace tf::report::html {

// The report's stylesheet for a flavour (a browser, or Qt's rich-text engine for the PDF).
const char *reportStylesheet(HtmlReportOptions::Flavor flavor);

} // namespace tf::report::html
