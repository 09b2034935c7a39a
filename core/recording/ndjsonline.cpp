#include "ndjsonline.h"

#include "core/json/locate.h"

#include <algorithm>

namespace tf::recording::detail {

namespace {

std::string_view lineText(std::string_view text, std::size_t pos, std::size_t eol)
{
    std::string_view line = text.substr(pos, eol - pos);
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    return line;
}

} // namespace

NdjsonLine readNdjsonLine(std::string_view text, std::size_t pos, std::size_t eol, json::StringArena &arena)
{
    NdjsonLine out;
    const std::string_view line = lineText(text, pos, eol);
    if (std::all_of(line.begin(), line.end(), [](char c) { return json::isJsonSpace(c); }))
        return out;
    json::ParseLimits limits;
    limits.selfContained = true;
    json::ParseError error;
    std::size_t end = 0;
    const std::string_view upToLine = text.substr(0, pos + line.size());
    json::Value v = json::parse(upToLine, arena, error, pos, &end, limits);
    std::size_t rest = end;
    while (!error.failed() && rest < upToLine.size() && json::isJsonSpace(upToLine[rest]))
        ++rest;
    out.kind = NdjsonLine::Kind::Bad;
    out.problemOffset = pos;
    if (error.failed()) {
        out.parseFailed = true;
        out.problem = error.reason;
        out.problemOffset = error.offset;
    } else if (rest != upToLine.size()) {
        out.problem = "unexpected data after the value";
        out.problemOffset = rest;
    } else if (!v.isObject() || !v.findString("type")) {
        out.problem = v.isObject() ? "no string \"type\"" : std::string("found a JSON ") + json::typeName(v.type());
    } else {
        for (const char *key : {"payload", "meta"})
            if (const json::Value *member = v.find(key); member && !member->isObject()) {
                out.problem =
                    std::string("\"") + key + "\" is a JSON " + json::typeName(member->type()) + ", not an object";
                out.problemOffset = json::locate(upToLine, {std::string(key)}, pos).value_or(pos);
                return out;
            }
        out.kind = NdjsonLine::Kind::Event;
        out.value = std::move(v);
    }
    return out;
}

std::string ndjsonLineError(const std::string &path, std::size_t lineNo, std::string_view text, std::size_t pos,
                            std::size_t eol, const NdjsonLine &line)
{
    std::size_t l = 0, column = 1;
    json::lineColumnAt(lineText(text, pos, eol), line.problemOffset - pos, l, column);
    return path + ":" + std::to_string(lineNo) + ":" + std::to_string(column) + ": expected one JSON event object (" +
           line.problem + ")";
}

} // namespace tf::recording::detail
