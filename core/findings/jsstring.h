#pragma once

#include "core/json/value.h"

#include <string>
#include <string_view>

// The JavaScript semantics the findings readers lean on when they touch a row: property reads that never throw,
// String() for template interpolation, and Map key identity. Library-made rows only ever hit the string cases; the
// rest keeps a damaged or fuzzed recording from crashing the engine (spec/findings.md §9.4).
namespace tf::findings {

// `obj[key]` with JavaScript's forgiving reads: nullptr ("undefined") when `obj` is absent, not an object, or
// lacks the key. Upstream would throw on some of these (reading through undefined); Tracefold reports such rows
// through validateRows() and renders them as if the field were absent.
const json::Value *member(const json::Value *obj, std::string_view key);

// JavaScript String(v) (§9.4), as WTF-8: nullptr is "undefined"; strings as they are; numbers per §9.2; arrays
// joined with "," where null and absent elements give ""; any other object is "[object Object]".
void appendStringOf(std::string &out, const json::Value *v);
std::string stringOf(const json::Value *v);

// The key a JavaScript Map would file `v` under (SameValueZero). A string id is its own WTF-8 bytes, so lookups
// by a served id need no conversion. Every other type is tagged behind a 0xFF byte, which never occurs in WTF-8,
// so the number 1 and the string "1" stay two keys as they are in JavaScript; arrays and objects are keyed by node
// identity, and an absent id by the one key `undefined`.
std::string jsMapKey(const json::Value *v);

// `v === true`, `v === "literal"`: strict equality against a literal, never a coercion.
inline bool isTrue(const json::Value *v)
{
    return v && v->isBool() && v->asBool();
}
inline bool isString(const json::Value *v, std::string_view literal)
{
    return v && v->isString() && v->asString() == literal;
}

} // namespace tf::findings
