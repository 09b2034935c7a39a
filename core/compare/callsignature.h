#pragma once

#include "core/recording/callview.h"

#include <string>
#include <vector>

namespace tf::compare {

// What a call is, for lining up two runs of one task (issue 19): the model it asked, the tools it was offered and
// the tool calls its response made. Two runs make the same calls in the same order until one of them goes another
// way, so equal signatures pair calls and an extra call shows as a gap instead of shifting every later pair.
struct CallSignature
{
    std::string model;
    std::vector<std::string> toolsOffered;  // in request order
    std::vector<std::string> toolCallsMade; // tool names in the response's order; empty when no response is on record
    bool responseOnRecord = false;
    bool operator==(const CallSignature &) const = default;

    // One string, equal exactly when the signatures are (what the LCS compares).
    std::string key() const;
};

CallSignature callSignature(const recording::CallView &view);

} // namespace tf::compare
