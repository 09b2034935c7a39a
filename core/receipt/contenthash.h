#pragma once

#include "core/json/value.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

// The display id of a context piece, `contentHash` on `agentfootprint.context.injected` events and on the
// *Injections state arrays (spec/recording.md §2.5). Not a receipt hash: FNV-1a 32-bit over the UTF-16 code units
// of a prefixed preimage, printed as lowercase hex without zero padding, as upstream's `(h >>> 0).toString(16)`.
namespace tf::receipt {

inline constexpr std::uint32_t kFnvOffsetBasis = 0x811C9DC5u;
inline constexpr std::uint32_t kFnvPrime = 16777619u;

std::uint32_t fnv1a32(std::u16string_view units);
// Hashes the UTF-16 code units, not the UTF-8 bytes: the two differ for any non-ASCII text.
std::string contentHash(std::u16string_view prefixedPreimage);
std::string contentHash(std::string_view prefixedPreimageWtf8);

// Preimages, one per piece kind (arguments are WTF-8; the results are what contentHash() takes).
// sp:<text>, the base system prompt
std::u16string basePromptPreimage(std::string_view text);
// sp:<source>:<sourceId>:<text>, any other system-prompt piece
std::u16string systemPiecePreimage(std::string_view source, std::string_view sourceId, std::string_view text);
// <asRole>:<position>:<text>, a message; the position prints as JavaScript prints a number
std::u16string messagePiecePreimage(std::string_view asRole, double position, std::string_view text);
// tool:<name>:<description>, a registry tool
std::u16string registryToolPreimage(std::string_view name, std::string_view description);
// tool:<source>:<sourceId>:<name>, a tool a skill (or another source) unlocked
std::u16string unlockedToolPreimage(std::string_view source, std::string_view sourceId, std::string_view name);

// Rebuilds the preimage from a recorded piece (an injected event's payload, or an entry of systemPromptInjections,
// messagesInjections or toolsInjections) that carries `rawContent`:
// - slot `system-prompt`: source `base` → basePromptPreimage(rawContent), otherwise systemPiecePreimage;
// - slot `messages`: messagePiecePreimage(asRole, position, rawContent);
// - slot `tools`: rawContent reads `<name>: <description>`; source `registry` → registryToolPreimage, otherwise
//   unlockedToolPreimage with that name. The name is sourceId when rawContent starts with `<sourceId>: ` (a
//   registry tool's sourceId is its name), otherwise the text before the first `: `.
// nullopt when a field the preimage needs is missing or of the wrong type, or the slot is unknown: upstream hashed
// its own fields, not the payload, so a guess would only produce a confident wrong id.
std::optional<std::u16string> injectedPiecePreimage(const json::Value &piece);

} // namespace tf::receipt
