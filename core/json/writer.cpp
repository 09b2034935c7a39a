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

void appendJsString(std::string &out, std::string_view s)
{
    out += '"';
    std::size_t runStart = 0;
    const auto flush = [&](std::size_t upTo) { out.append(s.data() + runStart, upTo - runStart); };
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
            out += esc;
            runStart = i + 1;
        } else if (c < 0x20) {
            flush(i);
            out += "\\u00";
            out += kHex[c >> 4];
            out += kHex[c & 15];
            runStart = i + 1;
        } else if (c == 0xED && i + 2 < s.size() && (static_cast<unsigned char>(s[i + 1]) & 0xE0) == 0xA0) {
            // A surrogate code point in WTF-8 is always lone (pairs are stored as 4-byte sequences).
            flush(i);
            const unsigned cp = ((c & 0x0Fu) << 12) | ((static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 6) |
                                (static_cast<unsigned char>(s[i + 2]) & 0x3Fu);
            out += "\\u";
            out += kHex[(cp >> 12) & 15];
            out += kHex[(cp >> 8) & 15];
            out += kHex[(cp >> 4) & 15];
            out += kHex[cp & 15];
            i += 2;
            runStart = i + 1;
        }
    }
    flush(s.size());
    out += '"';
}

std::size_t jsStringLength(std::string_view s)
{
    std::size_t length = 2;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t') {
            length += 2;
        } else if (c < 0x20) {
            length += 6;
        } else if (c == 0xED && i + 2 < s.size() && (static_cast<unsigned char>(s[i + 1]) & 0xE0) == 0xA0) {
            length += 6; // a lone surrogate, \udxxx
            i += 2;
        } else {
            ++length;
        }
    }
    return length;
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
