#include "jsstring.h"

#include "core/json/jsnumber.h"
#include "core/json/writer.h"

#include <cstdint>
#include <cstdio>

namespace tf::findings {

const json::Value *member(const json::Value *obj, std::string_view key)
{
    return obj ? obj->find(key) : nullptr; // find() answers nullptr for anything but an object
}

void appendStringOf(std::string &out, const json::Value *v)
{
    if (!v) {
        out += "undefined";
        return;
    }
    switch (v->type()) {
    case json::Type::Null:
        out += "null";
        return;
    case json::Type::Bool:
        out += v->asBool() ? "true" : "false";
        return;
    case json::Type::Number:
        json::appendJsNumber(out, v->asNumber());
        return;
    case json::Type::String:
        out += v->asString();
        return;
    case json::Type::Array: {
        // Array.prototype.join: null and undefined elements print as nothing; nesting is bounded by the parser.
        bool first = true;
        for (const json::Value &item : *v) {
            if (!first)
                out += ',';
            first = false;
            if (!item.isNull())
                appendStringOf(out, &item);
        }
        return;
    }
    case json::Type::Object:
        out += "[object Object]";
        return;
    }
}

std::string stringOf(const json::Value *v)
{
    std::string out;
    appendStringOf(out, v);
    return out;
}

std::string jsMapKey(const json::Value *v)
{
    if (v && v->isString())
        return v->decodedString();
    std::string key = "\xFF";
    if (!v) {
        key += "undefined";
    } else if (v->isArray() || v->isObject()) {
        char buf[2 + 2 * sizeof(std::uintptr_t) + 1];
        std::snprintf(buf, sizeof buf, "@%jx",
                      static_cast<std::uintmax_t>(reinterpret_cast<std::uintptr_t>(v->identity())));
        key += buf;
    } else {
        // null, booleans and numbers: the type name keeps them apart from each other; -0 and 0 print alike, which
        // is SameValueZero.
        key += json::typeName(v->type());
        key += ':';
        json::appendStringify(key, *v);
    }
    return key;
}

} // namespace tf::findings
