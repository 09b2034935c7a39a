#pragma once

#include "core/text/linediff.h"

#include <string_view>
#include <vector>

namespace tf::compare {

// Two texts compared word by word (the final answers of two runs): the words are the texts split at spaces and line
// breaks, lined up by text::diffLines; each DiffLine's text is one word.
std::vector<text::DiffLine> wordDiff(std::string_view a, std::string_view b);

} // namespace tf::compare
