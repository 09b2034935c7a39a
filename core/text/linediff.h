#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tf::text {

// A line diff (longest common subsequence, Myers' O(ND) algorithm): the findings piece since the previous call (the
// Since Previous Call pane, the report), and any two texts compared line by line.
struct DiffLine
{
    enum class Op
    {
        Same,
        Added,
        Removed,
    };
    Op op = Op::Same;
    int oldLine = -1; // 0-based line in the old text, -1 for Added
    int newLine = -1; // 0-based line in the new text, -1 for Removed
    std::string text; // WTF-8
};

std::vector<DiffLine> diffLines(const std::vector<std::string> &before, const std::vector<std::string> &after);
// `text` split at each `separator` (an empty text is one empty part, as JavaScript's split gives), and at each \n.
std::vector<std::string> split(std::string_view text, char separator);
inline std::vector<std::string> splitLines(std::string_view text)
{
    return split(text, '\n');
}

struct DiffStats
{
    int added = 0;
    int removed = 0;
    int same = 0;
};
DiffStats diffStats(const std::vector<DiffLine> &diff);

} // namespace tf::text
