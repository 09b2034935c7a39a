#include "timelineview.h"

#include "run.h"

#include <algorithm>
#include <limits>

namespace tf::recording {

const char *timelineMarkerKindId(TimelineMarker::Kind kind)
{
    switch (kind) {
    case TimelineMarker::Kind::Pause:
        return "pause";
    case TimelineMarker::Kind::Resume:
        return "resume";
    case TimelineMarker::Kind::Limit:
        return "limit";
    case TimelineMarker::Kind::Failure:
        return "failure";
    }
    return "limit";
}

namespace {

class Clock
{
public:
    explicit Clock(const Run &run)
        : m_run(run)
    {
        for (const Event &e : run.events)
            if (e.wallClockMs) {
                if (!m_origin)
                    m_origin = *e.wallClockMs;
                m_last = std::max(m_last, *e.wallClockMs - *m_origin);
            }
    }
    bool timed() const { return m_origin.has_value(); }
    double origin() const { return m_origin.value_or(0); }
    double last() const { return m_last; }
    std::optional<double> at(std::optional<std::size_t> event) const
    {
        const Event *e = m_run.event(event);
        if (!e || !e->wallClockMs || !m_origin)
            return std::nullopt;
        return *e->wallClockMs - *m_origin;
    }
    // The last timestamp among events [from, to): where an open span is drawn to.
    std::optional<double> lastIn(std::size_t from, std::size_t to) const
    {
        to = std::min(to, m_run.events.size());
        for (std::size_t i = to; i > from; --i)
            if (const std::optional<double> t = at(i - 1))
                return t;
        return std::nullopt;
    }

private:
    const Run &m_run;
    std::optional<double> m_origin;
    double m_last = 0;
};

void orderAndIndex(std::vector<TimelineSpan> &spans)
{
    std::stable_sort(spans.begin(), spans.end(),
                     [](const TimelineSpan &a, const TimelineSpan &b) { return a.startMs < b.startMs; });
    double maxEnd = -std::numeric_limits<double>::infinity();
    for (TimelineSpan &s : spans) {
        maxEnd = std::max(maxEnd, s.endMs);
        s.maxEndMs = maxEnd;
    }
}

// Greedy interval rows: a tool goes on the first row free at its start.
std::size_t assignLanes(std::vector<TimelineSpan> &tools)
{
    std::vector<double> rowEnds;
    for (TimelineSpan &t : tools) {
        std::size_t row = 0;
        while (row < rowEnds.size() && rowEnds[row] > t.startMs)
            ++row;
        if (row == rowEnds.size())
            rowEnds.push_back(0);
        rowEnds[row] = std::max(t.endMs, t.startMs);
        t.lane = row;
    }
    return rowEnds.size();
}

} // namespace

TimelineView timelineView(const Run &run, std::span<const CallSummary> summaries)
{
    TimelineView out;
    const Clock clock(run);
    out.timed = clock.timed();
    out.originWallClockMs = clock.origin();
    out.endMs = clock.last();
    if (!out.timed) {
        out.untimedCalls = run.calls.size();
        return out;
    }
    const std::size_t eventCount = run.events.size();
    // Where each call's events stop: the next call's llm_start (calls are in event order).
    const auto nextStart = [&](std::size_t ordinal) {
        for (std::size_t n = ordinal + 1; n < run.calls.size(); ++n)
            if (run.calls[n].llmStartEvent)
                return *run.calls[n].llmStartEvent;
        return eventCount;
    };
    const auto openEnd = [&](std::size_t from, std::size_t to, double start) {
        ++out.openSpans;
        return std::max(start, clock.lastIn(from, to).value_or(start));
    };
    // Room for every span up front: lists grown by doubling held a third more than their spans at 100,000 calls
    // (24 MB of 72), in a view the window keeps two of while a run's index is finished.
    std::size_t toolStarts = 0;
    for (const CallRecord &c : run.calls)
        for (std::size_t i : c.toolEvents)
            toolStarts += run.events[i].type == eventtype::ToolStart ? 1 : 0;
    out.iterations.reserve(run.calls.size());
    out.calls.reserve(run.calls.size());
    out.tools.reserve(toolStarts);

    for (const CallRecord &c : run.calls) {
        const std::optional<double> start = clock.at(c.llmStartEvent);
        if (!start) {
            ++out.untimedCalls;
            continue;
        }
        const std::size_t bound = nextStart(c.ordinal);
        const Event &llmStart = run.events[*c.llmStartEvent];

        TimelineSpan call;
        call.call = c.ordinal;
        call.turn = c.turn;
        call.iteration = llmStart.iteration();
        call.startMs = *start;
        if (const std::optional<double> end = clock.at(c.llmEndEvent)) {
            call.endMs = std::max(*start, *end);
        } else {
            call.endOnRecord = false;
            call.endMs = openEnd(*c.llmStartEvent, bound, *start);
        }
        if (c.ordinal < summaries.size())
            call.verdict = summaries[c.ordinal].verdict;
        call.error = run.outcome.status == OutcomeStatus::Failed && run.outcome.call == c.ordinal;
        out.calls.push_back(call);

        // The iteration: from its iteration_start (just before the llm_start) to its iteration_end.
        TimelineSpan iteration = call;
        iteration.error = false;
        for (std::size_t i = *c.llmStartEvent; i > 0; --i) {
            const Event &e = run.events[i - 1];
            if (e.type == eventtype::LlmStart || e.type == eventtype::IterationEnd)
                break;
            if (e.type == eventtype::IterationStart) {
                iteration.startMs = clock.at(e.index).value_or(iteration.startMs);
                break;
            }
        }
        if (const std::optional<double> end = clock.at(c.iterationEndEvent)) {
            iteration.endMs = std::max(iteration.startMs, *end);
            iteration.endOnRecord = true;
        } else {
            iteration.endOnRecord = false;
            iteration.endMs = openEnd(*c.llmStartEvent, bound, iteration.startMs);
        }
        out.iterations.push_back(iteration);

        // The tools its response asked for, paired by id among the call's own tool events (ids can repeat in a run).
        for (std::size_t i : c.toolEvents) {
            const Event &e = run.events[i];
            if (e.type != eventtype::ToolStart)
                continue;
            const std::optional<double> toolStart = clock.at(i);
            if (!toolStart) {
                ++out.untimedTools;
                continue;
            }
            TimelineSpan tool;
            tool.call = c.ordinal;
            tool.turn = c.turn;
            tool.iteration = call.iteration;
            tool.toolId = e.toolCallId;
            tool.startMs = *toolStart;
            std::optional<std::size_t> endEvent;
            for (std::size_t j : c.toolEvents)
                if (j > i && run.events[j].type == eventtype::ToolEnd && run.events[j].toolCallId == e.toolCallId) {
                    endEvent = j;
                    break;
                }
            if (const std::optional<double> end = clock.at(endEvent)) {
                tool.endMs = std::max(*toolStart, *end);
                tool.error = run.events[*endEvent].payloadError;
            } else {
                tool.endOnRecord = false;
                tool.endMs = openEnd(i, bound, *toolStart);
            }
            if (c.ordinal < summaries.size())
                for (const CallSummary::ToolResultBrief &brief : summaries[c.ordinal].toolResults)
                    if (brief.id == tool.toolId)
                        tool.toolName = brief.name;
            out.tools.push_back(std::move(tool));
        }
    }

    // Turns: from the turn_start before its first call to its turn_end (spec/runs.md §1), else to the last event.
    for (const Turn &turn : run.turns) {
        if (turn.calls.empty())
            continue;
        const CallRecord &first = run.calls[turn.calls.front()];
        const CallRecord &last = run.calls[turn.calls.back()];
        if (!last.llmStartEvent)
            continue;
        if (!first.llmStartEvent)
            continue;
        // Its turn_start, among the events between the previous call's and its first call's llm_start.
        std::optional<double> start = clock.at(first.llmStartEvent);
        for (std::size_t i = *first.llmStartEvent; i > 0; --i) {
            const Event &e = run.events[i - 1];
            if (e.type == eventtype::LlmStart)
                break;
            if (e.type == eventtype::TurnStart) {
                start = clock.at(e.index).value_or(start.value_or(0));
                break;
            }
        }
        if (!start)
            continue;
        TimelineSpan band;
        band.turn = turn.number - 1;
        band.startMs = *start;
        const std::size_t bound = nextStart(last.ordinal);
        std::optional<std::size_t> turnEnd;
        for (std::size_t i = *last.llmStartEvent; i < bound && turn.ended; ++i)
            if (run.events[i].type == eventtype::TurnEnd) {
                turnEnd = i;
                break;
            }
        if (const std::optional<double> end = clock.at(turnEnd)) {
            band.endMs = std::max(*start, *end);
        } else {
            band.endOnRecord = false;
            band.endMs = openEnd(*last.llmStartEvent, bound, *start);
        }
        out.turns.push_back(band);
    }

    // Pauses: a request until its resume; markers for both, the limits and the failure.
    std::optional<std::size_t> pausedAt;
    const auto closePause = [&](std::optional<double> end) {
        TimelineSpan pause;
        pause.startMs = clock.at(pausedAt).value_or(0);
        pause.endOnRecord = end.has_value();
        if (!end)
            ++out.openSpans;
        pause.endMs = std::max(pause.startMs, end.value_or(out.endMs));
        pause.call = run.outcome.status == OutcomeStatus::Paused && !end ? run.outcome.call : std::nullopt;
        out.pauses.push_back(pause);
        pausedAt.reset();
    };
    for (const Event &e : run.events) {
        const bool pause = e.type == eventtype::PauseRequest, resume = e.type == eventtype::PauseResume;
        if (!pause && !resume)
            continue;
        const std::optional<double> at = clock.at(e.index);
        if (!at)
            continue;
        if (resume && pausedAt)
            closePause(at);
        if (pause && !pausedAt)
            pausedAt = e.index;
        TimelineMarker m;
        m.kind = pause ? TimelineMarker::Kind::Pause : TimelineMarker::Kind::Resume;
        m.atMs = *at;
        m.label =
            pause ? (run.outcome.status == OutcomeStatus::Paused && run.outcome.event == e.index && run.outcome.message
                         ? "paused: " + *run.outcome.message
                         : std::string("paused"))
                  : std::string("resumed");
        out.markers.push_back(std::move(m));
    }
    if (pausedAt)
        closePause(std::nullopt);
    for (const RunLimit &limit : run.limits)
        if (const std::optional<double> at = clock.at(limit.event))
            out.markers.push_back({TimelineMarker::Kind::Limit, *at, limit.call,
                                   limit.kind + (limit.message.empty() ? "" : ": " + limit.message)});
    if (run.outcome.status == OutcomeStatus::Failed)
        if (const std::optional<double> at = clock.at(run.outcome.event))
            out.markers.push_back({TimelineMarker::Kind::Failure, *at, run.outcome.call,
                                   "failed" + (run.outcome.message ? ": " + *run.outcome.message : "")});

    for (std::vector<TimelineSpan> *spans : {&out.turns, &out.iterations, &out.calls, &out.tools, &out.pauses})
        orderAndIndex(*spans);
    out.toolLanes = assignLanes(out.tools);
    std::stable_sort(out.markers.begin(), out.markers.end(),
                     [](const TimelineMarker &a, const TimelineMarker &b) { return a.atMs < b.atMs; });
    return out;
}

std::pair<std::size_t, std::size_t> spansIn(const std::vector<TimelineSpan> &spans, double fromMs, double toMs)
{
    // maxEndMs never decreases along the list: the spans before `first` all ended before fromMs.
    const auto first =
        std::partition_point(spans.begin(), spans.end(), [&](const TimelineSpan &s) { return s.maxEndMs < fromMs; });
    const auto last =
        std::partition_point(first, spans.end(), [&](const TimelineSpan &s) { return s.startMs <= toMs; });
    return {std::size_t(first - spans.begin()), std::size_t(last - spans.begin())};
}

std::optional<std::size_t> spanAt(const std::vector<TimelineSpan> &spans, double atMs, double slackMs)
{
    const auto [first, last] = spansIn(spans, atMs - slackMs, atMs + slackMs);
    std::optional<std::size_t> best;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (std::size_t i = first; i < last; ++i) {
        const TimelineSpan &s = spans[i];
        const double distance = atMs < s.startMs ? s.startMs - atMs : atMs > s.endMs ? atMs - s.endMs : 0;
        if (distance <= slackMs && distance <= bestDistance) {
            best = i;
            bestDistance = distance;
        }
    }
    return best;
}

} // namespace tf::recording
