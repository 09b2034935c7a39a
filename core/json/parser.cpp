#include "parser.h"

#include "stringbody.h"
#include "stringends.h"

#include "core/io/environmentsize.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unordered_map>
#include <utility>

namespace tf::json {

std::string ParseError::describe() const
{
    return "invalid JSON at byte " + std::to_string(offset) + " (line " + std::to_string(line) + ", column " +
           std::to_string(column) + "): " + reason;
}

std::size_t defaultDeferEscapedStringBytes()
{
    static const std::size_t bytes = io::sizeFromEnvironment("TRACEFOLD_DEFER_ESCAPED_STRING_BYTES", 1024);
    return bytes;
}

std::string_view StringArena::copy(std::string_view s)
{
    constexpr std::size_t kBlockBytes = 64u << 10;
    if (s.empty())
        return {};
    if (s.size() > kBlockBytes / 4) {
        // A long string (decoded when deferral is off) gets a block of its own; the current block stays in use.
        m_blocks.push_back(std::make_unique<char[]>(s.size()));
        std::memcpy(m_blocks.back().get(), s.data(), s.size());
        return {m_blocks.back().get(), s.size()};
    }
    if (s.size() > m_blockFree) {
        m_blocks.push_back(std::make_unique<char[]>(kBlockBytes));
        m_blockNext = m_blocks.back().get();
        m_blockFree = kBlockBytes;
    }
    std::memcpy(m_blockNext, s.data(), s.size());
    const std::string_view out(m_blockNext, s.size());
    m_blockNext += s.size();
    m_blockFree -= s.size();
    return out;
}

void StringArena::adopt(StringArena &&other)
{
    // The other's current block goes first, so this one's stays the block new copies go to.
    m_blocks.insert(m_blocks.begin(), std::make_move_iterator(other.m_blocks.begin()),
                    std::make_move_iterator(other.m_blocks.end()));
    other.m_blocks.clear();
    other.m_blockFree = 0;
    other.m_blockNext = nullptr;
}

void lineColumnAt(std::string_view text, std::size_t offset, std::size_t &line, std::size_t &column)
{
    line = 1;
    column = 1;
    const std::size_t stop = std::min(offset, text.size());
    for (std::size_t i = 0; i < stop; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n') {
            ++line;
            column = 1;
        } else if ((c & 0xC0) != 0x80) {
            ++column;
        }
    }
}

namespace {

class Parser
{
public:
    Parser(std::string_view text, StringArena &arena, ParseError &error, const ParseLimits &limits,
           const StringEnds *knownEnds)
        : m_text(text)
        , m_arena(arena)
        , m_error(error)
        , m_limits(limits)
        , m_knownEnds(limits.trusted ? knownEnds : nullptr)
    {
    }

    bool parseValue(Value &out, std::size_t depth);
    void startTracking() { m_pathTracked = bool(m_limits.streamArrayAt) && bool(m_limits.onStreamedItem); }
    void skipSpace()
    {
        while (m_pos < m_text.size() && isJsonSpace(m_text[m_pos]))
            ++m_pos;
    }
    std::size_t m_pos = 0;
    // Containers at this depth or deeper are validated, not built, and so is everything inside them
    // (ParseLimits::skimContainersFrom, ParseLimits::streamedItemDepth).
    std::size_t m_skimFrom = SIZE_MAX;
    // parseStreamedArray: the array at this offset is streamed, its items this deep.
    std::size_t m_streamedAt = SIZE_MAX;
    std::size_t m_streamedItemDepth = SIZE_MAX;

private:
    bool fail(std::string reason, std::size_t at, bool locate = true)
    {
        if (!m_error.failed()) {
            m_error.offset = at;
            m_error.reason = std::move(reason);
            if (locate && m_limits.locateErrors)
                lineColumnAt(m_text, at, m_error.line, m_error.column);
        }
        return false;
    }
    // The caller stopped the parse (cancelled, or an item was enough): nothing is wrong with the text, and counting
    // the lines up to where it stopped would cost a pass over what was read (a gigabyte, for a load cancelled late).
    bool stop(std::string reason, std::size_t at) { return fail(std::move(reason), at, false); }
    bool failHere(std::string reason) { return fail(std::move(reason), m_pos); }
    std::string describeFound() const;

    StringBodyScan scanString(std::size_t start);
    bool parseKey(std::string_view &out, bool skim);
    bool parseStringValue(Value &out, bool mayDefer, bool copyShort, bool skim);
    bool parseNumber(Value &out, bool skim);
    bool parseArray(Value &out, std::size_t depth);
    bool parseObject(Value &out, std::size_t depth);
    bool parseLiteral(std::string_view word, Value v, Value &out);

    std::string_view m_text;
    StringArena &m_arena;
    ParseError &m_error;
    const ParseLimits &m_limits;
    StringEnds::Cursor m_knownEnds; // trusted text: where its long strings end
    std::size_t m_nextProgress = 0;
    std::string m_keyScratch;    // a decoded member name, until the caller has copied it
    SharedStringWriter m_shared; // selfContained: short strings
    // The member names from the root to the value being parsed, while every container on the way is an object and
    // some array may still be streamed (ParseLimits::streamArrayAt).
    std::vector<std::string> m_path;
    bool m_pathTracked = false;
    // The members and items of the containers being parsed, innermost last: each container moves its own into a
    // vector of the exact size when it closes, so parsing allocates once per container instead of once per growth.
    std::vector<Member> m_memberStack;
    std::vector<std::string_view> m_nameStack; // views of the members' names (into the text, arena or decodedNames)
    std::vector<Value> m_itemStack;
};

std::string Parser::describeFound() const
{
    if (m_pos >= m_text.size())
        return "end of input";
    const char c = m_text[m_pos];
    if (c >= 0x20 && c < 0x7F)
        return std::string("'") + c + "'";
    char buf[16];
    std::snprintf(buf, sizeof buf, "byte 0x%02X", static_cast<unsigned char>(c));
    return buf;
}

bool Parser::parseValue(Value &out, std::size_t depth)
{
    skipSpace();
    if (m_limits.progress && m_pos >= m_nextProgress) {
        m_nextProgress = m_pos + m_limits.progressIntervalBytes;
        if (!m_limits.progress(m_pos))
            return stop("cancelled", m_pos);
    }
    if (m_pos >= m_text.size())
        return failHere("expected a value, found end of input");
    switch (m_text[m_pos]) {
    case '{':
        return parseObject(out, depth);
    case '[':
        return parseArray(out, depth);
    case '"':
        return parseStringValue(out, true, true, depth > m_skimFrom);
    case 't':
        return parseLiteral("true", Value::boolean(true), out);
    case 'f':
        return parseLiteral("false", Value::boolean(false), out);
    case 'n':
        return parseLiteral("null", Value::null(), out);
    default:
        if (m_text[m_pos] == '-' || (m_text[m_pos] >= '0' && m_text[m_pos] <= '9'))
            return parseNumber(out, depth > m_skimFrom);
        return failHere("expected a value, found " + describeFound());
    }
}

bool Parser::parseLiteral(std::string_view word, Value v, Value &out)
{
    if (m_text.substr(m_pos, word.size()) != word)
        return failHere("expected '" + std::string(word) + "'");
    m_pos += word.size();
    out = std::move(v);
    return true;
}

bool Parser::parseNumber(Value &out, bool skim)
{
    const std::size_t start = m_pos;
    std::size_t p = m_pos;
    const auto digit = [&](std::size_t i) { return i < m_text.size() && m_text[i] >= '0' && m_text[i] <= '9'; };
    if (p < m_text.size() && m_text[p] == '-')
        ++p;
    if (!digit(p))
        return fail("expected a digit", p);
    if (m_text[p] == '0') {
        ++p;
    } else {
        while (digit(p))
            ++p;
    }
    if (p < m_text.size() && m_text[p] == '.') {
        ++p;
        if (!digit(p))
            return fail("expected a digit after the decimal point", p);
        while (digit(p))
            ++p;
    }
    if (p < m_text.size() && (m_text[p] == 'e' || m_text[p] == 'E')) {
        ++p;
        if (p < m_text.size() && (m_text[p] == '+' || m_text[p] == '-'))
            ++p;
        if (!digit(p))
            return fail("expected a digit in the exponent", p);
        while (digit(p))
            ++p;
    }
    if (skim) { // the grammar above is the validation: only a value out of range makes from_chars fail
        m_pos = p;
        out = Value::number(0);
        return true;
    }
    double d = 0;
    const char *first = m_text.data() + start;
    const auto res = std::from_chars(first, m_text.data() + p, d);
    if (res.ec == std::errc::result_out_of_range) {
        // JavaScript rounds to Infinity or to zero; from_chars refuses. Reproduce the JavaScript result.
        const bool neg = *first == '-';
        const char *e = static_cast<const char *>(std::memchr(first, 'e', p - start));
        if (!e)
            e = static_cast<const char *>(std::memchr(first, 'E', p - start));
        const bool tiny = e && e[1] == '-';
        d = tiny ? (neg ? -0.0 : 0.0) : (neg ? -HUGE_VAL : HUGE_VAL);
    } else if (res.ec != std::errc() || res.ptr != m_text.data() + p) {
        return fail("malformed number", start);
    }
    m_pos = p;
    out = Value::number(d);
    return true;
}

StringBodyScan Parser::scanString(std::size_t start)
{
    const StringBodyScan scan = m_knownEnds.scan(m_text, start, m_limits.trusted);
    if (m_limits.recordStringEnds && scan.error.empty())
        m_limits.recordStringEnds->add(start, scan);
    return scan;
}

bool Parser::parseKey(std::string_view &out, bool skim)
{
    const std::size_t start = ++m_pos; // past the quote
    const StringBodyScan scan = scanString(start);
    if (!scan.error.empty())
        return fail(scan.error, scan.errorOffset);
    out = m_text.substr(start, scan.end - start);
    m_pos = scan.end + 1;
    if (scan.escaped && !skim) {
        m_keyScratch.clear();
        decodeStringBody(out, m_keyScratch);
        out = m_keyScratch; // the caller copies it before the next name is read
    }
    return true;
}

bool Parser::parseStringValue(Value &out, bool mayDefer, bool copyShort, bool skim)
{
    const std::size_t start = ++m_pos; // past the quote
    const StringBodyScan scan = scanString(start);
    if (!scan.error.empty())
        return fail(scan.error, scan.errorOffset);
    const std::string_view body = m_text.substr(start, scan.end - start);
    m_pos = scan.end + 1;
    if (skim) {
        out = Value::borrowedString({});
        return true;
    }
    const bool copy = copyShort && body.size() <= kCopiedStringBytes;
    if (!scan.escaped) {
        if (!copy)
            out = Value::borrowedString(body);
        else
            out = m_limits.selfContained ? m_shared.copy(body) : Value::borrowedString(m_arena.copy(body));
    } else if (mayDefer && body.size() >= m_limits.deferEscapedStringBytes) {
        out = Value::deferredString(body, scan.stringifyForm);
    } else {
        std::string decoded;
        decodeStringBody(body, decoded);
        out = m_limits.selfContained ? m_shared.copy(decoded) : Value::borrowedString(m_arena.copy(decoded));
    }
    return true;
}

bool Parser::parseArray(Value &out, std::size_t depth)
{
    if (depth >= m_limits.maxDepth)
        return failHere("nesting deeper than " + std::to_string(m_limits.maxDepth) + " levels");
    const std::size_t begin = m_pos++;
    const bool skim = depth >= m_skimFrom;
    const bool streamed = begin == m_streamedAt || (m_pathTracked && m_limits.streamArrayAt(m_path));
    const std::size_t skimFrom = m_skimFrom;
    if (begin == m_streamedAt || (streamed && m_limits.streamedItemDepth)) {
        const std::size_t itemDepth = begin == m_streamedAt ? m_streamedItemDepth : m_limits.streamedItemDepth(m_path);
        m_skimFrom = itemDepth > m_limits.maxDepth ? SIZE_MAX : depth + 1 + itemDepth;
    }
    // Not an array inside a skimmed container, whose scalar items are not read either: an item depth does not say that.
    if (streamed && m_limits.readAhead && begin != m_streamedAt && skimFrom > depth) {
        // How deep the items are built, whichever limit set it.
        const std::size_t itemDepth = m_skimFrom == SIZE_MAX ? SIZE_MAX : m_skimFrom - depth - 1;
        if (const std::optional<std::size_t> end =
                m_limits.readAhead->take(begin, depth, itemDepth, m_limits.recordStringEnds)) {
            m_skimFrom = skimFrom;
            m_pos = *end;
            // Where a parse of the list would have been asked last, this one is asked now: a load cancelled while
            // the list was read ahead stops here, as it would have in the list.
            if (m_limits.progress) {
                m_nextProgress = m_pos + m_limits.progressIntervalBytes;
                if (!m_limits.progress(m_pos))
                    return stop("cancelled", m_pos);
            }
            out = Value::arrayFromItems({}, kNoSource);
            return true;
        }
    }
    // No array on the way to a streamed one: the path stops being tracked inside any array.
    const bool wasTracked = std::exchange(m_pathTracked, false);
    struct Restore
    {
        bool &flag;
        bool value;
        std::size_t &skimFrom;
        std::size_t skimValue;
        ~Restore()
        {
            flag = value;
            skimFrom = skimValue;
        }
    } restore{m_pathTracked, wasTracked, m_skimFrom, skimFrom};
    const std::size_t base = m_itemStack.size();
    struct Pop
    {
        std::vector<Value> &stack;
        std::size_t base;
        ~Pop() { stack.resize(base); } // also on failure: the stack is the parser's, reused by the next value
    } pop{m_itemStack, base};
    skipSpace();
    if (m_pos < m_text.size() && m_text[m_pos] == ']') {
        ++m_pos;
        out = Value::arrayFromItems({}, begin);
        return true;
    }
    while (true) {
        Value item;
        skipSpace();
        const std::size_t itemBegin = m_pos;
        if (!parseValue(item, depth + 1))
            return false;
        if (streamed) {
            if (!m_limits.onStreamedItem(std::move(item), itemBegin, m_pos))
                return stop("stopped", itemBegin);
        } else if (!skim) {
            m_itemStack.push_back(std::move(item));
        }
        skipSpace();
        if (m_pos >= m_text.size())
            return failHere("expected ',' or ']' in array, found end of input");
        if (m_text[m_pos] == ',') {
            ++m_pos;
            continue;
        }
        if (m_text[m_pos] == ']') {
            ++m_pos;
            break;
        }
        return failHere("expected ',' or ']' in array, found " + describeFound());
    }
    std::vector<Value> items(std::make_move_iterator(m_itemStack.begin() + std::ptrdiff_t(base)),
                             std::make_move_iterator(m_itemStack.end()));
    // A streamed array holds none of its items, so it is not what the text says: no source.
    out = Value::arrayFromItems(std::move(items), streamed ? kNoSource : begin);
    return true;
}

bool Parser::parseObject(Value &out, std::size_t depth)
{
    if (depth >= m_limits.maxDepth)
        return failHere("nesting deeper than " + std::to_string(m_limits.maxDepth) + " levels");
    const std::size_t begin = m_pos++;
    const bool skim = depth >= m_skimFrom;
    const bool tracked = m_pathTracked && m_path.size() < m_limits.streamPathDepth;
    const bool wasTracked = std::exchange(m_pathTracked, tracked);
    struct Restore
    {
        bool &flag;
        bool value;
        ~Restore() { flag = value; }
    } restore{m_pathTracked, wasTracked};
    const std::size_t base = m_memberStack.size();
    struct Pop
    {
        std::vector<Member> &members;
        std::vector<std::string_view> &names;
        std::size_t base;
        ~Pop()
        {
            members.resize(base);
            names.resize(base);
        }
    } pop{m_memberStack, m_nameStack, base};
    bool anyIndexKey = false;
    // Names that held escapes, and for large objects only, a hash index over the names: a hostile object with a
    // million names must not cost a quadratic scan.
    std::vector<std::unique_ptr<std::string>> decodedNames;
    std::unordered_map<std::string_view, std::size_t> index;
    skipSpace();
    if (m_pos < m_text.size() && m_text[m_pos] == '}') {
        ++m_pos;
        out = Value::objectFromMembers({}, begin);
        return true;
    }
    while (true) {
        skipSpace();
        if (m_pos >= m_text.size() || m_text[m_pos] != '"')
            return failHere("expected a member name (a string), found " + describeFound());
        std::string_view key;
        if (!parseKey(key, skim))
            return false;
        if (!skim && key.data() == m_keyScratch.data()) {
            // Decoded: the scratch is reused by the names inside the value, so this one gets storage of its own.
            decodedNames.push_back(std::make_unique<std::string>(key));
            key = *decodedNames.back();
        }
        skipSpace();
        if (m_pos >= m_text.size() || m_text[m_pos] != ':')
            return failHere("expected ':' after member name, found " + describeFound());
        ++m_pos;
        Value v;
        if (tracked)
            m_path.emplace_back(key);
        const bool parsed = parseValue(v, depth + 1);
        if (tracked)
            m_path.pop_back();
        if (!parsed)
            return false;
        if (!skim) {
            // JSON.parse: a repeated name keeps its first position and takes the last value.
            const std::size_t count = m_nameStack.size() - base;
            const std::string_view *names = m_nameStack.data() + base;
            std::size_t dup = SIZE_MAX;
            if (count < 16) {
                for (std::size_t i = 0; i < count; ++i)
                    if (names[i] == key) {
                        dup = i;
                        break;
                    }
            } else {
                if (index.empty())
                    for (std::size_t i = 0; i < count; ++i)
                        index.emplace(names[i], i);
                auto it = index.find(key);
                if (it != index.end())
                    dup = it->second;
            }
            if (dup != SIZE_MAX) {
                m_memberStack[base + dup].value = std::move(v);
            } else {
                anyIndexKey = anyIndexKey || isArrayIndexKey(key);
                m_memberStack.push_back(Member{Key(key), std::move(v)});
                m_nameStack.push_back(key);
                if (!index.empty())
                    index.emplace(key, count);
            }
        }
        skipSpace();
        if (m_pos >= m_text.size())
            return failHere("expected ',' or '}' in object, found end of input");
        if (m_text[m_pos] == ',') {
            ++m_pos;
            continue;
        }
        if (m_text[m_pos] == '}') {
            ++m_pos;
            break;
        }
        return failHere("expected ',' or '}' in object, found " + describeFound());
    }
    std::vector<Member> members(std::make_move_iterator(m_memberStack.begin() + std::ptrdiff_t(base)),
                                std::make_move_iterator(m_memberStack.end()));
    if (anyIndexKey) {
        std::stable_partition(members.begin(), members.end(), [](const Member &m) { return isArrayIndexKey(m.key); });
        auto firstOther =
            std::find_if(members.begin(), members.end(), [](const Member &m) { return !isArrayIndexKey(m.key); });
        std::stable_sort(members.begin(), firstOther, [](const Member &a, const Member &b) {
            return a.key.size() != b.key.size() ? a.key.size() < b.key.size() : a.key < b.key;
        });
    }
    out = Value::objectFromMembers(std::move(members), begin);
    return true;
}

} // namespace

namespace {

Value parseWith(std::string_view text, StringArena &arena, ParseError &error, std::size_t offset, std::size_t *end,
                const ParseLimits &limits, const StringEnds *knownEnds)
{
    error = ParseError{};
    Parser parser(text, arena, error, limits, knownEnds);
    parser.m_pos = offset;
    parser.startTracking();
    parser.m_skimFrom = limits.skimContainersFrom;
    Value v;
    if (!parser.parseValue(v, 0))
        return {};
    if (end)
        *end = parser.m_pos;
    return v;
}

} // namespace

Value parse(std::string_view text, StringArena &arena, ParseError &error, std::size_t offset, std::size_t *end,
            const ParseLimits &limits)
{
    return parseWith(text, arena, error, offset, end, limits, nullptr);
}

bool parseStreamedArray(std::string_view text, std::size_t offset, std::size_t depth, std::size_t itemDepth,
                        StringArena &arena, const ParseLimits &limits, ParseError &error, std::size_t &end)
{
    error = ParseError{};
    Parser parser(text, arena, error, limits, nullptr);
    parser.m_pos = offset;
    parser.m_streamedAt = offset;
    parser.m_streamedItemDepth = itemDepth;
    parser.m_skimFrom = limits.skimContainersFrom;
    parser.skipSpace();
    if (parser.m_pos != offset || offset >= text.size() || text[offset] != '[') {
        error.offset = offset;
        error.reason = "expected an array";
        return false;
    }
    Value v;
    if (!parser.parseValue(v, depth))
        return false;
    end = parser.m_pos;
    return true;
}

namespace {

ParseLimits againLimits(std::size_t skimFrom)
{
    ParseLimits l;
    l.selfContained = true;
    l.trusted = true;
    l.locateErrors = false; // the error is dropped; counting lines up to it would cost a pass over the text
    l.skimContainersFrom = skimFrom;
    return l;
}

Value parseAgainWith(std::string_view text, std::size_t offset, std::size_t *end, const ParseLimits &limits,
                     const StringEnds *ends)
{
    StringArena unused; // selfContained: never written
    ParseError error;
    Value v = parseWith(text, unused, error, offset, end, limits, ends);
    return error.failed() ? Value() : v;
}

} // namespace

Value parseAgain(std::string_view text, std::size_t offset, std::size_t *end, const StringEnds *ends)
{
    static const ParseLimits limits = againLimits(SIZE_MAX);
    return parseAgainWith(text, offset, end, limits, ends);
}

Value parseAgainShallow(std::string_view text, std::size_t offset, std::size_t depth, const StringEnds *ends)
{
    static const ParseLimits shallow[] = {againLimits(0), againLimits(1), againLimits(2), againLimits(3)};
    return parseAgainWith(text, offset, nullptr, depth < std::size(shallow) ? shallow[depth] : againLimits(depth),
                          ends);
}

std::size_t endOfValueAgain(std::string_view text, std::size_t offset, const StringEnds *ends)
{
    std::size_t p = offset;
    while (p < text.size() && isJsonSpace(text[p]))
        ++p;
    if (p < text.size() && (text[p] == '{' || text[p] == '[')) {
        // The text parsed before, so only its strings and brackets need reading to find the end of a container.
        std::size_t depth = 0;
        StringEnds::Cursor known(ends);
        while (p < text.size()) {
            const char c = text[p];
            if (c == '"') {
                const StringBodyScan scan = known.scan(text, p + 1, true);
                if (!scan.error.empty())
                    return std::string_view::npos;
                p = scan.end + 1;
                continue;
            }
            if (c == '{' || c == '[') {
                ++depth;
            } else if (c == '}' || c == ']') {
                if (--depth == 0)
                    return p + 1;
            }
            ++p;
        }
        return std::string_view::npos;
    }
    static const ParseLimits limits = againLimits(0);
    StringArena unused;
    ParseError error;
    std::size_t end = std::string_view::npos;
    parseWith(text, unused, error, offset, &end, limits, ends);
    return error.failed() ? std::string_view::npos : end;
}

} // namespace tf::json
