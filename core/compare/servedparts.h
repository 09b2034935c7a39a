#pragma once

#include "core/recording/callview.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tf::compare {

// One part of what a call was sent, named as the receipt names it (receipt/partnames.h), with the bytes that went
// out: a system piece's text (or the whole system text when it has no pieces), a message as the request serialised
// it (JSON.stringify of the message as sent, after collapse and strip), the offered tool names as a JSON array, a
// tool's schema as JSON. The bytes are what the run sent, not the receipt's salted hash, so runs with different
// salts compare equal wherever they sent the same bytes.
//
// What is not on record is not "not sent": a part whose text the recording lacks is listed with onRecord false and
// no bytes, under its own name (tools.schema[NAME]) or, when a whole group is missing, under the group's marker
// (kNoSystemPart, kNoMessagesPart, tools.names with kNoSchemasPart). A comparison never counts such a part as a
// difference.
inline constexpr std::string_view kNoSystemPart = "system.text";   // no piece and no system text on record
inline constexpr std::string_view kNoMessagesPart = "messages";    // the conversation is not on record
inline constexpr std::string_view kNoSchemasPart = "tools.schema"; // the offered tools are not on record

struct ServedPart
{
    std::string name;
    bool onRecord = true;
    std::uint64_t digest = 0;         // of the bytes (std::hash): equal bytes, equal digest
    std::size_t size = 0;             // bytes
    std::optional<std::string> bytes; // kept only by a reader asked to keep them
};

// Reads the served parts of calls, in the receipt's order (system, messages, tool names, schemas). A reader that
// keeps digests only remembers each message by where it is in the file, since every call of a history serves the
// same messages again; use one reader per thread.
class ServedPartReader
{
public:
    enum class Keep
    {
        DigestsOnly,
        Bytes
    };
    explicit ServedPartReader(Keep keep)
        : m_keep(keep)
    {
    }
    std::vector<ServedPart> read(const recording::CallView &view);

    // Entries kept before the memo starts over (a few calls' worth of long histories).
    static constexpr std::size_t kMaxRemembered = 16384;

private:
    ServedPart part(std::string name, std::string bytes) const;
    ServedPart message(std::string name, const json::Value &message);
    static ServedPart notOnRecord(std::string_view name);

    Keep m_keep;
    struct Remembered
    {
        std::uint64_t digest = 0;
        std::size_t size = 0;
    };
    std::unordered_map<std::uint64_t, Remembered> m_messages;
};

} // namespace tf::compare
