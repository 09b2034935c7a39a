#include "tokentotals.h"

namespace tf::report {

TokenTotals tokenTotals(std::span<const recording::CallSummary> calls)
{
    TokenTotals t;
    t.calls = calls.size();
    const auto add = [](std::optional<double> &sum, const std::optional<double> &v) {
        if (v)
            sum = sum.value_or(0) + *v;
    };
    for (const recording::CallSummary &c : calls) {
        add(t.input, c.input);
        add(t.output, c.output);
        add(t.cacheRead, c.cacheRead);
        add(t.cacheWrite, c.cacheWrite);
        t.reportingCalls += c.input || c.output ? 1 : 0;
    }
    return t;
}

} // namespace tf::report
