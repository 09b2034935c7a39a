#include "messagefacts.h"

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

MessageFactsCache::Facts MessageFactsCache::get(const json::Value &message, std::string_view salt)
{
    const std::uint64_t key = message.sourceOffset();
    if (key == json::kNoSource)
        return compute(message, salt);
    {
        const std::lock_guard lock(m_mutex);
        if (m_salt != salt) {
            m_facts.clear();
            m_salt = std::string(salt);
        }
        if (auto it = m_facts.find(key); it != m_facts.end())
            return it->second;
    }
    // Computed outside the lock: hashing a large tool result must not stall another thread's lookups.
    Facts f = compute(message, salt);
    const std::lock_guard lock(m_mutex);
    if (m_salt == salt) {
        if (m_facts.size() >= kMaxEntries)
            m_facts.clear();
        m_facts.emplace(key, f);
    }
    return f;
}

} // namespace tf::recording
