#include "servedparts.h"

#include "core/json/writer.h"
#include "core/receipt/partnames.h"

#include <functional>
#include <string_view>

namespace tf::compare {

ServedPart ServedPartReader::part(std::string name, std::string bytes) const
{
    ServedPart p;
    p.name = std::move(name);
    p.digest = std::hash<std::string_view>{}(bytes);
    p.size = bytes.size();
    if (m_keep == Keep::Bytes)
        p.bytes = std::move(bytes);
    return p;
}

ServedPart ServedPartReader::notOnRecord(std::string_view name)
{
    ServedPart p;
    p.name = std::string(name);
    p.onRecord = false;
    return p;
}

ServedPart ServedPartReader::message(std::string name, const json::Value &message)
{
    const std::uint64_t at = message.sourceOffset();
    if (m_keep == Keep::Bytes || at == json::kNoSource)
        return part(std::move(name), json::stringify(message));
    if (auto it = m_messages.find(at); it != m_messages.end()) {
        ServedPart p;
        p.name = std::move(name);
        p.digest = it->second.digest;
        p.size = it->second.size;
        return p;
    }
    ServedPart p = part(std::move(name), json::stringify(message));
    if (m_messages.size() >= kMaxRemembered)
        m_messages.clear();
    m_messages.emplace(at, Remembered{p.digest, p.size});
    return p;
}

std::vector<ServedPart> ServedPartReader::read(const recording::CallView &view)
{
    std::vector<ServedPart> out;
    if (!view.systemPieces.empty()) {
        for (std::size_t k = 0; k < view.systemPieces.size(); ++k)
            out.push_back(part(receipt::systemPiecePart(k), view.systemPieces[k].text));
    } else if (view.systemOnRecord) {
        out.push_back(part(std::string(receipt::kSystemTextPart), view.systemText));
    } else {
        out.push_back(notOnRecord(kNoSystemPart));
    }
    if (view.conversationOnRecord) {
        for (std::size_t i = 0; i < view.asSent.size(); ++i)
            out.push_back(message(receipt::messagePart(i), view.asSent.at(i)));
    } else {
        out.push_back(notOnRecord(kNoMessagesPart));
    }
    if (!view.toolsOnRecord) {
        out.push_back(notOnRecord(receipt::kToolNamesPart));
        out.push_back(notOnRecord(kNoSchemasPart));
    } else {
        json::Value names = json::Value::array();
        for (const recording::ToolView &t : view.tools)
            names.push_back(json::Value::string(t.name));
        out.push_back(part(std::string(receipt::kToolNamesPart), json::stringify(names)));
        for (const recording::ToolView &t : view.tools)
            out.push_back(t.schema ? part(receipt::toolSchemaPart(t.name), json::stringify(*t.schema))
                                   : notOnRecord(receipt::toolSchemaPart(t.name)));
    }
    return out;
}

} // namespace tf::compare
