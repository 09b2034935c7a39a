#include "servedcontextdiff.h"

#include "core/text/utf.h"

#include <algorithm>
#include <unordered_map>

namespace tf::compare {

std::optional<std::size_t> firstDifferenceU16(std::string_view a, std::string_view b)
{
    if (a == b)
        return std::nullopt;
    std::size_t at = std::size_t(std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first - a.begin());
    // Back to the first byte of the code point the difference falls in (WTF-8 continuation bytes are 10xxxxxx).
    while (at > 0 && at < a.size() && (static_cast<unsigned char>(a[at]) & 0xC0) == 0x80)
        --at;
    return text::lengthU16(a.substr(0, at));
}

namespace {

// Where a part goes in the receipt's order: its group, then its place in its own call's list.
int groupOf(std::string_view name)
{
    if (name.rfind("system", 0) == 0)
        return 0;
    if (name.rfind("messages", 0) == 0)
        return 1;
    if (name.rfind("tools.names", 0) == 0)
        return 2;
    return 3;
}

} // namespace

std::vector<PartDifference> diffServedContext(const std::vector<ServedPart> &a, const std::vector<ServedPart> &b)
{
    std::unordered_map<std::string_view, std::size_t> inB;
    for (std::size_t j = 0; j < b.size(); ++j)
        inB.emplace(b[j].name, j);
    struct Ranked
    {
        int group;
        std::size_t place;
        PartDifference difference;
    };
    std::vector<Ranked> ranked;
    std::vector<bool> matched(b.size(), false);
    for (std::size_t i = 0; i < a.size(); ++i) {
        const ServedPart &pa = a[i];
        const auto it = inB.find(pa.name);
        if (it == inB.end()) {
            ranked.push_back({groupOf(pa.name), i, {pa.name, true, false, std::size_t(0)}});
            continue;
        }
        matched[it->second] = true;
        const ServedPart &pb = b[it->second];
        if (pa.bytes && pb.bytes) {
            if (const auto offset = firstDifferenceU16(*pa.bytes, *pb.bytes))
                ranked.push_back({groupOf(pa.name), i, {pa.name, true, true, offset}});
        } else if (pa.digest != pb.digest || pa.size != pb.size) {
            ranked.push_back({groupOf(pa.name), i, {pa.name, true, true, std::nullopt}});
        }
    }
    for (std::size_t j = 0; j < b.size(); ++j)
        if (!matched[j])
            ranked.push_back({groupOf(b[j].name), j, {b[j].name, false, true, std::size_t(0)}});
    std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked &x, const Ranked &y) {
        return x.group != y.group ? x.group < y.group : x.place < y.place;
    });
    std::vector<PartDifference> out;
    out.reserve(ranked.size());
    for (Ranked &r : ranked)
        out.push_back(std::move(r.difference));
    return out;
}

} // namespace tf::compare
