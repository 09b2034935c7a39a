#include "worddiff.h"

namespace tf::compare {

namespace {

std::vector<std::string> wordsOf(std::string_view text)
{
    std::vector<std::string> words;
    for (std::string &w : text::split(text, ' '))
        if (!w.empty())
            words.push_back(std::move(w));
    return words;
}

} // namespace

std::vector<text::DiffLine> wordDiff(std::string_view a, std::string_view b)
{
    return text::diffLines(wordsOf(a), wordsOf(b));
}

} // namespace tf::compare
