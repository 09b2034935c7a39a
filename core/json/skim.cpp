#include "skim.h"

#include "parser.h"
#include "stringbody.h"

namespace tf::json {

namespace {

// Past the closing quote of the string whose body starts at `p`; the text's end when it has none.
std::size_t skipStringBody(std::string_view text, std::size_t p)
{
    const std::size_t quote = endOfStringBody(text, p);
    return quote < text.size() ? quote + 1 : text.size();
}

std::size_t skipSpace(std::string_view text, std::size_t p)
{
    while (p < text.size() && isJsonSpace(text[p]))
        ++p;
    return p;
}

} // namespace

void skimMembers(std::string_view text, std::size_t rootOffset, std::size_t maxDepth,
                 const std::function<bool(const std::vector<std::string_view> &path, std::size_t offset)> &found,
                 const std::function<void(std::size_t offset)> &passed)
{
    constexpr std::size_t kPassedStep = 2u << 20;
    std::size_t nextPassed = rootOffset + kPassedStep;
    struct Frame
    {
        bool object;
        bool expectKey;
        bool tracked; // reached through objects only, within maxDepth
    };
    std::vector<Frame> stack;
    std::vector<std::string_view> path; // the member names of the tracked frames
    std::size_t p = rootOffset;
    while (p < text.size()) {
        if (p >= nextPassed) {
            if (passed)
                passed(p);
            nextPassed = p + kPassedStep;
        }
        const char c = text[p];
        if (c == '"') {
            const std::size_t body = p + 1;
            p = skipStringBody(text, body);
            if (stack.empty() || !stack.back().object || !stack.back().expectKey)
                continue;
            stack.back().expectKey = false;
            const std::string_view key = text.substr(body, p - 1 - body);
            p = skipSpace(text, p);
            if (p < text.size() && text[p] == ':')
                p = skipSpace(text, p + 1);
            if (!stack.back().tracked || stack.size() > maxDepth)
                continue;
            path.resize(stack.size() - 1);
            path.push_back(key);
            if (!found(path, p))
                return;
            continue;
        }
        switch (c) {
        case '{':
        case '[': {
            const bool parentTracked = stack.empty() || (stack.back().tracked && stack.back().object);
            stack.push_back({c == '{', c == '{', parentTracked && stack.size() < maxDepth});
            break;
        }
        case '}':
        case ']':
            if (stack.empty())
                return;
            stack.pop_back();
            if (stack.empty())
                return;
            break;
        case ',':
            if (!stack.empty() && stack.back().object)
                stack.back().expectKey = true;
            break;
        default:
            break;
        }
        ++p;
    }
}

} // namespace tf::json
