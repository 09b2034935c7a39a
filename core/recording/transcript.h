#pragma once

#include "messageview.h"

#include <cstddef>
#include <vector>

namespace tf::recording {

// The conversation at a call as the transcript reads it: the messages as sent (MessageView, with their collapse
// tickets, tool errors and redaction marks) and which of them the previous call did not send.
struct Transcript
{
    std::vector<MessageView> messages;
    std::vector<bool> isNew; // parallel to `messages`
    std::size_t newCount = 0;
    // Whether "new" could be told: false when the previous call's conversation is not on record (nothing is then
    // marked). At the first call every message is new.
    bool comparable = false;
};

// A message is new when the previous call sent no message like it: a tool result is the same message as long as its
// tool call id is (its content may have been collapsed to a ticket since: that is not new), any other message when
// its role, content and tool calls are. Matched as a multiset, so a repeated user line counts once per sending.
// `previous` is nullptr at the first call.
Transcript transcriptAt(const Run &run, const CallView &view, const CallView *previous);

} // namespace tf::recording
