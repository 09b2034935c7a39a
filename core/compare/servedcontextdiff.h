#pragma once

#include "servedparts.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tf::compare {

// The UTF-16 offset of the first code point where two WTF-8 texts differ (one being a prefix of the other: its
// length); nullopt when they are equal.
std::optional<std::size_t> firstDifferenceU16(std::string_view a, std::string_view b);

// A served part that differs between two calls, or that one of them was sent and the other was not.
struct PartDifference
{
    std::string name;
    bool inA = true, inB = true;
    // Where the texts first differ (0 when the part is in one call only); nullopt when the parts were read as
    // digests only.
    std::optional<std::size_t> utf16Offset;
};

// Two calls' served context compared part by part, a part matched by its name: the parts that differ, in the
// receipt's order (system, messages, tool names, schemas), and those on record in one call only, which prove
// nothing either way. A part on record in neither is not listed. Both lists empty: the calls were sent the same
// bytes, as far as both recordings hold them.
struct ServedContextDiff
{
    std::vector<PartDifference> differing;
    std::vector<std::string> notCompared; // on record in one call and not in the other
    bool same() const { return differing.empty() && notCompared.empty(); }
};
ServedContextDiff diffServedContext(const std::vector<ServedPart> &a, const std::vector<ServedPart> &b);

} // namespace tf::compare
