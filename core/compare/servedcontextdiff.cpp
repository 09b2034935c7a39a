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

ServedContextDiff diffServedContext(const std::vector<ServedPart> &a, const std::vector<ServedPart> &b)
{
    struct Ranked
    {
        int group;
        std::size_t place;
        PartDifference difference;
    };
    std::vector<Ranked> ranked;
    ServedContextDiff out;
    std::unordered_map<std::string_view, std::size_t> inB;
    for (std::size_t j = 0; j < b.size(); ++j)
        inB.emplace(b[j].name, j);
    // A part the other call lacks by name: not compared when the other call's recording lacks it (its own name, or
    // its whole group, not on record); otherwise sent in one call only.
    const auto missingFrom = [](const std::vector<ServedPart> &other, std::string_view name) {
        const int group = groupOf(name);
        for (const ServedPart &p : other)
            if (!p.onRecord && (p.name == name || (group == 0 && p.name == kNoSystemPart) ||
                                (group == 1 && p.name == kNoMessagesPart) || (group == 3 && p.name == kNoSchemasPart)))
                return false;
        return true;
    };
    const auto oneSided = [&](const ServedPart &p, const std::vector<ServedPart> &other, bool inA, std::size_t place) {
        if (!p.onRecord)
            return; // a marker: it only covers the other call's parts
        if (missingFrom(other, p.name))
            ranked.push_back({groupOf(p.name), place, {p.name, inA, !inA, std::size_t(0)}});
        else
            out.notCompared.push_back(p.name);
    };
    std::vector<bool> matched(b.size(), false);
    for (std::size_t i = 0; i < a.size(); ++i) {
        const ServedPart &pa = a[i];
        const auto it = inB.find(pa.name);
        if (it == inB.end()) {
            oneSided(pa, b, true, i);
            continue;
        }
        matched[it->second] = true;
        const ServedPart &pb = b[it->second];
        if (!pa.onRecord || !pb.onRecord) {
            if (pa.onRecord != pb.onRecord)
                out.notCompared.push_back(pa.name);
        } else if (pa.bytes && pb.bytes) {
            if (const auto offset = firstDifferenceU16(*pa.bytes, *pb.bytes))
                ranked.push_back({groupOf(pa.name), i, {pa.name, true, true, offset}});
        } else if (pa.digest != pb.digest || pa.size != pb.size) {
            ranked.push_back({groupOf(pa.name), i, {pa.name, true, true, std::nullopt}});
        }
    }
    for (std::size_t j = 0; j < b.size(); ++j)
        if (!matched[j])
            oneSided(b[j], a, false, j);
    std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked &x, const Ranked &y) {
        return x.group != y.group ? x.group < y.group : x.place < y.place;
    });
    out.differing.reserve(ranked.size());
    for (Ranked &r : ranked)
        out.differing.push_back(std::move(r.difference));
    return out;
}

} // namespace tf::compare
