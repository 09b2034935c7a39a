#include "toolresults.h"

namespace tf::recording {

std::vector<ToolResultEvent> toolResultsAfter(const Run &run, const CallRecord &call)
{
    std::vector<ToolResultEvent> out;
    for (const std::size_t i : call.toolEvents) {
        const Event *e = run.event(i);
        if (!e || e->type != eventtype::ToolEnd)
            continue;
        const json::Value payload = run.payload(*e);
        ToolResultEvent r;
        r.event = i;
        if (const json::Value *id = payload.findString("toolCallId"))
            r.toolCallId = id->decodedString();
        if (const json::Value *name = payload.findString("toolName"))
            r.toolName = name->decodedString();
        if (const json::Value *result = payload.find("result"))
            r.result = *result;
        if (const json::Value *served = payload.find("modelResult"))
            r.modelResult = *served;
        const json::Value *error = payload.find("error");
        r.error = error && error->isBool() && error->asBool();
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace tf::recording
