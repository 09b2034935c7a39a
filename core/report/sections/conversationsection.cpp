#include "reportsections.h"

#include "core/report/html/reportchips.h"
#include "core/report/html/reportformat.h"

#include "core/json/writer.h"
#include "core/recording/callview.h"

namespace tf::report::html {

using recording::CallView;

// The conversation as a transcript: each message once, at the call where it entered the context, then the last
// response. Long results fold behind <details>; everything is escaped.
void renderConversation(HtmlWriter &h, const recording::Run &run)
{
    sectionHeading(h, "conversation", 4, "Conversation");
    std::size_t seen = 0;
    std::optional<std::size_t> turn;
    std::optional<CallView> last;
    for (std::size_t i = 0; i < run.calls.size(); ++i) {
        CallView view = recording::buildCallView(run, i);
        if (view.turn != turn) {
            turn = view.turn;
            const recording::Turn &t = run.turns.at(view.turn);
            h.raw("<h4>Turn ").num(t.number).raw("</h4>");
        }
        h.raw("<p class=\"small muted\">");
        callLink(h, i);
        if (!view.conversationOnRecord) {
            h.raw(": the conversation is not on record</p>");
            last = std::move(view);
            continue;
        }
        const json::Value &messages = view.committed;
        if (messages.size() < seen)
            seen = 0; // the history was not carried over (an eviction window, a new conversation): show it whole
        h.raw(": ")
            .num(messages.size() - seen)
            .raw(messages.size() - seen == 1 ? " new message" : " new messages")
            .raw("</p>");
        h.raw("<table width=\"100%\" class=\"rows transcript\" cellspacing=\"0\" cellpadding=\"4\"><tbody>");
        for (std::size_t m = seen; m < messages.size(); ++m) {
            const json::Value &msg = messages.at(m);
            const json::Value *role = msg.findString("role");
            const json::Value *content = msg.find("content");
            const json::Value *id = msg.findString("toolCallId");
            const recording::Event *end = id ? run.toolEnd(id->asString()) : nullptr;
            const bool error = end && end->payloadError;
            h.raw(error ? "<tr class=\"damaged\"><th>" : "<tr><th>").text(role ? role->asString() : "?");
            if (id)
                h.raw("<br><code class=\"small\">").text(id->asString()).raw("</code>");
            if (error)
                h.raw("<br><span class=\"chip b-damaged\">tool threw</span>");
            h.raw("</th><td>");
            const std::string body = !content              ? std::string()
                                     : content->isString() ? content->decodedString()
                                                           : json::stringify(*content);
            foldedText(h, body, 600, role && role->asString() == "tool" ? "tool result" : "message");
            if (const json::Value *calls = msg.findArray("toolCalls"))
                for (const json::Value &c : *calls) {
                    const json::Value *name = c.findString("name");
                    h.raw("<div class=\"small\">calls <code>").text(name ? name->asString() : "?").raw("</code></div>");
                }
            h.raw("</td></tr>");
        }
        h.raw("</tbody></table>");
        seen = messages.size();
        last = std::move(view);
    }
    if (last && last->response && !last->response->text.empty()) {
        h.raw("<p class=\"small muted\">The last response (");
        callLink(h, last->ordinal);
        h.raw(")</p><table width=\"100%\" class=\"rows transcript\" cellspacing=\"0\" "
              "cellpadding=\"4\"><tbody><tr><th>assistant</th><td>");
        foldedText(h, last->response->text, 2000, "message");
        h.raw("</td></tr></tbody></table>");
    } else if (last && !last->response) {
        h.raw("<p class=\"small\"><span class=\"unknown\">The last call has no response on record.</span></p>");
    }
}
} // namespace tf::report::html
