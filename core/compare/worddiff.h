#pragma once

#include "core/text/linediff.h"

#include <cstddef>
#include <string_view>
#include <vector>

namespace tf::compare {

// A word of a text: where it is, in bytes. Words are the text split at spaces and line breaks, empty ones dropped.
struct WordSpan
{
    std::size_t begin = 0, end = 0;
};
std::vector<WordSpan> wordSpans(std::string_view text);

// Two texts compared word by word (the final answers of two runs, two responses): their words (wordSpans) lined up
// by text::diffLines; each DiffLine's text is one word, its oldLine and newLine the word's index in each text.
std::vector<text::DiffLine> wordDiff(std::string_view a, std::string_view b);

} // namespace tf::compare
