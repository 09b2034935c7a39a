#pragma once

// nlohmann_json as a second opinion on Tracefold's JSON reader (core/json): one input, both parsers, the same
// verdict required — accepted by both or refused by both, and when accepted the same tree: types, member order
// (nlohmann::ordered_json keeps insertion order; both keep a duplicated name at its first position with its last
// value, as JSON.parse does), strings byte for byte and numbers bit for bit. Used by the ctest tst_jsonoracle (every
// stored input) and the libFuzzer target fuzz_json_oracle (new ones).
//
// The differences that are by design, each recognised from the input and the two results, never assumed:
//  - lone-surrogate: a `\udXXX` escape with no partner. JSON.stringify writes one when a clip splits a pair, so the
//    core reads it (as WTF-8); nlohmann requires well-formed UTF-16 and refuses the document.
//  - nesting: deeper than 512 levels, which the core refuses (README "Limits on hostile input") and nlohmann reads.
//  - byte-order-mark: nlohmann skips a UTF-8 BOM before the value; JSON.parse, and the core, refuse it (the rest
//    is then compared without it).
//  - negative-zero: nlohmann reads `-0` (no fraction, no exponent) as the integer 0; JSON.parse and the core read
//    the double -0. `-0.0` and `-0e0` are doubles in both and must agree to the bit.
//  - infinite-number: a literal beyond the double range (`1e400`): JSON.parse, and the core, read Infinity;
//    nlohmann refuses the document.
//  - index-names-first: JavaScript orders an object's array-index names (`"0"`, `"42"`: canonical integers below
//    2^32-1) first, ascending, then the other names in insertion order; the core keeps that order (it rebuilds
//    JSON.stringify's bytes), nlohmann keeps insertion order. Its members are compared in the JavaScript order.
//  - nul-ends-input: nlohmann's lexer takes a NUL byte outside a string for the end of the input, so `{} \0junk`
//    reads as `{}`; JSON.parse and the core refuse the NUL. The text before the first NUL is then compared.
//    (Found by fuzz_json_oracle.)

#include <string>
#include <string_view>

namespace tf::fuzz::oracle {

enum class Difference
{
    None,
    LoneSurrogate,
    Nesting,
    ByteOrderMark,
    NegativeZero,
    InfiniteNumber,
    IndexNamesFirst,
    NulEndsInput
};

const char *nameOf(Difference d);

struct Verdict
{
    bool agree = false;
    bool accepted = false;                    // by the core (after the documented differences)
    Difference documented = Difference::None; // the first documented difference met, if any
    std::string detail;                       // where and how they disagree, when they do
};

// Parses `text` as one JSON document with both readers (the core twice: with its default limits and with every
// escaped string deferred, which must not change a thing) and compares.
Verdict compare(std::string_view text);

} // namespace tf::fuzz::oracle
