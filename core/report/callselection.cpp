#include "callselection.h"

#include <utility>

namespace tf::report {

const char *reportDetailId(ReportDetail detail)
{
    return detail == ReportDetail::Relevant ? "relevant" : "all";
}

bool CallSelection::detailed(std::size_t ordinal) const
{
    if (ordinal >= reasons.size())
        return false;
    return detail == ReportDetail::All || reasons[ordinal] != 0;
}

std::vector<std::size_t> CallSelection::detailedCalls() const
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < reasons.size(); ++i)
        if (detailed(i))
            out.push_back(i);
    return out;
}

CallSelection selectCalls(std::span<const recording::CallSummary> calls, const recording::RunOutcome &outcome,
                          const std::vector<recording::RunLimit> &limits, const Backtrack &backtrack,
                          const CallMarks &marks, ReportDetail detail)
{
    CallSelection s;
    s.detail = detail;
    s.reasons.assign(calls.size(), 0u);
    const auto mark = [&](std::optional<std::size_t> ordinal, unsigned reason) {
        if (ordinal && *ordinal < s.reasons.size())
            s.reasons[*ordinal] |= reason;
    };
    if (calls.empty())
        return s;
    mark(0, FirstCall);
    mark(calls.size() - 1, LastCall);
    for (const recording::CallSummary &c : calls) {
        if (!c.response)
            mark(c.ordinal, NoResponse);
        if (c.damaged)
            mark(c.ordinal, Damaged);
        for (const auto &t : c.toolResults) {
            if (t.error)
                mark(c.ordinal, ToolThrew);
            else if (!t.returned)
                mark(c.ordinal, ToolNeverReturned);
        }
    }
    // A completed run's outcome names the call that answered; that is the answer's reason, not a problem.
    if (outcome.status != recording::OutcomeStatus::Completed)
        mark(outcome.call, RunStopped);
    for (const recording::RunLimit &l : limits)
        mark(l.call, LimitHit);
    for (const auto &[set, reason] : {std::pair{&marks.problems, Problem}, std::pair{&marks.bookmarks, Bookmarked},
                                      std::pair{&marks.notes, Noted}, std::pair{&marks.divergences, Divergence}})
        for (std::size_t ordinal : *set)
            mark(ordinal, reason);
    // A run that never answered (a crash, a pause) has no answer's call, only a last one.
    if (backtrack.answer)
        mark(backtrack.finalOrdinal, Answer);
    for (const BacktrackValue &v : backtrack.values)
        for (const ValueSource &source : v.sources)
            mark(source.enteredOrdinal, AnswerSource);
    for (const ContingentUse &use : backtrack.contingent)
        for (const ContingentUse::Carrier &carrier : use.carriers)
            mark(carrier.enteredOrdinal, AnswerSource);
    return s;
}

std::vector<std::string> detailReasonNames(unsigned reasons)
{
    static constexpr std::pair<DetailReason, const char *> kNames[] = {
        {RunStopped, "the run stopped here"},
        {NoResponse, "no response"},
        {Damaged, "damaged receipt"},
        {ToolThrew, "a tool threw"},
        {ToolNeverReturned, "a tool never returned"},
        {LimitHit, "a limit was hit"},
        {Problem, "a problem"},
        {Divergence, "the runs diverge"},
        {Answer, "the answer"},
        {AnswerSource, "the answer's evidence entered"},
        {Bookmarked, "bookmarked"},
        {Noted, "annotated"},
        {FirstCall, "the first call"},
        {LastCall, "the last call"},
    };
    std::vector<std::string> out;
    for (const auto &[bit, name] : kNames)
        if (reasons & bit)
            out.emplace_back(name);
    return out;
}

} // namespace tf::report
