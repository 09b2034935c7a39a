#pragma once

#include "htmlwriter.h"

#include "core/recording/callview.h"

#include <cstddef>

namespace tf::report::html {

// The ledger rows [from, to) of a call, as the Ledger pane shows them: the core's row views with their marks.
void renderRowTable(HtmlWriter &h, const recording::CallView &view, std::size_t from, std::size_t to);

} // namespace tf::report::html
