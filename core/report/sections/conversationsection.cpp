#include "reportsections.h"

#include "core/report/html/reportchips.h"
#include "core/report/html/reportformat.h"

#include "core/json/writer.h"
#include "core/recording/callview.h"
#include "core/text/utf.h"

namespace tf::report::html {

using recording::CallView;

// The conversation as a transcript: each message once, at the call where it entered the context, then the last
// response. Long results fold behind <details>; everything is escaped. A message that entered at a call the report
// does not detail is one line: the start of its text and its length.
void renderConversation(HtmlWriter &h, const recording::Run &run, const CallSelection &selection)
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
        const bool brief = !selection.detailed(i);
        h.raw("<table width=\"100%\" class=\"rows transcript\" cellspacing=\"0\" cellpadding=\"")
            .raw(brief ? "2" : "4")
            .raw("\"><tbody>");
        for (std::size_t m = seen; m < messages.size(); ++m) {
            const json::Value &msg = messages.at(m);
            const json::Value *role = msg.findString("role");
            const json::Value *content = msg.find("content");
            const json::Value *id = msg.findString("toolCallId");
            const recording::Event *end = id ? run.toolEnd(id->asString()) : nullptr;
            const bool error = end && end->payloadError;
            // The width attribute is for Qt's engine (the PDF), which ignores the stylesheet's width of the role
            // column; a browser takes the stylesheet's.
            h.raw(error ? "<tr class=\"damaged\"><th width=\"10%\">" : "<tr><th width=\"10%\">")
                .text(role ? role->asString() : "?");
            if (id)
                h.raw("<br><code class=\"small\">").text(id->asString()).raw("</code>");
            if (error)
                h.raw("<br><span class=\"chip b-damaged\">tool threw</span>");
            h.raw("</th><td>");
            const std::string body = !content              ? std::string()
                                     : content->isString() ? content->decodedString()
                                                           : json::stringify(*content);
            if (brief) {
                std::size_t cut = 0;
                h.raw("<span class=\"small\">").text(excerpt(body, 160, &cut)).raw("</span>");
                if (cut)
                    h.raw("<span class=\"small muted\">\u2026 (")
                        .raw(counted(text::lengthU16(body), "unit", "units"))
                        .raw(")</span>");
            } else {
                foldedText(h, body, 600, role && role->asString() == "tool" ? "tool result" : "message");
            }
            if (const json::Value *calls = msg.findArray("toolCalls"))
                for (const json::Value &c : *calls) {
                    const json::Value *name = c.findString("name");
                    h.raw(brief ? " <span class=\"small\">calls <code>" : "<div class=\"small\">calls <code>")
                        .text(name ? name->asString() : "?")
                        .raw(brief ? "</code></span>" : "</code></div>");
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
              "cellpadding=\"4\"><tbody><tr><th width=\"10%\">assistant</th><td>");
        foldedText(h, last->response->text, 2000, "message");
        h.raw("</td></tr></tbody></table>");
    } else if (last && !last->response) {
        h.raw("<p class=\"small\"><span class=\"unknown\">The last call has no response on record.</span></p>");
    }
}
} // namespace tf::report::html
