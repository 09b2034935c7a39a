#pragma once

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
// the per-run cost from calls × history into history. A message is known by where it is in the file
// (Value::sourceOffset), the same in every rebuild of a call's state; a message with no source (collapsed, stripped,
// built from events) is computed and not kept. The memo is bounded: a run whose history is rewritten at every call
// never serves an old message again, and would otherwise keep one entry per message of the file.
class MessageFactsCache
{
public:
    struct Facts
    {
        std::string hash;          // receiptHash(salt, messageDigestInput(m)); empty when no salt was asked for
        std::size_t jsonChars = 0; // UTF-16 units of JSON.stringify(m)
        std::size_t jsonBytes = 0; // UTF-8 bytes of the same
    };

    Facts get(const json::Value &message, std::string_view salt);

    // Entries kept before the memo starts over: a few calls' worth of long histories.
    static constexpr std::size_t kMaxEntries = 16384;

private:
    static Facts compute(const json::Value &message, std::string_view salt);

    std::mutex m_mutex;
    std::string m_salt;
    std::unordered_map<std::uint64_t, Facts> m_facts;
};

} // namespace tf::recording
