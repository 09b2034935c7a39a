#pragma once

#include "pairdiff.h"

#include <cstddef>
#include <string>
#include <vector>

namespace tf::compare {

// A text as a surface shows one side of a comparison, with the ranges that differ from the other side.
struct MarkedText
{
    struct Mark
    {
        // [begin, end) in UTF-16 units of `text`; an empty mark is where the other side has text this one lacks.
        std::size_t beginU16 = 0, endU16 = 0;
    };
    std::string text; // WTF-8 from the recordings, never escaped here
    std::vector<Mark> marks;
};

// One subject of two aligned calls (what they were served, their responses, ...) side by side: what differs in one
// line, and each side's text with what differs marked.
struct PairSides
{
    bool same = true;
    std::string summary; // one line: what differs, or that nothing does
    MarkedText a, b;
};

// A pair of calls (comparePair) laid out side by side for each pane that shows a part of a call:
//   served    the served parts that differ (system pieces, messages as sent, tool names and schemas), each with the
//             text around its differing range, the range marked (common prefix and suffix of the two texts left
//             unmarked); parts on record in one run only are named in the summary;
//   response  the response text (words that differ marked, compare::wordDiff), its tool calls (calls the other
//             side did not make marked) and the tool results that differ (marked like a served part);
//   ledger    the rows each side holds and the other does not (diffLedgers), as ledgerRowLine;
//   piece     the findings pieces line by line (each side's lines, those the other lacks marked);
//   cache     the cache verdicts.
// A call beside a gap (compareWithNoCall) has "(no call)" on the gap's side of every subject.
// Long texts are cut around what differs; nothing is left out silently (a cut shows "…").
struct PairPanes
{
    PairSides served, response, ledger, piece, cache;
};
PairPanes pairPanes(const PairDiff &pair);

// How much of a long text is kept around what differs, in UTF-16 units.
inline constexpr std::size_t kContextBeforeU16 = 160;
inline constexpr std::size_t kContextAfterU16 = 160;
inline constexpr std::size_t kDifferingShownU16 = 2000;
// Differing served parts shown in full; the others are counted.
inline constexpr std::size_t kPartsShown = 24;

} // namespace tf::compare
