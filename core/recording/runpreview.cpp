#include "runpreview.h"

#include "builders.h"
#include "loaderror.h"
#include "recordingloader.h"

#include "core/io/passedpages.h"
#include "core/json/parser.h"
#include "core/json/skim.h"
#include "core/packed/packedformat.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <unistd.h>

namespace tf::recording {

namespace {

// Where a recording's parts begin, as skimmed.
struct Layout
{
    bool envelope = false;
    std::optional<std::size_t> events, commitLog, initialState, subflowResults;
};

std::optional<Layout> skimLayout(const io::MappedFile &file, std::size_t root)
{
    const std::string_view text = file.bytes();
    Layout layout;
    bool snapshotPassed = false;
    bool inSnapshot = false;
    bool refused = false;
    const auto place = [&](const std::vector<std::string_view> &path, std::size_t at) {
        // Shape A: {snapshot, events, structure}; an envelope holds the same under "recording".
        std::size_t base = 0;
        if (path[0] == "format" && path.size() == 1) {
            layout.envelope = true;
            if (text.substr(at, 1) != "\"" ||
                packed::isPackedFamily(text.substr(at + 1, text.find('"', at + 1) - at - 1)))
                refused = true; // a packed recording is expanded by the load; nothing to preview from
            return !refused;
        }
        if (layout.envelope) {
            if (path[0] != "recording")
                return true;
            base = 1;
        }
        if (path.size() <= base)
            return true;
        const std::string_view member = path[base];
        if (path.size() == base + 1) {
            if (inSnapshot)
                snapshotPassed = true; // the next member after the snapshot: all of its own were seen
            inSnapshot = member == "snapshot";
            if (member == "events")
                layout.events = at;
        } else if (path.size() == base + 2 && member == "snapshot") {
            if (path[base + 1] == "commitLog")
                layout.commitLog = at;
            else if (path[base + 1] == "initialState")
                layout.initialState = at;
            else if (path[base + 1] == "subflowResults")
                layout.subflowResults = at;
        }
        return !(layout.events && layout.commitLog && (snapshotPassed || layout.subflowResults));
    };
    // Read through a buffer when the file can be opened again as it was mapped; the mapping otherwise (a file in
    // memory, one changed since), letting its pages go behind the skim.
    if (const int fd = file.reopen(); fd >= 0) {
        const std::unique_ptr<const int, void (*)(const int *)> closing(&fd, [](const int *d) { ::close(*d); });
        json::skimMembersOfFile(fd, text.size(), root, 3, place);
    } else {
        json::skimMembers(text, root, 3, place, [passed = io::PassedPages(&file)](std::size_t offset) mutable {
            passed.at(offset);
            return true;
        });
    }
    // A recording with a run log (shape A or B with a snapshot); the other shapes are small or quick to load whole.
    if (refused || !layout.events || !layout.commitLog)
        return std::nullopt;
    return layout;
}

// Parses the items of the array at `begin` one at a time, handing each to `take` until it returns false or the array
// ends; returns whether it ended (nullopt: the part read is not JSON). The pages it has passed are let go as the
// loader's parse lets them go: a preview of most of a large file must not hold most of it.
std::optional<bool> streamItems(const io::MappedFile &file, std::size_t begin, json::StringArena &arena,
                                const std::function<bool(const json::Value &, std::size_t)> &take,
                                const std::atomic<bool> *cancel)
{
    const std::string_view text = file.bytes();
    io::PassedPages passed(&file);
    json::ParseLimits limits;
    limits.progressIntervalBytes = io::kPassStepBytes;
    limits.progress = [&passed, cancel](std::size_t offset) {
        passed.at(offset);
        return !(cancel && cancel->load()); // the whole run is loaded: stop reading ahead
    };
    limits.selfContained = true;
    limits.locateErrors = false;
    limits.streamArrayAt = [](const std::vector<std::string> &path) { return path.empty(); };
    limits.onStreamedItem = [&](json::Value item, std::size_t itemBegin, std::size_t) { return take(item, itemBegin); };
    json::ParseError error;
    json::parse(text, arena, error, begin, nullptr, limits);
    if (!error.failed())
        return true;
    if (error.reason == "stopped")
        return false;
    return std::nullopt;
}

} // namespace

std::optional<RunPreview> previewRun(const std::shared_ptr<const io::MappedFile> &file, std::size_t wantCalls,
                                     const std::atomic<bool> *cancel)
{
    const std::string_view text = file->bytes();
    std::size_t root = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    while (root < text.size() && json::isJsonSpace(text[root]))
        ++root;
    if (root >= text.size() || text[root] != '{' || packed::formatFirstNamesPackedFamily(text))
        return std::nullopt;
    const std::optional<Layout> layout = skimLayout(*file, root);
    if (!layout || (cancel && cancel->load()))
        return std::nullopt;
    wantCalls = std::max<std::size_t>(wantCalls, 1);

    auto run = std::make_shared<Run>();
    run->source = file;
    run->arena = std::make_shared<json::StringArena>();
    run->path = file->path();
    run->shape = layout->envelope ? RecordingShape::Envelope : RecordingShape::Recording;
    run->preview = true;
    std::size_t bytesRead = 0;
    try {
        // The events up to the llm_start after the last call wanted: its bracket (response, tools) is then closed.
        detail::EventCollector events(*run);
        std::size_t starts = 0;
        std::size_t eventsReadTo = *layout->events;
        const std::optional<bool> eventsEnded = streamItems(
            *file, *layout->events, *run->arena,
            [&](const json::Value &item, std::size_t at) {
                eventsReadTo = at;
                events.add(item);
                const json::Value *type = item.findString("type");
                return !(type && type->asString() == eventtype::LlmStart && ++starts > wantCalls);
            },
            cancel);
        if (!eventsEnded || events.firstBadIndex)
            return std::nullopt;
        const LoadErrors errors(run->path, text, root);
        detail::indexEvents(*run, events, errors, {std::string("events")}, LoadControl{});
        detail::readEventFacts(*run);

        std::optional<json::Value> initial, subflows;
        const auto parseAt = [&](std::size_t at) -> std::optional<json::Value> {
            json::ParseLimits limits;
            limits.selfContained = true;
            json::ParseError error;
            json::Value v = json::parse(text, *run->arena, error, at, nullptr, limits);
            return error.failed() || !v.isObject() ? std::nullopt : std::optional<json::Value>(std::move(v));
        };
        if (layout->initialState && !(initial = parseAt(*layout->initialState)))
            return std::nullopt;
        if (layout->subflowResults && !(subflows = parseAt(*layout->subflowResults)))
            return std::nullopt;

        // The commit rows up to the bundle of the call after the last one wanted, found by reading more rows until
        // the calls they hold are enough (a few hundred rows per call at most; the first tries are tiny).
        std::size_t callsFromLog = 0;
        bool logEnded = true;
        std::size_t logReadTo = *layout->commitLog;
        {
            for (std::size_t rows = 64;; rows *= 4) {
                if (cancel && cancel->load())
                    return std::nullopt;
                std::vector<std::uint64_t> offsets;
                const std::optional<bool> ended = streamItems(
                    *file, *layout->commitLog, *run->arena,
                    [&](const json::Value &, std::size_t at) {
                        offsets.push_back(at);
                        return offsets.size() < rows;
                    },
                    cancel);
                if (!ended)
                    return std::nullopt;
                if (!offsets.empty())
                    logReadTo = std::size_t(offsets.back());
                run->calls.clear();
                run->journals.clear();
                detail::buildCallsFromCommitLog(*run, detail::LogRows::streamed(text, std::move(offsets)),
                                                initial ? &*initial : nullptr, subflows ? &*subflows : nullptr,
                                                LoadControl{});
                if (*ended || run->calls.size() > wantCalls) {
                    callsFromLog = run->calls.size();
                    logEnded = *ended;
                    break;
                }
            }
            detail::addCallsOfOtherRuns(*run);
        }
        detail::attachEvents(*run);
        // Keep the calls wholly read: a bundle followed by the next call's (or the log's end), a response followed by
        // the next call's llm_start (or the list's end).
        std::size_t keep = 0;
        const std::size_t fromLog = logEnded ? run->calls.size() : std::min(run->calls.size(), callsFromLog - 1);
        while (keep < std::min(fromLog, wantCalls)) {
            const CallRecord &call = run->calls[keep];
            const bool bracketClosed =
                *eventsEnded || (keep + 1 < run->calls.size() && run->calls[keep + 1].llmStartEvent);
            if (!call.llmEndEvent || !bracketClosed)
                break;
            ++keep;
        }
        if (keep == 0)
            return std::nullopt;
        run->calls.resize(keep);
        detail::finishRun(*run);
        bytesRead = (eventsReadTo - *layout->events) + (logReadTo - *layout->commitLog);
    } catch (const LoadFailure &) {
        return std::nullopt;
    }
    if (cancel && cancel->load())
        return std::nullopt;
    RunPreview preview;
    preview.bytesRead = bytesRead;
    preview.calls = summarizeCalls(*run);
    // The snapshot covers the last run of a recording (spec/runs.md §1), which a prefix of the events cannot name: in
    // a conversation or a resumed run the first events are another run's. Such a run shows at once — its calls'
    // llm_start counts other messages than the state rebuilt from the log — and is left to the full load.
    io::PassedPages passed(file.get()); // the llm_start events, in file order
    for (std::size_t i = 0; i < preview.calls.size(); ++i) {
        const CallRecord &call = run->calls[i];
        if (call.basis == FoldBasis::EventsOnly || !call.llmStartEvent)
            continue;
        passed.at(std::size_t(run->events[*call.llmStartEvent].payloadOffset));
        const json::Value payload = run->payload(run->events[*call.llmStartEvent]);
        const json::Value *count = payload.findNumber("messagesCount");
        if (count && preview.calls[i].messageCount && double(*preview.calls[i].messageCount) != count->asNumber())
            return std::nullopt;
    }
    if (run->runIds.size() > 1)
        return std::nullopt;
    // As a load does once it is built: what the window shows from here is read again on demand.
    file->releaseResidentPages();
    preview.run = std::move(run);
    return preview;
}

} // namespace tf::recording
