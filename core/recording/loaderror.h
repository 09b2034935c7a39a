#pragma once

#include "core/json/locate.h"
#include "core/json/value.h"

#include <stdexcept>
#include <string>
#include <string_view>

namespace tf::recording {

// Thrown inside the loader only and turned into LoadResult::error at its boundary; carries the final message.
struct LoadFailure : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

// Builds "<file>: <path> (byte N): expected <what>, found <type>" for a value of the wrong type.
class LoadErrors
{
public:
    LoadErrors(std::string file, std::string_view text, std::size_t rootOffset)
        : m_file(std::move(file))
        , m_text(text)
        , m_rootOffset(rootOffset)
    {
    }

    [[noreturn]] void wrongType(const std::vector<json::PathStep> &path, const char *expected,
                                const json::Value *found) const;
    [[noreturn]] void fail(const std::string &message) const;
    std::string where(const std::vector<json::PathStep> &path) const;
    const std::string &file() const { return m_file; }

    // Returns the member when it has the wanted type; absent → nullptr; wrong type → throws.
    const json::Value *optional(const json::Value &parent, std::vector<json::PathStep> path, json::Type wanted) const;
    const json::Value &required(const json::Value &parent, std::vector<json::PathStep> path, json::Type wanted) const;

private:
    std::string m_file;
    std::string_view m_text;
    std::size_t m_rootOffset;
};

} // namespace tf::recording
