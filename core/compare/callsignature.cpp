#include "callsignature.h"

namespace tf::compare {

namespace {

// Separators no tool or model name holds in practice; a name that does only makes two signatures compare unequal
// where they might have been equal, never the reverse, because each list also carries its count.
constexpr char kField = '\x1E';
constexpr char kItem = '\x1F';

void appendList(std::string &out, const std::vector<std::string> &items)
{
    out += std::to_string(items.size());
    for (const std::string &item : items) {
        out += kItem;
        out += item;
    }
    out += kField;
}

} // namespace

std::string CallSignature::key() const
{
    std::string out = model;
    out += kField;
    appendList(out, toolsOffered);
    out += responseOnRecord ? '1' : '0';
    out += kField;
    appendList(out, toolCallsMade);
    return out;
}

CallSignature callSignature(const recording::CallView &view)
{
    CallSignature s;
    s.model = view.model;
    for (const recording::ToolView &t : view.tools)
        s.toolsOffered.push_back(t.name);
    if (view.response) {
        s.responseOnRecord = true;
        for (const recording::ToolCallRequest &c : view.response->toolCalls)
            s.toolCallsMade.push_back(c.name);
    }
    return s;
}

} // namespace tf::compare
