#include "locate.h"

#include "parser.h"

namespace tf::json {

namespace {

std::size_t skipSpace(std::string_view t, std::size_t p)
{
    while (p < t.size() && isJsonSpace(t[p]))
        ++p;
    return p;
}

// Offset just past the string starting at p (which is '"').
std::size_t skipString(std::string_view t, std::size_t p)
{
    ++p;
    while (p < t.size()) {
        if (t[p] == '\\')
            p += 2;
        else if (t[p] == '"')
            return p + 1;
        else
            ++p;
    }
    return t.size();
}

// Offset just past the value starting at p. Iterative, so depth costs no stack.
std::size_t skipValue(std::string_view t, std::size_t p)
{
    p = skipSpace(t, p);
    std::size_t depth = 0;
    do {
        if (p >= t.size())
            return t.size();
        const char c = t[p];
        if (c == '"') {
            p = skipString(t, p);
        } else if (c == '{' || c == '[') {
            ++depth;
            ++p;
        } else if (c == '}' || c == ']') {
            --depth;
            ++p;
        } else if (c == ',' || c == ':' || isJsonSpace(c)) {
            ++p;
        } else {
            while (p < t.size() && t[p] != ',' && t[p] != '}' && t[p] != ']' && !isJsonSpace(t[p]))
                ++p;
        }
        if (depth > 0)
            continue;
        return p;
    } while (true);
}

std::string decodeKey(std::string_view t, std::size_t p, std::size_t end)
{
    StringArena arena;
    ParseError error;
    const Value v = parse(t.substr(0, end), arena, error, p);
    return std::string(v.asString());
}

} // namespace

std::optional<std::size_t> locate(std::string_view t, const std::vector<PathStep> &path, std::size_t rootOffset)
{
    std::size_t p = skipSpace(t, rootOffset);
    for (const PathStep &step : path) {
        if (p >= t.size())
            return std::nullopt;
        if (const auto *key = std::get_if<std::string>(&step)) {
            if (t[p] != '{')
                return std::nullopt;
            p = skipSpace(t, p + 1);
            std::optional<std::size_t> found;
            // The last duplicate wins, as in JSON.parse.
            while (p < t.size() && t[p] == '"') {
                const std::size_t keyEnd = skipString(t, p);
                const bool match = decodeKey(t, p, keyEnd) == *key;
                p = skipSpace(t, keyEnd);
                if (p < t.size() && t[p] == ':')
                    p = skipSpace(t, p + 1);
                if (match)
                    found = p;
                p = skipSpace(t, skipValue(t, p));
                if (p < t.size() && t[p] == ',')
                    p = skipSpace(t, p + 1);
                else
                    break;
            }
            if (!found)
                return std::nullopt;
            p = *found;
        } else {
            const std::size_t index = std::get<std::size_t>(step);
            if (t[p] != '[')
                return std::nullopt;
            p = skipSpace(t, p + 1);
            for (std::size_t i = 0; i < index; ++i) {
                p = skipSpace(t, skipValue(t, p));
                if (p < t.size() && t[p] == ',')
                    p = skipSpace(t, p + 1);
                else
                    return std::nullopt;
            }
            if (p >= t.size() || t[p] == ']')
                return std::nullopt;
        }
    }
    return p;
}

std::string describePath(const std::vector<PathStep> &path)
{
    std::string out;
    for (const PathStep &step : path) {
        if (const auto *key = std::get_if<std::string>(&step)) {
            if (!out.empty())
                out += '.';
            out += *key;
        } else {
            out += '[' + std::to_string(std::get<std::size_t>(step)) + ']';
        }
    }
    return out;
}

} // namespace tf::json
