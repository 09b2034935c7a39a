#pragma once

#include <string>
#include <vector>

namespace tf::recording {

// spec/recording.md §5.8: what a view cannot prove, with the receipt fields it covers. Run-level gaps (no chart,
// no events, truncated head, ...) use the same shape with an empty field list.
struct Gap
{
    enum class Kind
    {
        Excuse,
        Missing,
        Caveat,
        Note
    };
    std::string name; // e.g. "no-fold-base"
    Kind kind = Kind::Note;
    std::vector<std::string> fields; // receipt fields it covers
    std::string cause;               // e.g. "no-receipt-committed"
    std::string why;                 // one sentence for people

    bool covers(const std::string &field) const;
    bool operator==(const Gap &) const = default;
};

const char *gapKindName(Gap::Kind kind);

// The §5.8 gaps, built in one place so names, kinds and covered fields cannot drift.
Gap noFoldBaseGap();
Gap noConversationGap();
Gap noRunLogGap();
Gap earlierRunGap(); // spec/runs.md §1: an events-only call in a recording whose snapshot covers a later run
Gap noReceiptGap(const std::string &cause);
Gap cacheTransformGap();
Gap providerDefaultsGap();
Gap forcedToolSchemaGap();

} // namespace tf::recording
