#pragma once

#include "core/compare/rundiff.h"
#include "core/recording/run.h"

#include <QMetaType>
#include <QString>

#include <memory>

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

} // namespace tf::ui

Q_DECLARE_METATYPE(tf::ui::ComparisonHandle)
