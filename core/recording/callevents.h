#pragma once

#include "run.h"

#include <cstddef>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tf::recording::detail {

// The llm_start and llm_end of each call key (run id, stage id; in a conversation every turn has its own
// call-llm#18), the first of each on record, read one event at a time: a call that did not get its llm_start or
// llm_end otherwise (a call from a commit log, a response outside its window) gets it from here.
class CallKeyEvents
{
public:
    // Reads run.events from the first not read yet.
    void extend(const Run &run);
    // Gives `call` the llm_start and llm_end of its key that it lacks; true when it got one.
    bool complete(CallRecord &call) const;

private:
    struct Key
    {
        std::string_view runId, stage;
        bool operator==(const Key &) const = default;
    };
    struct KeyHash
    {
        std::size_t operator()(const Key &k) const
        {
            return std::hash<std::string_view>{}(k.runId) * 31 + std::hash<std::string_view>{}(k.stage);
        }
    };
    std::size_t m_read = 0;
    std::unordered_map<Key, std::size_t, KeyHash> m_startByKey, m_endByKey;
};

// Sets calls[c]'s route and tool brackets (spec/recording.md §5.9): the route_decided, iteration_end and tool events
// after its llm_end up to the next call's llm_start (the end of the events read when no call follows).
void bracketCall(const Run &run, std::vector<CallRecord> &calls, std::size_t c);

} // namespace tf::recording::detail
