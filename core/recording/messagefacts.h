#pragma once

#include "core/json/stringends.h"
#include "core/json/value.h"

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tf::recording {

// Per-run memo of what verification computes for one message: its receipt hash and the size of its JSON text.
// A history grows by appending, so every call of a run serves the same messages again; computing each once turns
// the per-run cost from calls × history into history. A message is known by the text it was parsed from (the span
// at Value::sourceOffset of the file): equal text parses to an equal message. That holds for a message written
// again where a windowed history is rewritten (`set`) at every eviction, as well as for one read at the same place
// by every rebuild. A message with no source (collapsed, stripped, built from events) is computed and not kept.
// A long message read at an offset seen before is the same text, found without scanning it to its end and hashing it
// (tool results of a long history are tens of kilobytes each, and every rebuild of a call asks for all of them).
// The memo is bounded: it starts over after kMaxEntries.
class MessageFactsCache
{
public:
    struct Facts
    {
        std::string hash;          // receiptHash(salt, messageDigestInput(m)); empty when no salt was asked for
        std::size_t jsonChars = 0; // UTF-16 units of JSON.stringify(m)
        std::size_t jsonBytes = 0; // UTF-8 bytes of the same
    };

    // `text`: what the message was parsed from (the run's file).
    // `ends`: where the text's long strings end (Run::stringEnds), or null.
    Facts get(const json::Value &message, std::string_view text, std::string_view salt,
              const json::StringEnds *ends = nullptr);

    // Entries kept before the memo starts over: a few calls' worth of long histories.
    static constexpr std::size_t kMaxEntries = 16384;
    // Messages whose text is at least this long (bytes) are found by their offset too.
    static constexpr std::size_t kShortcutFromBytes = 4096;

private:
    static Facts compute(const json::Value &message, std::string_view salt);

    std::mutex m_mutex;
    std::string m_salt;
    struct Entry
    {
        std::uint64_t offset = 0; // where the text was first seen
        std::size_t length = 0;
        Facts facts;
    };
    std::unordered_multimap<std::size_t, Entry> m_facts; // by a hash of the message's text
    std::unordered_map<std::uint64_t, Facts> m_byOffset; // by where a message was read
};

} // namespace tf::recording
