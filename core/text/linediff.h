#pragma once

#include <cstddef>
#include <set>
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

// A diff as a reader is shown it: each changed line, up to `context` unchanged lines either side of a change, and each
// longer run of unchanged lines as one fold, unless the run's first hidden line is in `unfolded`. A fold hides at least
// two lines (one line shows in the room its fold would take); a diff of two lines or more without changes is one fold.
struct DiffRow
{
    std::size_t first = 0; // index of the diff line shown, or of the first line a fold hides
    std::size_t count = 1; // the lines a fold hides; 1 for a line shown
    bool fold = false;
};
std::vector<DiffRow> diffRows(const std::vector<DiffLine> &diff, std::size_t context,
                              const std::set<std::size_t> &unfolded = {});

} // namespace tf::text
