#include "reportsections.h"

#include "core/audit/runaudit.h"
#include "core/report/html/reportformat.h"
#include "core/text/counted.h"

namespace tf::report::html {

namespace {

// The report's chip classes, by severity: an error reads as damage, a warning as a miss, info as a reconstruction.
const char *severityChipClass(audit::Severity severity)
{
    switch (severity) {
    case audit::Severity::Error:
        return "b-damaged";
    case audit::Severity::Warning:
        return "v-miss";
    case audit::Severity::Info:
        return "b-reconstructed";
    }
    return "b-not-on-record";
}

} // namespace

void renderProblems(HtmlWriter &h, const std::vector<audit::Problem> &problems)
{
    h.raw("<h2 id=\"problems\">Problems</h2>");
    const audit::ProblemCounts n = audit::countProblems(problems);
    if (!n.total()) {
        h.raw("<p>None: no rule of the audit fires on this run (the rules are listed in the README and under "
              "<a href=\"#appendix\">How to read this report</a>).</p>");
        return;
    }
    h.raw("<p>")
        .raw(text::counted(n.errors, "error", "errors"))
        .raw(", ")
        .raw(text::counted(n.warnings, "warning", "warnings"))
        .raw(", ")
        .num(n.infos)
        .raw(" info: what the record shows went wrong, each with the call it points at (<code>tracefold-cli "
             "audit</code> "
             "lists the same).</p>");
    h.raw("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"4\"><thead><tr><th>Severity</th><th>Rule</th>"
          "<th>Call</th><th>Message</th></tr></thead><tbody>");
    for (const audit::Problem &p : problems) {
        h.raw("<tr><td><span class=\"chip ")
            .raw(severityChipClass(p.severity))
            .raw("\">")
            .raw(audit::severityId(p.severity))
            .raw("</span></td><td><code>")
            .raw(audit::auditRuleId(p.rule))
            .raw("</code></td><td>");
        if (p.call)
            callLink(h, *p.call);
        else
            h.raw("the run");
        h.raw("</td><td class=\"wrap\">");
        if (!p.part.empty())
            h.raw("<code>").text(p.part).raw("</code>: ");
        h.text(p.message).raw("</td></tr>");
    }
    h.raw("</tbody></table>");
}

} // namespace tf::report::html
