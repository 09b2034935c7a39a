#pragma once

#include <QHash>
#include <QSet>

namespace tf::ui {

// The calls the reviewer marked, by 0-based ordinal: what the Calls list and the strip chart show of the sidecar.
struct ReviewMarks
{
    QSet<int> bookmarked;
    QHash<int, int> notes; // ordinal -> how many notes are on the call or its ledger rows

    bool operator==(const ReviewMarks &other) const = default;
};

} // namespace tf::ui
