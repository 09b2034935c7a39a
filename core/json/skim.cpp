#include "skim.h"

#include "parser.h"
#include "stringbody.h"

#include <algorithm>
#include <cerrno>
#include <string>
#include <unistd.h>

namespace tf::json {

namespace {

// The part of the text the skim can read now: all of it in memory, or a few megabytes of a file read with pread.
// The skim only moves forward, so a window is only ever moved on.
class Window
{
public:
    explicit Window(std::string_view text)
        : m_size(text.size())
        , m_view(text)
    {
    }
    Window(int fd, std::size_t size, std::size_t chunkBytes)
        : m_fd(fd)
        , m_size(size)
        , m_buffer(std::max<std::size_t>(1, chunkBytes), '\0')
    {
    }

    std::size_t size() const { return m_size; }
    std::size_t base() const { return m_base; }
    std::string_view view() const { return m_view; }
    char at(std::size_t p) const { return m_view[p - m_base]; }

    // Whether `p` can be read, moving the window there when it is past it; false at the text's end (or a file that
    // ends early: it was truncated under the skim, which then ends as at the end).
    bool reach(std::size_t p)
    {
        if (p >= m_base && p < m_base + m_view.size())
            return true;
        return moveTo(p);
    }
    // Makes the window start at `from`.
    bool moveTo(std::size_t from)
    {
        if (m_fd < 0 || from >= m_size)
            return false;
        std::size_t got = 0;
        const std::size_t want = std::min(m_buffer.size(), m_size - from);
        while (got < want) {
            const ssize_t n = ::pread(m_fd, m_buffer.data() + got, want - got, off_t(from + got));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            got += std::size_t(n);
        }
        m_base = from;
        m_view = std::string_view(m_buffer.data(), got);
        return got > 0;
    }

private:
    int m_fd = -1;
    std::size_t m_size = 0;
    std::size_t m_base = 0;
    std::string_view m_view;
    std::string m_buffer;
};

// Past the closing quote of the string whose opening quote is at `quote`; the text's end when it has none. A string
// longer than the window goes on in the next one; an escape cut by the window's end skips the next window's first byte.
std::size_t skipString(Window &w, std::size_t quote)
{
    std::size_t p = quote + 1;
    bool escaped = false;
    while (w.reach(p)) {
        if (escaped) {
            escaped = false;
            p += 1;
            continue;
        }
        const std::size_t local = p - w.base();
        const std::string_view view = w.view();
        const std::size_t end = endOfStringBody(view, local);
        if (end < view.size())
            return w.base() + end + 1;
        std::size_t backslashes = 0;
        while (backslashes < view.size() - local && view[view.size() - 1 - backslashes] == '\\')
            ++backslashes;
        escaped = backslashes % 2 == 1;
        p = w.base() + view.size();
    }
    return w.size();
}

std::size_t skipSpace(Window &w, std::size_t p)
{
    while (w.reach(p) && isJsonSpace(w.at(p)))
        ++p;
    return p;
}

void skim(Window &w, std::size_t rootOffset, std::size_t maxDepth,
          const std::function<bool(const std::vector<std::string_view> &path, std::size_t offset)> &found,
          const std::function<bool(std::size_t offset)> &passed)
{
    constexpr std::size_t kPassedStep = 2u << 20;
    std::size_t nextPassed = rootOffset + kPassedStep;
    struct Frame
    {
        bool object;
        bool expectKey;
        bool tracked; // reached through objects only, within maxDepth
    };
    // Frames down to the first untracked container only; what is nested in that is counted, not kept (a hostile
    // file of a gigabyte of '[' must not cost gigabytes).
    std::vector<Frame> stack;
    std::size_t untracked = 0;
    std::vector<std::string> path; // the member names of the tracked frames, copied: a window moves on
    std::vector<std::string_view> pathViews;
    std::size_t p = rootOffset;
    while (w.reach(p)) {
        if (p >= nextPassed) {
            if (passed && !passed(p))
                return;
            nextPassed = p + kPassedStep;
        }
        const char c = w.at(p);
        if (c == '"') {
            const bool key = untracked == 0 && !stack.empty() && stack.back().object && stack.back().expectKey;
            const std::size_t quote = p;
            p = skipString(w, quote);
            if (!key)
                continue;
            stack.back().expectKey = false;
            if (!stack.back().tracked || stack.size() > maxDepth)
                continue;
            // A tracked key is read whole from one window: one cut by the window's end is read again from its quote.
            if (quote < w.base() || p > w.base() + w.view().size()) {
                if (!w.moveTo(quote) || w.base() + w.view().size() < p)
                    return; // a key longer than a window: nothing a recording holds; the reader goes without
            }
            const std::string_view keyText = w.view().substr(quote + 1 - w.base(), p - 1 - (quote + 1));
            path.resize(stack.size() - 1);
            path.emplace_back(keyText);
            p = skipSpace(w, p);
            if (w.reach(p) && w.at(p) == ':')
                p = skipSpace(w, p + 1);
            pathViews.assign(path.begin(), path.end());
            if (!found(pathViews, p))
                return;
            continue;
        }
        switch (c) {
        case '{':
        case '[': {
            if (untracked > 0 || (!stack.empty() && !stack.back().tracked)) {
                ++untracked;
                break;
            }
            const bool parentTracked = stack.empty() || stack.back().object;
            stack.push_back({c == '{', c == '{', parentTracked && stack.size() < maxDepth});
            break;
        }
        case '}':
        case ']':
            if (untracked > 0) {
                --untracked;
                break;
            }
            if (stack.empty())
                return;
            stack.pop_back();
            if (stack.empty())
                return;
            break;
        case ',':
            if (untracked == 0 && !stack.empty() && stack.back().object)
                stack.back().expectKey = true;
            break;
        default:
            break;
        }
        ++p;
    }
}

} // namespace

void skimMembers(std::string_view text, std::size_t rootOffset, std::size_t maxDepth,
                 const std::function<bool(const std::vector<std::string_view> &path, std::size_t offset)> &found,
                 const std::function<bool(std::size_t offset)> &passed)
{
    Window whole(text);
    skim(whole, rootOffset, maxDepth, found, passed);
}

void skimMembersOfFile(int fd, std::size_t size, std::size_t rootOffset, std::size_t maxDepth,
                       const std::function<bool(const std::vector<std::string_view> &path, std::size_t offset)> &found,
                       std::size_t chunkBytes, const std::function<bool(std::size_t offset)> &passed)
{
    Window window(fd, size, chunkBytes);
    skim(window, rootOffset, maxDepth, found, passed);
}

} // namespace tf::json
