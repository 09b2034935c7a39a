#include "worddiff.h"

#include <string>

namespace tf::compare {

std::vector<WordSpan> wordSpans(std::string_view text)
{
    std::vector<WordSpan> words;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i < text.size() && text[i] != ' ' && text[i] != '\n')
            continue;
        if (i > start)
            words.push_back({start, i});
        start = i + 1;
    }
    return words;
}

std::vector<text::DiffLine> wordDiff(std::string_view a, std::string_view b)
{
    const auto wordsOf = [](std::string_view text) {
        std::vector<std::string> words;
        for (const WordSpan &w : wordSpans(text))
            words.emplace_back(text.substr(w.begin, w.end - w.begin));
        return words;
    };
    return text::diffLines(wordsOf(a), wordsOf(b));
}

} // namespace tf::compare
