#include "runsearch.h"

#include "core/recording/callinternals.h"
#include "core/text/utf.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

namespace tf::report {

namespace {

using json::Value;

char lowerAscii(char c)
{
    return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
}

std::string lowered(std::string_view s)
{
    std::string out(s);
    for (char &c : out)
        c = lowerAscii(c);
    return out;
}

bool isContinuation(char c)
{
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// The bytes around a match, cut at character boundaries, as strict UTF-8 with line breaks and tabs shown as
// spaces (same byte length, so the match offsets hold).
void makeSnippet(std::string_view text, std::size_t at, std::size_t length, std::size_t context, SearchHit &hit)
{
    std::size_t begin = at > context ? at - context : 0;
    std::size_t end = std::min(text.size(), at + length + context);
    while (begin > 0 && begin < text.size() && isContinuation(text[begin]))
        --begin;
    while (end < text.size() && isContinuation(text[end]))
        ++end;
    std::string body = text::toUtf8Lossy(text.substr(begin, end - begin));
    for (char &c : body)
        if (c == '\n' || c == '\r' || c == '\t')
            c = ' ';
    const std::string prefix = begin > 0 ? "\u2026" : "";
    hit.snippet = prefix + body + (end < text.size() ? "\u2026" : "");
    hit.snippetMatchBegin = prefix.size() + (at - begin);
    hit.snippetMatchEnd = hit.snippetMatchBegin + length;
}

class Matcher
{
public:
    Matcher(std::string_view needle, const SearchOptions &options)
        : m_needle(options.caseInsensitive ? lowered(needle) : std::string(needle))
        , m_options(options)
    {
    }

    // Adds the matches in one string to `hit`; the first match of the hit gets the snippet.
    void scan(std::string_view text, SearchHit &hit) const
    {
        std::size_t first = 0;
        const std::size_t n = countMatches(text, m_needle, m_options.caseInsensitive, &first);
        if (!n)
            return;
        if (hit.count == 0)
            makeSnippet(text, first, m_needle.size(), m_options.snippetContext, hit);
        hit.count += n;
    }

    // Every string of a JSON value, and every object key.
    void scanValue(const Value &v, SearchHit &hit) const
    {
        switch (v.type()) {
        case json::Type::String: {
            std::string scratch;
            scan(v.stringView(scratch), hit);
            break;
        }
        case json::Type::Array:
            for (const Value &item : v)
                scanValue(item, hit);
            break;
        case json::Type::Object:
            for (const json::Member *m = v.memberBegin(); m != v.memberEnd(); ++m) {
                scan(m->key, hit);
                scanValue(m->value, hit);
            }
            break;
        default:
            break;
        }
    }

private:
    std::string m_needle;
    const SearchOptions &m_options;
};

std::string messageLabel(const Value &m, bool collapsed)
{
    const Value *role = m.findString("role");
    const Value *id = m.findString("toolCallId");
    const Value *name = m.findString("toolName");
    const std::string r = role ? role->decodedString() : std::string("message");
    if (r == "tool") {
        std::string label = collapsed ? "collapse ticket" : "tool result";
        if (id)
            label += " " + id->decodedString();
        if (name && !name->asString().empty())
            label += " (" + name->decodedString() + ")";
        return label;
    }
    if (r == "assistant" && m.findArray("toolCalls"))
        return "assistant turn with tool calls";
    return r + " message";
}

// Control characters of a snippet as visible escapes, for a terminal.
std::string terminalSafe(std::string_view s)
{
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto u = static_cast<unsigned char>(s[i]);
        char buf[16];
        if (u < 0x20 || u == 0x7F) {
            std::snprintf(buf, sizeof buf, "\\x%02x", u);
            out += buf;
        } else if (u == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
                   static_cast<unsigned char>(s[i + 1]) <= 0x9F) {
            // C1 controls (U+0080..U+009F) include CSI, which a terminal acts on as ESC [ does.
            std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(static_cast<unsigned char>(s[++i])));
            out += buf;
        } else {
            out += s[i];
        }
    }
    return out;
}

} // namespace

std::size_t countMatches(std::string_view haystack, std::string_view needle, bool caseInsensitive, std::size_t *first)
{
    if (needle.empty() || haystack.size() < needle.size())
        return 0;
    std::string lower;
    if (caseInsensitive) {
        lower = lowered(haystack);
        haystack = lower;
    }
    std::size_t count = 0;
    std::size_t at = haystack.find(needle);
    if (at != std::string_view::npos && first)
        *first = at;
    while (at != std::string_view::npos) {
        ++count;
        at = haystack.find(needle, at + needle.size());
    }
    return count;
}

std::size_t SearchResult::totalMatches() const
{
    std::size_t n = 0;
    for (const CallHits &c : calls)
        n += c.total;
    return n;
}

SearchResult searchRun(const recording::Run &run, std::string_view needle, const SearchOptions &options)
{
    SearchResult result;
    result.needle = std::string(needle);
    result.caseInsensitive = options.caseInsensitive;
    if (needle.empty())
        return result;
    const Matcher matcher(needle, options);
    // The history grows call by call and an unchanged message keeps its node, so each message is scanned once. The
    // cache keeps the message itself too: that pins its node, so a freed copy's address can never be mistaken for it.
    struct Scanned
    {
        Value pin;
        SearchHit hit;
    };
    std::unordered_map<const void *, Scanned> scanned;

    for (std::size_t i = 0; i < run.calls.size(); ++i) {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed)) {
            result.cancelled = true;
            break;
        }
        recording::CallView view;
        recording::detail::rebuildServed(run, i, view);
        ++result.callsSearched;
        if (!view.conversationOnRecord || !view.systemOnRecord)
            result.partialOrdinals.push_back(i);

        CallHits call;
        call.ordinal = i;
        call.epoch = view.epoch;
        call.callRuntimeStageId = run.calls[i].callRuntimeStageId;

        // System: per piece; the joined text catches a match that spans the "\n\n" between two pieces.
        std::size_t inPieces = 0;
        for (std::size_t p = 0; p < view.systemPieces.size(); ++p) {
            SearchHit hit;
            hit.location = "system.pieces[" + std::to_string(p) + "]";
            hit.label = view.systemPieces[p].source + " piece";
            matcher.scan(view.systemPieces[p].text, hit);
            if (hit.count) {
                inPieces += hit.count;
                call.hits.push_back(std::move(hit));
            }
        }
        if (view.systemOnRecord && !view.systemText.empty()) {
            SearchHit whole;
            matcher.scan(view.systemText, whole);
            if (whole.count > inPieces) {
                whole.count -= inPieces;
                whole.location = "system";
                whole.label = view.systemPieces.empty() ? "system prompt" : "system prompt, across two pieces";
                call.hits.push_back(std::move(whole));
            }
        }

        if (view.conversationOnRecord) {
            std::vector<bool> collapsedAt(view.asSent.size(), false);
            for (const auto &c : view.collapsed)
                if (c.index < collapsedAt.size())
                    collapsedAt[c.index] = true;
            for (std::size_t m = 0; m < view.asSent.size(); ++m) {
                const Value &message = view.asSent.at(m);
                const void *key = message.identity();
                SearchHit hit;
                if (auto it = key ? scanned.find(key) : scanned.end(); it != scanned.end()) {
                    hit = it->second.hit;
                } else {
                    matcher.scanValue(message, hit);
                    if (key)
                        scanned.emplace(key, Scanned{message, hit});
                }
                if (!hit.count)
                    continue;
                hit.location = "messages[" + std::to_string(m) + "]";
                hit.label = messageLabel(message, collapsedAt[m]);
                call.hits.push_back(std::move(hit));
            }
        }

        for (const recording::ToolView &tool : view.tools) {
            SearchHit hit;
            hit.location = "tools[" + tool.name + "]";
            hit.label = tool.schema ? "tool schema" : "tool name and description";
            if (tool.schema) {
                matcher.scanValue(*tool.schema, hit);
            } else {
                matcher.scan(tool.name, hit);
                if (tool.description)
                    matcher.scan(*tool.description, hit);
            }
            if (hit.count)
                call.hits.push_back(std::move(hit));
        }

        for (const SearchHit &h : call.hits)
            call.total += h.count;
        if (call.total) {
            if (!result.firstOrdinal) {
                result.firstOrdinal = i;
                result.firstEpoch = call.epoch;
                result.firstLocation = call.hits.front().location;
            }
            result.calls.push_back(std::move(call));
        }
        if (options.progress)
            options.progress(double(i + 1) / double(run.calls.size()));
    }
    return result;
}

json::Value searchJson(const recording::Run &run, const SearchResult &result)
{
    const auto str = [](std::string_view s) { return Value::string(text::toUtf8Lossy(s)); };
    Value doc = Value::object();
    doc.set("schema", Value::number(1));
    doc.set("file", str(run.path));
    doc.set("text", str(result.needle));
    doc.set("caseInsensitive", Value::boolean(result.caseInsensitive));
    doc.set("callsSearched", Value::number(double(result.callsSearched)));
    doc.set("matchingCalls", Value::number(double(result.calls.size())));
    doc.set("matches", Value::number(double(result.totalMatches())));
    if (result.firstOrdinal) {
        Value first = Value::object();
        first.set("index", Value::number(double(*result.firstOrdinal + 1)));
        first.set("epoch", Value::number(result.firstEpoch));
        first.set("callRuntimeStageId", str(run.calls[*result.firstOrdinal].callRuntimeStageId));
        first.set("location", str(result.firstLocation));
        doc.set("firstAppearance", first);
    } else {
        doc.set("firstAppearance", Value::null());
    }
    Value partial = Value::array();
    for (std::size_t o : result.partialOrdinals)
        partial.push_back(Value::number(double(o + 1))); // call numbers, 1..N across every turn
    doc.set("partiallyOnRecord", partial);
    Value calls = Value::array();
    for (const CallHits &c : result.calls) {
        Value call = Value::object();
        call.set("index", Value::number(double(c.ordinal + 1)));
        call.set("turn", Value::number(double(run.calls[c.ordinal].turn + 1)));
        call.set("epoch", Value::number(c.epoch));
        call.set("callRuntimeStageId", str(c.callRuntimeStageId));
        call.set("matches", Value::number(double(c.total)));
        Value hits = Value::array();
        for (const SearchHit &h : c.hits) {
            Value hit = Value::object();
            hit.set("location", str(h.location));
            hit.set("label", str(h.label));
            hit.set("matches", Value::number(double(h.count)));
            hit.set("snippet", str(h.snippet));
            hits.push_back(hit);
        }
        call.set("locations", hits);
        calls.push_back(call);
    }
    doc.set("calls", calls);
    return doc;
}

std::string searchText(const recording::Run &run, const SearchResult &result)
{
    std::string out;
    if (result.calls.empty()) {
        out += "no call's served context contains the text (" + std::to_string(result.callsSearched) +
               " calls searched)\n";
    } else {
        for (const CallHits &c : result.calls) {
            out += "call " + std::to_string(c.ordinal + 1) + "  " + terminalSafe(c.callRuntimeStageId) + "  " +
                   std::to_string(c.total) + (c.total == 1 ? " match: " : " matches: ");
            for (std::size_t i = 0; i < c.hits.size(); ++i) {
                out += (i ? ", " : "") + terminalSafe(c.hits[i].location);
                if (c.hits[i].count > 1)
                    out += " x" + std::to_string(c.hits[i].count);
            }
            out += '\n';
        }
        const CallHits &first = result.calls.front();
        out += "first appeared: call " + std::to_string(*result.firstOrdinal + 1) + " (" +
               terminalSafe(run.calls[*result.firstOrdinal].callRuntimeStageId) + ") in " +
               terminalSafe(result.firstLocation) + ": " + terminalSafe(first.hits.front().snippet) + "\n";
        out += std::to_string(result.calls.size()) + " of " + std::to_string(result.callsSearched) + " calls, " +
               std::to_string(result.totalMatches()) + " matches\n";
    }
    if (!result.partialOrdinals.empty())
        out += std::to_string(result.partialOrdinals.size()) +
               " calls are only partly on record (conversation or system text missing); a miss there proves nothing\n";
    return out;
}

} // namespace tf::report
