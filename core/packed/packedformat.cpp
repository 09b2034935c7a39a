#include "packedformat.h"

#include "core/json/locate.h"
#include "core/json/parser.h"
#include "core/json/writer.h"

#include <algorithm>

namespace tf::packed {

namespace {

std::size_t skipSpace(std::string_view text, std::size_t p)
{
    while (p < text.size() && json::isJsonSpace(text[p]))
        ++p;
    return p;
}

bool stringAtNamesFamily(std::string_view text, std::size_t offset)
{
    if (offset >= text.size() || text[offset] != '"')
        return false;
    json::StringArena arena;
    json::ParseError error;
    const json::Value v = json::parse(text, arena, error, offset);
    return !error.failed() && isPackedFamily(v.asString());
}

} // namespace

std::size_t rootStart(std::string_view text)
{
    return skipSpace(text, text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0);
}

bool isPackedFamily(std::string_view format)
{
    return format.substr(0, kFormatFamily.size()) == kFormatFamily;
}

bool formatFirstNamesPackedFamily(std::string_view text)
{
    constexpr std::string_view kFirstKey = "\"format\"";
    std::size_t p = rootStart(text);
    if (p >= text.size() || text[p] != '{')
        return false;
    p = skipSpace(text, p + 1);
    if (text.substr(p, kFirstKey.size()) != kFirstKey)
        return false;
    p = skipSpace(text, p + kFirstKey.size());
    if (p >= text.size() || text[p] != ':')
        return false;
    return stringAtNamesFamily(text, skipSpace(text, p + 1));
}

bool namesPackedFamily(std::string_view text)
{
    const std::size_t root = rootStart(text);
    if (root >= text.size() || text[root] != '{')
        return false;
    const auto at = json::locate(text, {std::string("format")}, root);
    return at && stringAtNamesFamily(text, *at);
}

const json::Value *referenceIndex(const json::Value &node)
{
    if (!node.isObject() || node.memberCount() != 1 || !(node.memberBegin()->key == kRefKey))
        return nullptr;
    return &node.memberBegin()->value;
}

const json::Value *escapedObject(const json::Value &node)
{
    if (!node.isObject() || node.memberCount() != 1 || !(node.memberBegin()->key == kEscapeKey))
        return nullptr;
    const json::Value &inner = node.memberBegin()->value;
    return inner.isObject() ? &inner : nullptr;
}

std::optional<std::size_t> checkedIndex(const json::Value &index, std::size_t valueCount)
{
    // Number.isInteger and the range; -0 names value 0, as in JavaScript.
    const double n = index.isNumber() ? index.asNumber() : -1;
    if (!(n >= 0 && n < double(valueCount) && n == double(std::size_t(n))))
        return std::nullopt;
    return std::size_t(n);
}

Detected detect(std::string_view text, const json::Value &root, PackedParts &parts, Refusal &refusal)
{
    const json::Value *format = root.isObject() ? root.findString("format") : nullptr;
    if (!format || !isPackedFamily(format->asString()))
        return Detected::Plain;
    const json::Value *values = root.findArray("values");
    const json::Value *recording = root.find("recording");
    if (format->asString() == kFormat && values && recording) {
        parts = {recording, values};
        return Detected::Packed;
    }
    // Upstream's wording, which for a v1 marker missing a part names v1 twice; what is missing is said after it.
    const std::size_t start = rootStart(text);
    refusal.offset = json::locate(text, {std::string("format")}, start).value_or(start);
    refusal.message = "This reader expands '" + std::string(kFormat) + "' and was handed '" +
                      inLine(format->asString()) +
                      "'. Read it with the agentfootprint release that wrote it, or a later one.";
    if (format->asString() == kFormat)
        refusal.message += !recording ? " (it has no \"recording\")" : " (its \"values\" is not an array)";
    return Detected::Refused;
}

std::string inLine(std::string_view wtf8)
{
    constexpr std::size_t kMaxBytes = 120;
    std::size_t cut = std::min(wtf8.size(), kMaxBytes);
    while (cut < wtf8.size() && cut > 0 && (static_cast<unsigned char>(wtf8[cut]) & 0xC0) == 0x80)
        --cut; // never inside a character
    const std::string quoted = json::jsQuoted(wtf8.substr(0, cut));
    return quoted.substr(1, quoted.size() - 2) + (cut < wtf8.size() ? "\u2026" : "");
}

std::string describe(const std::string &file, const Refusal &refusal)
{
    return file + ": packed recording refused at byte " + std::to_string(refusal.offset) + ": " +
           (refusal.errorName.empty() ? "" : refusal.errorName + ": ") + refusal.message;
}

} // namespace tf::packed
