#pragma once

#include "htmlwriter.h"

#include "core/report/notes.h"

namespace tf::report::html {

// One reviewer note, with its target and whether it is orphaned; `showTarget` names the call it is on (the notes
// section does, a call's own section does not).
void renderNote(HtmlWriter &h, const notes::Note &note, const notes::Resolved *resolved, bool showTarget);

} // namespace tf::report::html
