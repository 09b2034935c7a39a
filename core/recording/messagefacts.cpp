#include "messagefacts.h"

#include "core/json/parser.h"
#include "core/json/writer.h"
#include "core/receipt/messagedigest.h"
#include "core/receipt/receipthash.h"
#include "core/text/utf.h"

namespace tf::recording {

MessageFactsCache::Facts MessageFactsCache::compute(const json::Value &message, std::string_view salt)
{
    Facts f;
    if (!salt.empty())
        f.hash = receipt::receiptHash(salt, receipt::messageDigestInput(message));
    const std::string jsonText = json::stringify(message);
    f.jsonChars = text::lengthU16(jsonText);
    f.jsonBytes = jsonText.size();
    return f;
}

MessageFactsCache::Facts MessageFactsCache::get(const json::Value &message, std::string_view text,
                                                std::string_view salt, const json::StringEnds *ends)
{
    const std::uint64_t offset = message.sourceOffset();
    // The shortcut by offset is kept for long texts only, whose scan and hash it saves; for a short one it would cost
    // more than it saves (a history copied into every iteration puts each message at a new offset, read once). It is
    // bounded on its own: a windowed history written again at every eviction puts the same texts at ever new offsets.
    const auto rememberOffset = [&](const Facts &f, std::size_t length) {
        if (length < kShortcutFromBytes)
            return;
        if (m_byOffset.size() >= kMaxEntries)
            m_byOffset.clear();
        m_byOffset.emplace(offset, f);
    };
    const auto forgetOtherSalt = [&] {
        if (m_salt != salt) {
            m_facts.clear();
            m_byOffset.clear();
            m_salt = std::string(salt);
        }
    };
    if (offset != json::kNoSource) {
        const std::lock_guard lock(m_mutex);
        forgetOtherSalt();
        if (auto it = m_byOffset.find(offset); it != m_byOffset.end())
            return it->second;
    }
    const std::size_t end =
        offset == json::kNoSource ? std::string_view::npos : json::endOfValueAgain(text, std::size_t(offset), ends);
    if (end == std::string_view::npos)
        return compute(message, salt);
    const std::string_view span = text.substr(std::size_t(offset), end - std::size_t(offset));
    const std::size_t key = std::hash<std::string_view>{}(span);
    const auto same = [&](const Entry &e) {
        return e.length == span.size() && (e.offset == offset || text.substr(e.offset, e.length) == span);
    };
    {
        const std::lock_guard lock(m_mutex);
        forgetOtherSalt();
        for (auto [it, stop] = m_facts.equal_range(key); it != stop; ++it)
            if (same(it->second)) {
                rememberOffset(it->second.facts, span.size());
                return it->second.facts;
            }
    }
    // Computed outside the lock: hashing a large tool result must not stall another thread's lookups.
    Facts f = compute(message, salt);
    const std::lock_guard lock(m_mutex);
    if (m_salt == salt) {
        if (m_facts.size() >= kMaxEntries)
            m_facts.clear();
        m_facts.emplace(key, Entry{offset, span.size(), f});
        rememberOffset(f, span.size());
    }
    return f;
}

} // namespace tf::recording
