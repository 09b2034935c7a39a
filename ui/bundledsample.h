#pragma once

#include <QString>

namespace tf::ui {

// The recording the app opens when it is started with no file: a generated 12-call run (`tracefold-cli generate
// --calls 12 --seed 1`) with findings, collapsed results and cache usage. Swap the file, not this constant.
inline constexpr char16_t kBundledSamplePath[] = u":/tracefold/samples/tracefold-sample.json";

inline QString bundledSamplePath()
{
    return QString::fromUtf16(kBundledSamplePath);
}

// How the bundled sample is named in titles and messages.
QString bundledSampleDisplayName();

} // namespace tf::ui
