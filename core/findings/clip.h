#pragma once

#include "findingspiece.h"

#include <string>
#include <string_view>
#include <vector>

namespace tf::findings {

// clip(text, max) of spec/findings.md §3.2, appending to `out`: fold every maximal whitespace run (§9.6) that holds
// a CR or LF into one SPACE, then, when the folded text is longer than `max` units, cut it at unit `max` (which may
// leave a lone high surrogate, §8.2) and append " …[clipped N chars]". Returns N, or 0 when nothing was cut.
//
// With `origins` (one per unit of `text`) and `outOrigins`, the origin of every emitted unit is tracked, so the
// structure of a line is derived from the very operation that produced its text. A folded run emits one space
// whose origin is Library when any unit of the run was Library text and the run's first unit's origin otherwise:
// the run swallowed the separator space the library wrote next to the model's newline (`" = " + "\n lead"`), and
// what is left is that separator. The clip note is Overflow.
std::size_t clipInto(std::u16string_view text, const SpanOrigin *origins, std::size_t max, std::u16string &out,
                     std::vector<SpanOrigin> *outOrigins);

// " …[clipped N chars]": one space, U+2026, and `chars` even when N is 1.
void appendClipNote(std::u16string &out, std::size_t clippedUnits);

void appendDecimal(std::u16string &out, std::size_t n);

} // namespace tf::findings
