#include "writer.h"

#include "../text/utf.h"
#include "jsnumber.h"

#include <algorithm>
#include <cmath>

namespace tf::json {

namespace {

const char kHex[] = "0123456789abcdef";

void appendNumberForJson(std::string &out, double d)
{
    if (!std::isfinite(d))
        out += "null";
    else
        appendJsNumber(out, d);
}

bool hasNonAscii(std::string_view s)
{
    return std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
}

// One writer for both renderings: JSON.stringify in the value's own member order, or with the keys of every object
// sorted (spec/recording.md §6.4). Only the object case differs.
void appendJson(std::string &out, const Value &v, bool sortKeys);

void appendStringValue(std::string &out, const Value &v)
{
    std::string_view body;
    if (v.stringifyBody(body)) {
        out += '"';
        out.append(body);
        out += '"';
    } else {
        std::string scratch;
        appendJsString(out, v.stringView(scratch));
    }
}

void appendSortedMembers(std::string &out, const Value &v);

void appendSortedMembers(std::string &out, const Value &v)
{
    std::vector<const Member *> order;
    order.reserve(v.memberCount());
    for (const Member *m = v.memberBegin(); m != v.memberEnd(); ++m)
        order.push_back(m);
    std::sort(order.begin(), order.end(), [](const Member *a, const Member *b) {
        const bool ai = isArrayIndexKey(a->key), bi = isArrayIndexKey(b->key);
        if (ai != bi)
            return ai;
        if (ai)
            return a->key.size() != b->key.size() ? a->key.size() < b->key.size() : a->key < b->key;
        return lessUtf16(a->key, b->key);
    });
    out += '{';
    bool first = true;
    for (const Member *m : order) {
        if (!first)
            out += ',';
        first = false;
        appendJsString(out, m->key);
        out += ':';
        appendJson(out, m->value, true);
    }
    out += '}';
}

void appendJson(std::string &out, const Value &v, bool sortKeys)
{
    switch (v.type()) {
    case Type::Null:
        out += "null";
        return;
    case Type::Bool:
        out += v.asBool() ? "true" : "false";
        return;
    case Type::Number:
        appendNumberForJson(out, v.asNumber());
        return;
    case Type::String:
        appendStringValue(out, v);
        return;
    case Type::Array: {
        out += '[';
        bool first = true;
        for (const Value &item : v) {
            if (!first)
                out += ',';
            first = false;
            appendJson(out, item, sortKeys);
        }
        out += ']';
        return;
    }
    case Type::Object: {
        if (sortKeys) {
            appendSortedMembers(out, v);
            return;
        }
        out += '{';
        bool first = true;
        for (const Member *m = v.memberBegin(); m != v.memberEnd(); ++m) {
            if (!first)
                out += ',';
            first = false;
            appendJsString(out, m->key);
            out += ':';
            appendJson(out, m->value, false);
        }
        out += '}';
        return;
    }
    }
}

void appendPretty(std::string &out, const Value &v, int indent, int depth)
{
    const auto newline = [&](int d) {
        out += '\n';
        out.append(std::size_t(indent * d), ' ');
    };
    if (v.isArray()) {
        if (v.size() == 0) {
            out += "[]";
            return;
        }
        out += '[';
        bool first = true;
        for (const Value &item : v) {
            if (!first)
                out += ',';
            first = false;
            newline(depth + 1);
            appendPretty(out, item, indent, depth + 1);
        }
        newline(depth);
        out += ']';
    } else if (v.isObject()) {
        if (v.memberCount() == 0) {
            out += "{}";
            return;
        }
        out += '{';
        bool first = true;
        for (const Member *m = v.memberBegin(); m != v.memberEnd(); ++m) {
            if (!first)
                out += ',';
            first = false;
            newline(depth + 1);
            appendJsString(out, m->key);
            out += ": ";
            appendPretty(out, m->value, indent, depth + 1);
        }
        newline(depth);
        out += '}';
    } else {
        appendStringify(out, v);
    }
}

} // namespace

bool lessUtf16(std::string_view a, std::string_view b)
{
    // UTF-8 byte order is code point order; it differs from UTF-16 order only above U+FFFF, so decode only then.
    if (!hasNonAscii(a) || !hasNonAscii(b))
        return a < b;
    return text::toUtf16(a) < text::toUtf16(b);
}

namespace {

// JSON.stringify's escaping of one WTF-8 string, quotes included, written to `out`: the text itself (StringOut) or
// only how long it would be (LengthOut). The one rule for appendJsString and the lengths.
template <typename Out>
void escapeJsString(Out &out, std::string_view s)
{
    out.ascii("\"", 1);
    std::size_t runStart = 0;
    const auto flush = [&](std::size_t upTo) {
        if (upTo > runStart)
            out.raw(s.substr(runStart, upTo - runStart));
    };
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        const char *esc = nullptr;
        switch (c) {
        case '"':
            esc = "\\\"";
            break;
        case '\\':
            esc = "\\\\";
            break;
        case '\b':
            esc = "\\b";
            break;
        case '\f':
            esc = "\\f";
            break;
        case '\n':
            esc = "\\n";
            break;
        case '\r':
            esc = "\\r";
            break;
        case '\t':
            esc = "\\t";
            break;
        default:
            break;
        }
        if (esc) {
            flush(i);
            out.ascii(esc, 2);
            runStart = i + 1;
        } else if (c < 0x20) {
            flush(i);
            const char unit[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
            out.ascii(unit, 6);
            runStart = i + 1;
        } else if (c == 0xED && i + 2 < s.size() && (static_cast<unsigned char>(s[i + 1]) & 0xE0) == 0xA0) {
            // A surrogate code point in WTF-8 is always lone (pairs are stored as 4-byte sequences).
            flush(i);
            const unsigned cp = ((c & 0x0Fu) << 12) | ((static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 6) |
                                (static_cast<unsigned char>(s[i + 2]) & 0x3Fu);
            const char unit[6] = {'\\',         'u', kHex[(cp >> 12) & 15], kHex[(cp >> 8) & 15], kHex[(cp >> 4) & 15],
                                  kHex[cp & 15]};
            out.ascii(unit, 6);
            i += 2;
            runStart = i + 1;
        }
    }
    flush(s.size());
    out.ascii("\"", 1);
}

struct StringOut
{
    std::string &text;
    void raw(std::string_view run) { text.append(run); }
    void ascii(const char *p, std::size_t n) { text.append(p, n); }
};

// What escapeJsString would write: bytes, and with `Units` also UTF-16 code units (escapes are ASCII, and what is
// copied as is holds no surrogate, those being escaped).
template <bool Units>
struct LengthOut
{
    std::size_t bytes = 0, units = 0;
    void raw(std::string_view run)
    {
        bytes += run.size();
        if constexpr (Units)
            units += text::lengthU16(run);
    }
    void ascii(const char *, std::size_t n)
    {
        bytes += n;
        units += n;
    }
};

} // namespace

void appendJsString(std::string &out, std::string_view s)
{
    StringOut sink{out};
    escapeJsString(sink, s);
}

std::size_t jsStringLength(std::string_view s)
{
    LengthOut<false> length;
    escapeJsString(length, s);
    return length.bytes;
}

JsStringSize jsStringSize(std::string_view s)
{
    LengthOut<true> length;
    escapeJsString(length, s);
    return {length.units, length.bytes};
}

std::size_t stringifiedLength(const Value &v)
{
    std::string_view body;
    if (v.stringifyBody(body))
        return body.size() + 2;
    std::string scratch;
    return jsStringLength(v.stringView(scratch));
}

std::string jsQuoted(std::string_view s)
{
    std::string out;
    appendJsString(out, s);
    return out;
}

void appendStringify(std::string &out, const Value &v)
{
    appendJson(out, v, false);
}

std::string stringify(const Value &v)
{
    std::string out;
    appendStringify(out, v);
    return out;
}

void appendSortedKeyJson(std::string &out, const Value &v)
{
    appendJson(out, v, true);
}

std::string sortedKeyJson(const Value &v)
{
    std::string out;
    appendJson(out, v, true);
    return out;
}

std::string prettyPrint(const Value &v, int indent, int depth)
{
    std::string out;
    appendPretty(out, v, indent, depth);
    return out;
}

void appendPrettyPrint(std::string &out, const Value &v, int indent, int depth)
{
    appendPretty(out, v, indent, depth);
}

bool deepEqual(const Value &a, const Value &b)
{
    if (a.type() != b.type())
        return false;
    switch (a.type()) {
    case Type::Null:
        return true;
    case Type::Bool:
        return a.asBool() == b.asBool();
    case Type::Number:
        return a.asNumber() == b.asNumber();
    case Type::String: {
        std::string scratchA, scratchB;
        return a.stringView(scratchA) == b.stringView(scratchB);
    }
    case Type::Array:
        if (a.size() != b.size())
            return false;
        if (a.identity() == b.identity())
            return true;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!deepEqual(a.at(i), b.at(i)))
                return false;
        return true;
    case Type::Object:
        if (a.memberCount() != b.memberCount())
            return false;
        if (a.identity() == b.identity())
            return true;
        for (const Member *m = a.memberBegin(); m != a.memberEnd(); ++m) {
            const Value *other = b.find(m->key);
            if (!other || !deepEqual(m->value, *other))
                return false;
        }
        return true;
    }
    return false;
}

} // namespace tf::json
