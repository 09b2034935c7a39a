#pragma once

#include "core/json/value.h"
#include "core/recording/run.h"

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tf::report {

struct SearchOptions
{
    bool caseInsensitive = false; // ASCII letters only; every other byte must match exactly
    // Also what the model wrote: each call's response text and the arguments of the tool calls it asked for, and
    // each turn's final answer (at the turn's last call). Off: the served context only (the CLI's default).
    bool includeResponses = false;
    std::size_t snippetContext = 40; // bytes of context kept on each side of the first match of a location
    const std::atomic<bool> *cancel = nullptr;
    std::function<void(double)> progress; // fraction of calls searched
};

// Which part of a call a hit is in, for a front end that goes there.
enum class SearchPart
{
    System,            // the joined system text (a match across two pieces)
    SystemPiece,       // index: the piece
    Message,           // index: the message as sent
    Tool,              // name: the tool
    ResponseText,      // the response's text
    ToolCallArguments, // index: the tool call in the response; name: its id
    Answer             // index: the turn (0-based) whose final answer this is
};

// The matches in one part of a call's served context (or, with includeResponses, of what the model wrote there).
struct SearchHit
{
    // "system", "system.pieces[3]", "messages[4]", "tools[lookup_port]"; with includeResponses also "response.text",
    // "response.toolCalls[0]" and "answer"
    std::string location;
    std::string label; // what the location is, for people: "findings piece", "tool result call_3 (lookup_port)"
    SearchPart part = SearchPart::Message;
    std::size_t index = 0;
    std::string name;
    std::size_t count = 0;
    std::string snippet; // strict UTF-8 text around the first match ("…" marks a cut); never escaped here
    std::size_t snippetMatchBegin = 0, snippetMatchEnd = 0; // byte range of the match inside snippet
};

struct CallHits
{
    std::size_t ordinal = 0;
    int epoch = 0;
    std::string callRuntimeStageId;
    std::size_t total = 0;
    std::vector<SearchHit> hits; // system first, then messages in order, then tools
};

struct SearchResult
{
    std::string needle;
    bool caseInsensitive = false;
    bool includeResponses = false;
    std::size_t callsSearched = 0;
    bool cancelled = false;
    std::vector<CallHits> calls; // every call whose served context contains the needle, in call order
    // The first call where it appeared, and where in that call it appeared first.
    std::optional<std::size_t> firstOrdinal;
    int firstEpoch = 0;
    std::string firstLocation;
    // Calls whose served context is only partly on record (no conversation, no system text): a miss there is not
    // proof of absence.
    std::vector<std::size_t> partialOrdinals;
    std::size_t totalMatches() const;
};

// Every call whose served context - system text, messages as sent (after the collapse), tool schemas - contains
// `needle` as a UTF-8 byte substring. Strings of the recording are searched as text (a JSON escape in the file
// does not hide a match); object keys inside messages and schemas are searched too.
SearchResult searchRun(const recording::Run &run, std::string_view needle, const SearchOptions &options = {});

// `tracefold-cli search --json`: schema 1, documented in the README.
json::Value searchJson(const recording::Run &run, const SearchResult &result);
// `tracefold-cli search`: one line per call with its locations, then the first appearance. Snippets are printed
// with control characters shown as escapes, so untrusted text cannot drive the terminal.
std::string searchText(const recording::Run &run, const SearchResult &result);

// Counts non-overlapping occurrences (exact bytes, or ASCII case-insensitive); sets `first` to the first one.
std::size_t countMatches(std::string_view haystack, std::string_view needle, bool caseInsensitive,
                         std::size_t *first = nullptr);
// The byte offsets of those occurrences, in order: the one rule every count and highlight of a search follows.
std::vector<std::size_t> matchOffsets(std::string_view haystack, std::string_view needle, bool caseInsensitive);

// The same occurrences in a WTF-8 text as UTF-16 ranges (a front end's string positions): begin and length in code
// units.
struct RangeU16
{
    std::size_t beginU16 = 0, lengthU16 = 0;
    bool operator==(const RangeU16 &) const = default;
};
std::vector<RangeU16> matchRangesU16(std::string_view wtf8, std::string_view needle, bool caseInsensitive);

// One occurrence among a result's matches, for Next / Previous: the call (index into SearchResult::calls), the
// location (index into its hits) and which of that location's `count` occurrences.
struct MatchPosition
{
    std::size_t call = 0, hit = 0, occurrence = 0;
    bool operator==(const MatchPosition &) const = default;
};
// The match after (or before) `from`, in call order and wrapping around; the first (or last) when `from` is nullopt.
// nullopt when the result holds no match.
std::optional<MatchPosition> stepMatch(const SearchResult &result, std::optional<MatchPosition> from, bool backward);
// 1-based number of the match among result.totalMatches().
std::size_t matchNumber(const SearchResult &result, const MatchPosition &position);

} // namespace tf::report
