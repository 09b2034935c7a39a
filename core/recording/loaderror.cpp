#include "loaderror.h"

#include "core/json/parser.h"

namespace tf::recording {

namespace {

const char *articleType(json::Type t)
{
    switch (t) {
    case json::Type::Null:
        return "null";
    case json::Type::Bool:
        return "a boolean";
    case json::Type::Number:
        return "a number";
    case json::Type::String:
        return "a string";
    case json::Type::Array:
        return "an array";
    case json::Type::Object:
        return "an object";
    }
    return "a value";
}

} // namespace

std::string LoadErrors::where(const std::vector<json::PathStep> &path) const
{
    std::string out = json::describePath(path);
    if (const auto offset = json::locate(m_text, path, m_rootOffset)) {
        std::size_t line = 0, column = 0;
        json::lineColumnAt(m_text, *offset, line, column);
        out += " (byte " + std::to_string(*offset) + ", line " + std::to_string(line) + ", column " +
               std::to_string(column) + ")";
    }
    return out;
}

void LoadErrors::wrongType(const std::vector<json::PathStep> &path, const char *expected,
                           const json::Value *found) const
{
    throw LoadFailure(m_file + ": " + where(path) + ": expected " + expected + ", found " +
                      (found ? articleType(found->type()) : "nothing (the member is missing)"));
}

void LoadErrors::fail(const std::string &message) const
{
    throw LoadFailure(m_file + ": " + message);
}

const json::Value *LoadErrors::optional(const json::Value &parent, std::vector<json::PathStep> path,
                                        json::Type wanted) const
{
    const auto &key = std::get<std::string>(path.back());
    const json::Value *v = parent.find(key);
    if (!v)
        return nullptr;
    if (v->type() != wanted)
        wrongType(path, articleType(wanted), v);
    return v;
}

const json::Value &LoadErrors::required(const json::Value &parent, std::vector<json::PathStep> path,
                                        json::Type wanted) const
{
    const json::Value *v = optional(parent, path, wanted);
    if (!v)
        wrongType(path, articleType(wanted), nullptr);
    return *v;
}

} // namespace tf::recording
