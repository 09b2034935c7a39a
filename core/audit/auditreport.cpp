#include "auditreport.h"

#include "runaudit.h"

#include "core/text/counted.h"
#include "core/text/utf.h"

#include <sstream>

namespace tf::audit {

std::string auditText(const recording::Run &run, const std::vector<Problem> &problems)
{
    std::ostringstream out;
    const std::string file = text::printableLine(run.path, 400);
    for (const Problem &p : problems) {
        out << file << ": ";
        if (p.call)
            out << "call " << *p.call + 1;
        else
            out << "run";
        if (!p.part.empty())
            out << " (" << text::printableLine(p.part) << ')';
        out << ": " << severityId(p.severity) << ": " << text::printableLine(p.message, 400) << " ["
            << auditRuleId(p.rule) << "]\n";
    }
    const ProblemCounts n = countProblems(problems);
    out << file << ": ";
    if (!n.total())
        out << "no problems found";
    else
        out << text::counted(n.total(), "problem", "problems") << ": " << text::counted(n.errors, "error", "errors")
            << ", " << text::counted(n.warnings, "warning", "warnings") << ", " << n.infos << " info";
    out << " (" << text::counted(run.calls.size(), "call", "calls") << ")\n";
    return out.str();
}

json::Value auditJson(const recording::Run &run, const std::vector<Problem> &problems)
{
    using json::Value;
    Value doc = Value::object();
    doc.set("schema", Value::number(1));
    doc.set("file", Value::string(run.path));
    Value list = Value::array();
    for (const Problem &p : problems) {
        Value o = Value::object();
        o.set("rule", Value::string(auditRuleId(p.rule)));
        o.set("severity", Value::string(severityId(p.severity)));
        o.set("call", p.call ? Value::number(double(*p.call + 1)) : Value::null());
        if (!p.part.empty())
            o.set("part", Value::string(p.part));
        o.set("message", Value::string(p.message));
        list.push_back(o);
    }
    doc.set("problems", list);
    return doc;
}

} // namespace tf::audit
