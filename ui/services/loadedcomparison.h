#pragma once

#include "core/compare/pairsides.h"
#include "core/compare/rundiff.h"
#include "core/recording/run.h"

#include <QMetaType>
#include <QString>

#include <memory>
#include <optional>

namespace tf::ui {

// The open run compared with a baseline run (File > Compare With…): the baseline as loaded and the core's
// comparison (compare::compareRuns, the open run as A). Immutable once handed over.
struct LoadedComparison
{
    std::shared_ptr<const recording::Run> run; // the open run (A) it was made for
    std::shared_ptr<const recording::Run> baseline;
    compare::RunDiff diff;
    QString baselinePath;
};

using ComparisonHandle = std::shared_ptr<const LoadedComparison>;

// One aligned row of a comparison in full, built on a worker when the row is chosen: both calls compared
// (compare::comparePair) and laid out for the panes (compare::pairPanes). A row with a call in one run only has
// `a` or `b` empty, and its call compared with no call (compare::compareWithNoCall).
struct ComparedPair
{
    int row = -1;
    std::optional<std::size_t> a, b; // 0-based calls of the open run and of the baseline
    compare::PairDiff diff;
    compare::PairPanes panes;
    bool complete() const { return a && b; }
};

using ComparedPairHandle = std::shared_ptr<const ComparedPair>;

} // namespace tf::ui

Q_DECLARE_METATYPE(tf::ui::ComparisonHandle)
Q_DECLARE_METATYPE(tf::ui::ComparedPairHandle)
