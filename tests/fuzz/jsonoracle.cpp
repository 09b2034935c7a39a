#include "jsonoracle.h"

#include "core/json/parser.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace tf::fuzz::oracle {

namespace {

using Oracle = nlohmann::ordered_json;

// One parse by the core: the whole text must be one value with nothing but whitespace after it.
struct CoreParse
{
    json::StringArena arena;
    json::ParseError error;
    json::Value root;
    bool ok = false;
};

void parseWithCore(std::string_view text, std::size_t deferEscapedStringBytes, CoreParse &out)
{
    json::ParseLimits limits;
    limits.deferEscapedStringBytes = deferEscapedStringBytes;
    std::size_t end = 0;
    out.root = json::parse(text, out.arena, out.error, 0, &end, limits);
    out.ok = !out.error.failed();
    if (out.ok) {
        while (end < text.size() && json::isJsonSpace(text[end]))
            ++end;
        if (end != text.size()) {
            out.ok = false;
            out.error.reason = "text after the value";
        }
    }
}

// A surrogate code unit kept alone is, in WTF-8, the three bytes ED A0..BF xx.
bool holdsLoneSurrogate(std::string_view wtf8)
{
    for (std::size_t i = 0; i + 1 < wtf8.size(); ++i)
        if (static_cast<unsigned char>(wtf8[i]) == 0xED && static_cast<unsigned char>(wtf8[i + 1]) >= 0xA0)
            return true;
    return false;
}

bool anyInfinity(const json::Value &v)
{
    switch (v.type()) {
    case json::Type::Number:
        return std::isinf(v.asNumber());
    case json::Type::Array:
        for (const json::Value &item : v)
            if (anyInfinity(item))
                return true;
        return false;
    case json::Type::Object:
        for (const json::Member *m = v.memberBegin(); m != v.memberEnd(); ++m)
            if (anyInfinity(m->value))
                return true;
        return false;
    default:
        return false;
    }
}

// nlohmann's members in JavaScript property order: array-index names first, ascending, then the rest as inserted.
std::vector<std::pair<std::string_view, const Oracle *>> inJavaScriptOrder(const Oracle &object, bool &reordered)
{
    std::vector<std::pair<std::string_view, const Oracle *>> members;
    for (auto it = object.items().begin(); it != object.items().end(); ++it)
        members.emplace_back(it.key(), &it.value());
    const auto isIndex = [](const auto &m) { return json::isArrayIndexKey(m.first); };
    auto firstName = std::stable_partition(members.begin(), members.end(), isIndex);
    std::sort(members.begin(), firstName, [](const auto &a, const auto &b) {
        return a.first.size() != b.first.size() ? a.first.size() < b.first.size() : a.first < b.first;
    });
    reordered = false;
    auto it = object.items().begin();
    for (const auto &m : members) {
        reordered = reordered || m.second != &it.value();
        ++it;
    }
    return members;
}

bool anyLoneSurrogate(const json::Value &v)
{
    switch (v.type()) {
    case json::Type::String:
        return holdsLoneSurrogate(v.decodedString());
    case json::Type::Array:
        for (const json::Value &item : v)
            if (anyLoneSurrogate(item))
                return true;
        return false;
    case json::Type::Object:
        for (const json::Member *m = v.memberBegin(); m != v.memberEnd(); ++m)
            if (holdsLoneSurrogate(m->key.view()) || anyLoneSurrogate(m->value))
                return true;
        return false;
    default:
        return false;
    }
}

std::size_t depthOf(const Oracle &v)
{
    // Iterative: nlohmann reads any depth, and this must not be what overflows the stack.
    std::size_t deepest = 0;
    std::vector<std::pair<const Oracle *, std::size_t>> todo{{&v, 1}};
    while (!todo.empty()) {
        const auto [node, depth] = todo.back();
        todo.pop_back();
        if (!node->is_structured())
            continue;
        deepest = std::max(deepest, depth);
        for (const Oracle &child : *node)
            todo.emplace_back(&child, depth + 1);
    }
    return deepest;
}

bool sameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

std::string describe(double d)
{
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", d);
    return buf;
}

// Compares the trees; on the first difference sets `detail` (with the path) and returns false. A negative zero the
// core read where nlohmann has the integer 0 is the documented difference, noted in `documented`.
bool sameTree(const json::Value &ours, const Oracle &theirs, const std::string &path, std::string &detail,
              Difference &documented)
{
    const auto differ = [&](const std::string &what) {
        detail = (path.empty() ? std::string("the root") : path) + ": " + what;
        return false;
    };
    switch (ours.type()) {
    case json::Type::Null:
        return theirs.is_null() || differ(std::string("core null, nlohmann ") + theirs.type_name());
    case json::Type::Bool:
        if (!theirs.is_boolean())
            return differ(std::string("core boolean, nlohmann ") + theirs.type_name());
        return ours.asBool() == theirs.get<bool>() || differ("booleans differ");
    case json::Type::Number: {
        if (!theirs.is_number())
            return differ(std::string("core number, nlohmann ") + theirs.type_name());
        const double mine = ours.asNumber();
        double other = 0;
        if (theirs.is_number_unsigned())
            other = double(theirs.get<std::uint64_t>());
        else if (theirs.is_number_integer())
            other = double(theirs.get<std::int64_t>());
        else
            other = theirs.get<double>();
        if (sameBits(mine, other))
            return true;
        if (theirs.is_number_integer() && mine == 0 && std::signbit(mine) && other == 0) {
            if (documented == Difference::None)
                documented = Difference::NegativeZero;
            return true;
        }
        return differ("numbers differ: core " + describe(mine) + ", nlohmann " + describe(other));
    }
    case json::Type::String: {
        if (!theirs.is_string())
            return differ(std::string("core string, nlohmann ") + theirs.type_name());
        return ours.decodedString() == theirs.get_ref<const std::string &>() || differ("strings differ");
    }
    case json::Type::Array: {
        if (!theirs.is_array())
            return differ(std::string("core array, nlohmann ") + theirs.type_name());
        if (ours.size() != theirs.size())
            return differ("core " + std::to_string(ours.size()) + " items, nlohmann " + std::to_string(theirs.size()));
        for (std::size_t i = 0; i < ours.size(); ++i)
            if (!sameTree(ours.at(i), theirs[i], path + "[" + std::to_string(i) + "]", detail, documented))
                return false;
        return true;
    }
    case json::Type::Object: {
        if (!theirs.is_object())
            return differ(std::string("core object, nlohmann ") + theirs.type_name());
        if (ours.memberCount() != theirs.size())
            return differ("core " + std::to_string(ours.memberCount()) + " members, nlohmann " +
                          std::to_string(theirs.size()));
        bool reordered = false;
        const auto members = inJavaScriptOrder(theirs, reordered);
        if (reordered && documented == Difference::None)
            documented = Difference::IndexNamesFirst;
        std::size_t i = 0;
        for (const json::Member *m = ours.memberBegin(); m != ours.memberEnd(); ++m, ++i) {
            if (m->key.view() != members[i].first)
                return differ("member " + std::to_string(i) + " is named differently (order or name)");
            if (!sameTree(m->value, *members[i].second, path + "." + std::string(m->key.view()).substr(0, 40), detail,
                          documented))
                return false;
        }
        return true;
    }
    }
    return differ("a core value of no known type");
}

} // namespace

const char *nameOf(Difference d)
{
    switch (d) {
    case Difference::None:
        return "none";
    case Difference::LoneSurrogate:
        return "lone-surrogate";
    case Difference::Nesting:
        return "nesting";
    case Difference::ByteOrderMark:
        return "byte-order-mark";
    case Difference::NegativeZero:
        return "negative-zero";
    case Difference::InfiniteNumber:
        return "infinite-number";
    case Difference::IndexNamesFirst:
        return "index-names-first";
    case Difference::NulEndsInput:
        return "nul-ends-input";
    }
    return "?";
}

Verdict compare(std::string_view text)
{
    Verdict verdict;
    CoreParse core, deferred;
    parseWithCore(text, json::defaultDeferEscapedStringBytes(), core);
    parseWithCore(text, 0, deferred);
    const Oracle theirs = Oracle::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    const bool theyAccept = !theirs.is_discarded();

    // Deferring escaped strings is a memory choice of the core: it must never change a verdict or a value.
    if (core.ok != deferred.ok) {
        verdict.detail = "the core's verdict changes with deferred strings";
        return verdict;
    }
    verdict.accepted = core.ok;

    if (core.ok && !theyAccept) {
        if (anyLoneSurrogate(core.root)) {
            verdict.agree = true;
            verdict.documented = Difference::LoneSurrogate;
            return verdict;
        }
        if (anyInfinity(core.root)) {
            verdict.agree = true;
            verdict.documented = Difference::InfiniteNumber;
            return verdict;
        }
        verdict.detail = "the core accepts, nlohmann refuses";
        return verdict;
    }
    if (!core.ok && theyAccept) {
        if (core.error.reason.rfind("nesting deeper than", 0) == 0 && depthOf(theirs) > 512) {
            verdict.agree = true;
            verdict.documented = Difference::Nesting;
            return verdict;
        }
        if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
            // nlohmann stopped at the NUL; the core read on and refused it. What came before must read alike.
            Verdict before = compare(text.substr(0, nul));
            before.documented = before.documented == Difference::None ? Difference::NulEndsInput : before.documented;
            before.accepted = false;
            return before;
        }
        if (text.substr(0, 3) == "\xEF\xBB\xBF") {
            // The core refuses the mark as JSON.parse does; what follows must still read alike.
            Verdict rest = compare(text.substr(3));
            rest.documented = rest.documented == Difference::None ? Difference::ByteOrderMark : rest.documented;
            rest.accepted = false;
            return rest;
        }
        verdict.detail = "the core refuses (" + core.error.describe() + "), nlohmann accepts";
        return verdict;
    }
    if (!core.ok) {
        verdict.agree = true; // refused by both
        return verdict;
    }
    std::string detail;
    if (!sameTree(core.root, theirs, "", detail, verdict.documented)) {
        verdict.detail = detail;
        return verdict;
    }
    Difference again = Difference::None;
    if (!sameTree(deferred.root, theirs, "", detail, again)) {
        verdict.detail = "with deferred strings: " + detail;
        return verdict;
    }
    verdict.agree = true;
    return verdict;
}

} // namespace tf::fuzz::oracle
