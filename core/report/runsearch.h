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
    bool caseInsensitive = false;    // ASCII letters only; every other byte must match exactly
    std::size_t snippetContext = 40; // bytes of context kept on each side of the first match of a location
    const std::atomic<bool> *cancel = nullptr;
    std::function<void(double)> progress; // fraction of calls searched
};

// The matches in one part of a call's served context.
struct SearchHit
{
    std::string location; // "system", "system.pieces[3]", "messages[4]", "tools[lookup_port]"
    std::string label;    // what the location is, for people: "findings piece", "tool result call_3 (lookup_port)"
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

} // namespace tf::report
