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

// Calls `found(offset)` for each non-overlapping occurrence of `needle`, left to right.
template <typename Found>
void forEachMatch(std::string_view haystack, std::string_view needle, bool caseInsensitive, Found &&found)
{
    if (needle.empty() || haystack.size() < needle.size())
        return;
    std::string lower, lowerNeedle;
    if (caseInsensitive) {
        lower = lowered(haystack);
        haystack = lower;
        lowerNeedle = lowered(needle);
        needle = lowerNeedle;
    }
    for (std::size_t at = haystack.find(needle); at != std::string_view::npos;
         at = haystack.find(needle, at + needle.size()))
        found(at);
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
        : m_needle(needle) // forEachMatch lowers it for a case-insensitive search
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

// After the served context, in the order it was written: the response's text, the arguments of each tool call it
// asked for, and the final answer of a turn this call ended.
void scanWhatTheModelWrote(const recording::Run &run, const recording::CallView &view, const Matcher &matcher,
                           CallHits &call)
{
    if (view.response) {
        SearchHit text;
        text.location = "response.text";
        text.label = "response text";
        text.part = SearchPart::ResponseText;
        matcher.scan(view.response->text, text);
        if (text.count)
            call.hits.push_back(std::move(text));
        for (std::size_t t = 0; t < view.response->toolCalls.size(); ++t) {
            const recording::ToolCallRequest &request = view.response->toolCalls[t];
            SearchHit args;
            args.location = "response.toolCalls[" + std::to_string(t) + "]";
            args.label = "tool call " + request.id + " (" + request.name + ") arguments";
            args.part = SearchPart::ToolCallArguments;
            args.index = t;
            args.name = request.id;
            matcher.scanValue(request.args, args);
            if (args.count)
                call.hits.push_back(std::move(args));
        }
    }
    if (view.turn < run.turns.size()) {
        const recording::Turn &turn = run.turns[view.turn];
        if (turn.finalAnswer && !turn.calls.empty() && turn.calls.back() == view.ordinal) {
            SearchHit answer;
            answer.location = "answer";
            answer.label = "final answer of turn " + std::to_string(turn.number);
            answer.part = SearchPart::Answer;
            answer.index = view.turn;
            matcher.scan(*turn.finalAnswer, answer);
            if (answer.count)
                call.hits.push_back(std::move(answer));
        }
    }
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
    std::size_t count = 0;
    forEachMatch(haystack, needle, caseInsensitive, [&](std::size_t at) {
        if (count++ == 0 && first)
            *first = at;
    });
    return count;
}

std::vector<std::size_t> matchOffsets(std::string_view haystack, std::string_view needle, bool caseInsensitive)
{
    std::vector<std::size_t> out;
    forEachMatch(haystack, needle, caseInsensitive, [&](std::size_t at) { out.push_back(at); });
    return out;
}

std::vector<RangeU16> matchRangesU16(std::string_view wtf8, std::string_view needle, bool caseInsensitive)
{
    std::vector<RangeU16> out;
    // Code units from the lead bytes: one per 1-3 byte sequence (a lone surrogate is 3 bytes of WTF-8), two for a
    // 4-byte one. Offsets only grow, so one walk serves every match.
    const auto units = [](unsigned char lead) { return lead >= 0xF0 ? 2u : (lead & 0xC0) == 0x80 ? 0u : 1u; };
    std::size_t byte = 0, unit = 0;
    const auto advanceTo = [&](std::size_t target) {
        for (; byte < target && byte < wtf8.size(); ++byte)
            unit += units(static_cast<unsigned char>(wtf8[byte]));
    };
    forEachMatch(wtf8, needle, caseInsensitive, [&](std::size_t at) {
        advanceTo(at);
        const std::size_t begin = unit;
        advanceTo(at + needle.size());
        out.push_back({begin, unit - begin});
    });
    return out;
}

std::optional<MatchPosition> stepMatch(const SearchResult &result, std::optional<MatchPosition> from, bool backward)
{
    const auto valid = [&](const MatchPosition &p) {
        return p.call < result.calls.size() && p.hit < result.calls[p.call].hits.size() &&
               p.occurrence < result.calls[p.call].hits[p.hit].count;
    };
    const auto first = [&]() -> std::optional<MatchPosition> {
        for (std::size_t c = 0; c < result.calls.size(); ++c)
            for (std::size_t h = 0; h < result.calls[c].hits.size(); ++h)
                if (result.calls[c].hits[h].count)
                    return MatchPosition{c, h, 0};
        return std::nullopt;
    };
    const auto last = [&]() -> std::optional<MatchPosition> {
        for (std::size_t c = result.calls.size(); c-- > 0;)
            for (std::size_t h = result.calls[c].hits.size(); h-- > 0;)
                if (const std::size_t n = result.calls[c].hits[h].count)
                    return MatchPosition{c, h, n - 1};
        return std::nullopt;
    };
    if (!from || !valid(*from))
        return backward ? last() : first();
    MatchPosition p = *from;
    if (!backward) {
        if (++p.occurrence < result.calls[p.call].hits[p.hit].count)
            return p;
        p.occurrence = 0;
        while (true) {
            if (++p.hit >= result.calls[p.call].hits.size()) {
                p.hit = 0;
                if (++p.call >= result.calls.size())
                    return first();
            }
            if (p.hit < result.calls[p.call].hits.size() && result.calls[p.call].hits[p.hit].count)
                return p;
        }
    }
    if (p.occurrence > 0) {
        --p.occurrence;
        return p;
    }
    while (true) {
        if (p.hit == 0) {
            if (p.call == 0)
                return last();
            --p.call;
            p.hit = result.calls[p.call].hits.size();
            continue;
        }
        --p.hit;
        if (const std::size_t n = result.calls[p.call].hits[p.hit].count) {
            p.occurrence = n - 1;
            return p;
        }
    }
}

std::size_t matchNumber(const SearchResult &result, const MatchPosition &position)
{
    std::size_t n = 0;
    for (std::size_t c = 0; c < position.call && c < result.calls.size(); ++c)
        n += result.calls[c].total;
    if (position.call < result.calls.size())
        for (std::size_t h = 0; h < position.hit && h < result.calls[position.call].hits.size(); ++h)
            n += result.calls[position.call].hits[h].count;
    return n + position.occurrence + 1;
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
    result.includeResponses = options.includeResponses;
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
            hit.part = SearchPart::SystemPiece;
            hit.index = p;
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
                whole.part = SearchPart::System;
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
                hit.part = SearchPart::Message;
                hit.index = m;
                call.hits.push_back(std::move(hit));
            }
        }

        for (const recording::ToolView &tool : view.tools) {
            SearchHit hit;
            hit.location = "tools[" + tool.name + "]";
            hit.label = tool.schema ? "tool schema" : "tool name and description";
            hit.part = SearchPart::Tool;
            hit.name = tool.name;
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

        if (options.includeResponses)
            scanWhatTheModelWrote(run, view, matcher, call);

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
    if (result.includeResponses)
        doc.set("includesResponses", Value::boolean(true));
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
        out += std::string(result.includeResponses ? "no call's served context, response or answer contains the text ("
                                                   : "no call's served context contains the text (") +
               std::to_string(result.callsSearched) + " calls searched)\n";
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
