#pragma once

#include <QString>

namespace tf::ui {

// The recording the app opens when it is started with no file: a generated 80-call run (`tracefold-cli generate
// --calls 80 --seed 7 --no-iteration-history`) with a findings ledger of every row kind, overflow notes from call 62
// on, collapsed results, cache reads and writes. Swap the file, not this constant.
inline constexpr char16_t kBundledSamplePath[] = u":/tracefold/samples/tracefold-sample.json";

inline QString bundledSamplePath()
{
    return QString::fromUtf16(kBundledSamplePath);
}

// How the bundled sample is named in titles and messages.
QString bundledSampleDisplayName();

} // namespace tf::ui
