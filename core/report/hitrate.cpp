#include "hitrate.h"

namespace tf::report {

HitRate hitRate(std::span<const recording::CallSummary> calls)
{
    HitRate h;
    double read = 0, write = 0, input = 0;
    for (const recording::CallSummary &c : calls) {
        if (!c.cacheRead && !c.cacheWrite) {
            ++h.unmeasured;
            continue;
        }
        ++h.measured;
        read += c.cacheRead.value_or(0);
        write += c.cacheWrite.value_or(0);
        input += c.input.value_or(0);
    }
    if (h.measured == 0) {
        h.reason = "no call reported cache usage";
        return h;
    }
    const double denominator = read + write + input;
    if (denominator == 0) {
        h.reason = "the measured calls report no tokens at all";
        return h;
    }
    h.rate = read / denominator;
    return h;
}

} // namespace tf::report
