#pragma once

#include "core/json/value.h"

#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tf::recording {

// Per-run memo of what verification computes for one message: its receipt hash and the size of its JSON text.
// A history grows by appending, so every call of a run serves the same message nodes again; computing each once
// turns the per-run cost from calls × history into history. Keys are node identities, valid only for nodes the
// Run owns (callers pass `owned` = false for messages rebuilt on the fly, which are computed and not kept).
class MessageFactsCache
{
public:
    struct Facts
    {
        std::string hash;        // receiptHash(salt, messageDigestInput(m)); empty when no salt was asked for
        std::size_t jsonChars = 0; // UTF-16 units of JSON.stringify(m)
        std::size_t jsonBytes = 0; // UTF-8 bytes of the same
    };

    Facts get(const json::Value &message, std::string_view salt, bool owned);

private:
    static Facts compute(const json::Value &message, std::string_view salt);

    std::mutex m_mutex;
    std::string m_salt;
    std::unordered_map<const void *, Facts> m_facts;
};

} // namespace tf::recording
