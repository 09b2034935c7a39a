#include "contenthash.h"

#include "core/json/jsnumber.h"
#include "core/text/utf.h"

#include <cstdio>
#include <initializer_list>

namespace tf::receipt {

namespace {

// Joins WTF-8 parts with ':' and converts once. Every part boundary is next to an ASCII ':', so converting the
// joined text equals joining the converted parts.
std::u16string joinColon(std::initializer_list<std::string_view> parts)
{
    std::string joined;
    bool first = true;
    for (std::string_view part : parts) {
        if (!first)
            joined.push_back(':');
        first = false;
        joined.append(part);
    }
    return text::toUtf16(joined);
}

std::optional<std::string_view> stringMember(const json::Value &piece, std::string_view key)
{
    const json::Value *v = piece.findString(key);
    if (!v)
        return std::nullopt;
    return v->asString();
}

} // namespace

std::uint32_t fnv1a32(std::u16string_view units)
{
    std::uint32_t h = kFnvOffsetBasis;
    for (const char16_t unit : units) {
        h ^= std::uint32_t(unit);
        h *= kFnvPrime; // unsigned wrap-around is the mod 2^32 of Math.imul
    }
    return h;
}

std::string contentHash(std::u16string_view prefixedPreimage)
{
    char buffer[9];
    std::snprintf(buffer, sizeof buffer, "%x", unsigned(fnv1a32(prefixedPreimage)));
    return buffer;
}

std::string contentHash(std::string_view prefixedPreimageWtf8)
{
    return contentHash(std::u16string_view(text::toUtf16(prefixedPreimageWtf8)));
}

std::u16string basePromptPreimage(std::string_view text)
{
    return joinColon({"sp", text});
}

std::u16string systemPiecePreimage(std::string_view source, std::string_view sourceId, std::string_view text)
{
    return joinColon({"sp", source, sourceId, text});
}

std::u16string messagePiecePreimage(std::string_view asRole, double position, std::string_view text)
{
    // A template literal prints the position with Number::toString.
    return joinColon({asRole, json::jsNumberToString(position), text});
}

std::u16string registryToolPreimage(std::string_view name, std::string_view description)
{
    return joinColon({"tool", name, description});
}

std::u16string unlockedToolPreimage(std::string_view source, std::string_view sourceId, std::string_view name)
{
    return joinColon({"tool", source, sourceId, name});
}

std::optional<std::u16string> injectedPiecePreimage(const json::Value &piece)
{
    if (!piece.isObject())
        return std::nullopt;
    const auto slot = stringMember(piece, "slot");
    const auto source = stringMember(piece, "source");
    const auto raw = stringMember(piece, "rawContent");
    if (!slot || !source || !raw)
        return std::nullopt;
    const auto sourceId = stringMember(piece, "sourceId");

    if (*slot == "system-prompt") {
        if (*source == "base")
            return basePromptPreimage(*raw);
        if (!sourceId)
            return std::nullopt;
        return systemPiecePreimage(*source, *sourceId, *raw);
    }
    if (*slot == "messages") {
        const auto role = stringMember(piece, "asRole");
        const json::Value *position = piece.findNumber("position");
        if (!role || !position)
            return std::nullopt;
        return messagePiecePreimage(*role, position->asNumber(), *raw);
    }
    if (*slot == "tools") {
        // rawContent is `<name>: <description>`; prefer the sourceId as the name so a name holding ": " survives.
        std::string_view name;
        std::string_view description;
        if (sourceId && raw->size() >= sourceId->size() + 2 && raw->starts_with(*sourceId) &&
            raw->substr(sourceId->size(), 2) == ": ") {
            name = raw->substr(0, sourceId->size());
            description = raw->substr(sourceId->size() + 2);
        } else {
            const std::size_t colon = raw->find(": ");
            if (colon == std::string_view::npos)
                return std::nullopt;
            name = raw->substr(0, colon);
            description = raw->substr(colon + 2);
        }
        if (*source == "registry")
            return registryToolPreimage(name, description);
        if (!sourceId)
            return std::nullopt;
        return unlockedToolPreimage(*source, *sourceId, name);
    }
    return std::nullopt;
}

} // namespace tf::receipt
