#include "reportsections.h"

#include "core/report/html/reportchips.h"
#include "core/report/html/reportformat.h"

#include "core/json/writer.h"
#include "core/recording/callview.h"
#include "core/text/utf.h"

namespace tf::report::html {

using recording::CallView;

namespace {

std::string bodyOf(const json::Value &message)
{
    const json::Value *content = message.find("content");
    return !content ? std::string() : content->isString() ? content->decodedString() : json::stringify(*content);
}

bool threw(const recording::Run &run, const json::Value &message)
{
    const json::Value *id = message.findString("toolCallId");
    const recording::Event *end = id ? run.toolEnd(id->asString()) : nullptr;
    return end && end->payloadError;
}

// A call the report shows in full: each new message in a row of its own, its text whole (long ones folded).
void renderMessages(HtmlWriter &h, const recording::Run &run, const json::Value &messages, std::size_t from)
{
    h.raw("<table width=\"100%\" class=\"rows transcript\" cellspacing=\"0\" cellpadding=\"4\"><tbody>");
    for (std::size_t m = from; m < messages.size(); ++m) {
        const json::Value &msg = messages.at(m);
        const json::Value *role = msg.findString("role");
        const json::Value *id = msg.findString("toolCallId");
        const bool error = threw(run, msg);
        // The width attribute is for Qt's engine (the PDF), which ignores the stylesheet's width of the role
        // column; a browser takes the stylesheet's.
        h.raw(error ? "<tr class=\"damaged\"><th width=\"10%\">" : "<tr><th width=\"10%\">")
            .text(role ? role->asString() : "?");
        if (id)
            h.raw("<br><code class=\"small\">").text(id->asString()).raw("</code>");
        if (error)
            h.raw("<br><span class=\"chip b-damaged\">tool threw</span>");
        h.raw("</th><td>");
        foldedText(h, bodyOf(msg), 600, role && role->asString() == "tool" ? "tool result" : "message");
        if (const json::Value *calls = msg.findArray("toolCalls"))
            for (const json::Value &c : *calls) {
                const json::Value *name = c.findString("name");
                h.raw("<div class=\"small\">calls <code>").text(name ? name->asString() : "?").raw("</code></div>");
            }
        h.raw("</td></tr>");
    }
    h.raw("</tbody></table>");
}

// A call the report does not detail: one row for everything that entered there. What the user and the model wrote
// starts the row (its first 160 units); tool results are named with their size, the text being in the HTML report.
void renderBriefRow(HtmlWriter &h, const recording::Run &run, std::size_t ordinal, const json::Value &messages,
                    std::size_t from)
{
    bool error = false;
    for (std::size_t m = from; m < messages.size(); ++m)
        error = error || threw(run, messages.at(m));
    h.raw(error ? "<tr class=\"damaged\">" : "<tr>").raw("<td width=\"10%\" class=\"small\">");
    callLink(h, ordinal);
    h.raw("</td><td><span class=\"small\">");
    if (from >= messages.size())
        h.raw("<span class=\"muted\">no new message</span>");
    std::vector<const json::Value *> results;
    bool first = true;
    for (std::size_t m = from; m < messages.size(); ++m) {
        const json::Value &msg = messages.at(m);
        const json::Value *role = msg.findString("role");
        if (role && role->asString() == "tool") {
            results.push_back(&msg);
            continue;
        }
        h.raw(first ? "" : " \u00B7 ").raw("<b>").text(role ? role->asString() : "?").raw("</b> ");
        first = false;
        std::size_t cut = 0;
        const std::string body = bodyOf(msg);
        h.text(excerpt(body, 160, &cut));
        if (cut)
            h.raw("<span class=\"muted\">\u2026 (")
                .raw(counted(text::lengthU16(body), "unit", "units"))
                .raw(")</span>");
        if (const json::Value *calls = msg.findArray("toolCalls"))
            for (std::size_t c = 0; c < calls->size(); ++c) {
                const json::Value *name = calls->at(c).findString("name");
                h.raw(c ? ", " : " \u2192 calls ").raw("<code>").text(name ? name->asString() : "?").raw("</code>");
            }
    }
    if (!results.empty()) {
        h.raw(first ? "" : " \u00B7 ")
            .raw("<b>")
            .raw(counted(results.size(), "tool result", "tool results"))
            .raw("</b> ");
        for (std::size_t r = 0; r < results.size(); ++r) {
            const json::Value *id = results[r]->findString("toolCallId");
            h.raw(r ? ", " : "").raw("<code>").text(id ? id->asString() : "?").raw("</code> ");
            h.raw(counted(text::lengthU16(bodyOf(*results[r])), "unit", "units"));
            if (threw(run, *results[r]))
                h.raw(" <span class=\"chip b-damaged\">tool threw</span>");
        }
    }
    h.raw("</span></td></tr>");
}

} // namespace

// The conversation as a transcript: each message once, at the call where it entered the context, then the last
// response. Long results fold behind <details>; everything is escaped. The calls the report does not detail are one
// row each, in one table per stretch of them.
void renderConversation(HtmlWriter &h, const recording::Run &run, const CallSelection &selection)
{
    sectionHeading(h, "conversation", 4, "Conversation");
    std::size_t seen = 0;
    std::optional<std::size_t> turn;
    std::optional<CallView> last;
    bool briefOpen = false;
    const auto closeBrief = [&] {
        if (briefOpen)
            h.raw("</tbody></table>");
        briefOpen = false;
    };
    for (std::size_t i = 0; i < run.calls.size(); ++i) {
        CallView view = recording::buildCallView(run, i);
        if (view.turn != turn) {
            closeBrief();
            turn = view.turn;
            const recording::Turn &t = run.turns.at(view.turn);
            h.raw("<h4>Turn ").num(t.number).raw("</h4>");
        }
        const json::Value &messages = view.committed;
        if (view.conversationOnRecord && messages.size() < seen)
            seen = 0; // the history was not carried over (an eviction window, a new conversation): show it whole
        if (view.conversationOnRecord && !selection.detailed(i)) {
            if (!briefOpen)
                h.raw("<table width=\"100%\" class=\"rows transcript\" cellspacing=\"0\" cellpadding=\"2\"><tbody>");
            briefOpen = true;
            renderBriefRow(h, run, i, messages, seen);
            seen = messages.size();
            last = std::move(view);
            continue;
        }
        closeBrief();
        h.raw("<p class=\"small muted\">");
        callLink(h, i);
        if (!view.conversationOnRecord) {
            h.raw(": the conversation is not on record</p>");
            last = std::move(view);
            continue;
        }
        h.raw(": ").raw(counted(messages.size() - seen, "new message", "new messages")).raw("</p>");
        renderMessages(h, run, messages, seen);
        seen = messages.size();
        last = std::move(view);
    }
    closeBrief();
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
