#include "recordingloader.h"

#include "builders.h"
#include "listreadahead.h"
#include "loaderror.h"
#include "ndjsonline.h"
#include "redaction.h"

#include "core/io/passedpages.h"
#include "core/json/locate.h"
#include "core/json/parser.h"
#include "core/json/stringends.h"
#include "core/json/writer.h"
#include "core/packed/unpack.h"
#include "core/text/utf.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <system_error>

namespace tf::recording {

namespace {

using detail::joinedPath;
using json::PathStep;
using json::Type;

constexpr std::string_view kEnvelopeFormat = "agentfootprint.recording.v1";

const char *foundTypeName(char c)
{
    switch (c) {
    case '[':
        return "an array";
    case '"':
        return "a string";
    case 't':
    case 'f':
        return "a boolean";
    case 'n':
        return "null";
    default:
        return (c == '-' || (c >= '0' && c <= '9')) ? "a number" : "text that is not JSON";
    }
}

std::string keysOf(const json::Value &object)
{
    constexpr std::size_t kMaxKeys = 20;
    std::string out;
    std::size_t listed = 0;
    for (const json::Member *m = object.memberBegin(); m != object.memberEnd(); ++m) {
        if (listed == kMaxKeys) {
            out += ", \u2026 " + std::to_string(object.memberCount() - kMaxKeys) + " more";
            break;
        }
        if (!out.empty())
            out += ", ";
        out += text::printableLine(m->key, 60);
        ++listed;
    }
    return out;
}

// Thrown by classify when the root names a packed format that the first-member check before the parse did not see:
// the file is then read again as a packed recording.
struct PackedFormatFound
{
};

class Loader
{
public:
    // `expansion`: the file is the unpacked form of a packed recording, which must not be packed again.
    Loader(std::shared_ptr<const io::MappedFile> file, const LoadControl &control, bool expansion)
        : m_control(control)
        , m_expansion(expansion)
        , m_run(std::make_shared<Run>())
    {
        m_run->source = std::move(file);
        m_run->arena = std::make_shared<json::StringArena>();
        m_run->path = m_run->source->path();
        m_text = m_run->source->bytes();
    }

    std::shared_ptr<Run> load();

private:
    json::Value parseDocument(std::size_t start, std::size_t &end);
    void loadNdjson(std::size_t start);
    void classify(const json::Value &root, const LoadErrors &errors);
    void loadRecordingObject(const json::Value &recording, const LoadErrors &errors, std::vector<PathStep> at,
                             const std::string &commitLogPath);
    [[noreturn]] void fail(const std::string &message) const { throw LoadFailure(m_run->path + ": " + message); }
    detail::EventCollector &eventsAt(const std::string &path);
    detail::LogRows commitLogAt(const std::string &path) const;

    const LoadControl &m_control;
    const bool m_expansion;
    std::shared_ptr<Run> m_run;
    std::string_view m_text;
    std::size_t m_rootOffset = 0;
    // The arrays the parser streamed (ParseLimits::streamArrayAt), by their member path joined with '/'.
    std::map<std::string, detail::EventCollector> m_eventLists;
    std::map<std::string, std::vector<std::uint64_t>> m_commitLogs;
};

// Where a recording's big lists can be: the event list of shapes A, B, D and the commit log of A, B, C (and of a bare
// snapshot). They are streamed, never built: a recording's bulk is there.
bool isEventListPath(const std::string &path)
{
    return path == "events" || path == "recording/events";
}

bool isCommitLogPath(const std::string &path)
{
    return path == "commitLog" || path == "snapshot/commitLog" || path == "recording/snapshot/commitLog";
}

// An event is read for a few fields of its payload and meta; a commit-log row only for where it is (it is read
// again, whole, by the fold): nothing deeper is built.
std::size_t streamedItemDepth(const std::string &path)
{
    return isEventListPath(path) ? 2 : 0;
}

detail::EventCollector &Loader::eventsAt(const std::string &path)
{
    return m_eventLists.try_emplace(path, *m_run).first->second;
}

detail::LogRows Loader::commitLogAt(const std::string &path) const
{
    const auto it = m_commitLogs.find(path);
    return detail::LogRows::streamed(m_text, it != m_commitLogs.end() ? it->second : std::vector<std::uint64_t>{},
                                     m_run->stringEnds.get());
}

json::Value Loader::parseDocument(std::size_t start, std::size_t &end)
{
    json::ParseLimits limits;
    const double total = double(std::max<std::size_t>(m_text.size(), 1));
    // What has been parsed is either copied (escaped strings) or a view that can fault back in on use.
    io::PassedPages passed(m_run->source.get());
    limits.progressIntervalBytes = io::kPassStepBytes;
    limits.progress = [&](std::size_t offset) {
        passed.at(offset);
        m_control.report(0.7 * double(offset) / total, "Parsing");
        return !m_control.cancelled();
    };
    // Nothing parsed here depends on the arena: the bulk is dropped as it is read, and what is kept (the call list,
    // the journals) points into the file alone, so a value can always be parsed again from the file, alike.
    limits.selfContained = true;
    std::string streamedPath;
    limits.streamArrayAt = [&](const std::vector<std::string> &path) {
        streamedPath = joinedPath(path);
        return isEventListPath(streamedPath) || isCommitLogPath(streamedPath);
    };
    limits.onStreamedItem = [&](json::Value item, std::size_t begin, std::size_t) {
        if (isEventListPath(streamedPath))
            eventsAt(streamedPath).add(item);
        else
            m_commitLogs[streamedPath].push_back(begin);
        return true;
    };
    limits.streamedItemDepth = [](const std::vector<std::string> &path) { return streamedItemDepth(joinedPath(path)); };
    limits.streamPathDepth = 3;
    auto stringEnds = std::make_shared<json::StringEnds>();
    limits.recordStringEnds = stringEnds.get();
    std::unique_ptr<detail::ListReadAhead> ahead;
    if (m_text.size() >= m_control.readAheadFromBytes.value_or(detail::ListReadAhead::minimumFileBytes())) {
        // Appended: a list at the same path before it (a name given twice) was streamed here too.
        const auto taken = [this](detail::ListReadAhead &read) {
            if (read.isEventList()) {
                eventsAt(read.path()).append(std::move(read.events()));
            } else {
                std::vector<std::uint64_t> &rows = m_commitLogs[read.path()];
                if (rows.empty())
                    rows = std::move(read.rows());
                else
                    rows.insert(rows.end(), read.rows().begin(), read.rows().end());
            }
            m_run->arena->adopt(std::move(read.arena()));
            m_run->listReadAhead = true;
        };
        try {
            ahead = std::make_unique<detail::ListReadAhead>(
                m_run->source, start, limits,
                detail::ListReadAhead::Lists{&isEventListPath, &isCommitLogPath, &streamedItemDepth, taken}, m_control);
            limits.readAhead = ahead.get();
        } catch (const std::system_error &) { // no thread to be had: the parse reads it all, as it can
        }
    }
    json::ParseError error;
    json::Value v = json::parse(m_text, *m_run->arena, error, start, &end, limits);
    ahead.reset();
    stringEnds->finish();
    m_run->stringEnds = std::move(stringEnds);
    if (error.failed()) {
        if (error.reason == "cancelled")
            throw LoadFailure("cancelled");
        fail(error.describe());
    }
    return v;
}

std::shared_ptr<Run> Loader::load()
{
    m_control.report(0, "Opening");
    // §1.2 step 1: a zip (bug-report bundle) starts with a local file header.
    if (m_text.size() >= 4 && m_text.substr(0, 4) == std::string_view("PK\x03\x04", 4))
        fail("this is a zip archive (a bug-report bundle); extract envelope.json from it and open that");
    std::size_t p = 0;
    if (m_text.substr(0, 3) == "\xEF\xBB\xBF")
        p = 3;
    while (p < m_text.size() && json::isJsonSpace(m_text[p]))
        ++p;
    if (p >= m_text.size())
        fail("empty file; expected an agentfootprint recording");
    if (m_text[p] != '{')
        fail("expected a JSON object at byte " + std::to_string(p) + ", found " + foundTypeName(m_text[p]));
    m_rootOffset = p;
    std::size_t end = 0;
    json::Value root = parseDocument(p, end);
    std::size_t q = end;
    while (q < m_text.size() && json::isJsonSpace(m_text[q]))
        ++q;
    if (q < m_text.size()) {
        // §1.2 step 4: more text after one value is NDJSON only when the first value looks like an event.
        if (root.findString("type") && root.contains("payload")) {
            loadNdjson(p);
            return m_run;
        }
        fail("unexpected data after the JSON value at byte " + std::to_string(q));
    }
    const LoadErrors errors(m_run->path, m_text, m_rootOffset);
    classify(root, errors);
    return m_run;
}

void Loader::loadNdjson(std::size_t start)
{
    m_run->shape = RecordingShape::NdjsonEvents;
    m_eventLists.clear(); // whatever the first line's parse streamed is read again below, line by line
    detail::EventCollector &events = eventsAt("");
    std::size_t lineNo = 1;
    for (std::size_t i = 0; i < start; ++i)
        if (m_text[i] == '\n')
            ++lineNo;
    std::size_t pos = start;
    // Back up to the start of the line holding the first value (past a byte-order mark on the first line).
    while (pos > 0 && m_text[pos - 1] != '\n')
        --pos;
    if (pos == 0 && m_text.substr(0, 3) == "\xEF\xBB\xBF")
        pos = 3;
    const double total = double(std::max<std::size_t>(m_text.size(), 1));
    std::size_t lastReport = 0;
    io::PassedPages passed(m_run->source.get());
    while (pos < m_text.size()) {
        std::size_t eol = m_text.find('\n', pos);
        const bool lastLine = eol == std::string_view::npos;
        if (lastLine)
            eol = m_text.size();
        const detail::NdjsonLine line = detail::readNdjsonLine(m_text, pos, eol, *m_run->arena);
        if (line.kind == detail::NdjsonLine::Kind::Bad) {
            if (lastLine && line.parseFailed) {
                m_run->warnings.push_back("line " + std::to_string(lineNo) +
                                          ": last line is incomplete and was ignored");
                break;
            }
            throw LoadFailure(detail::ndjsonLineError(m_run->path, lineNo, m_text, pos, eol, line));
        }
        if (line.kind == detail::NdjsonLine::Kind::Event)
            events.add(line.value);
        pos = eol + 1;
        ++lineNo;
        passed.at(pos);
        if (pos - lastReport > (4u << 20)) {
            lastReport = pos;
            m_control.report(0.7 * double(pos) / total, "Reading events");
            if (m_control.cancelled())
                throw LoadFailure("cancelled");
        }
    }
    const LoadErrors errors(m_run->path, m_text, m_rootOffset);
    detail::indexEvents(*m_run, events, errors, {std::string("events")}, m_control);
    detail::indexEventRun(*m_run);
}

void Loader::loadRecordingObject(const json::Value &recording, const LoadErrors &errors, std::vector<PathStep> at,
                                 const std::string &commitLogPath)
{
    std::vector<std::string> memberPath;
    for (const PathStep &step : at)
        memberPath.push_back(std::get<std::string>(step));
    memberPath.emplace_back("events");
    const std::string eventsPath = joinedPath(memberPath);
    auto path = [&](std::string key) {
        auto p = at;
        p.emplace_back(std::move(key));
        return p;
    };
    const json::Value *events = recording.find("events");
    if (!events || !events->isArray()) {
        if (m_run->shape == RecordingShape::Envelope)
            fail("envelope member \"recording.events\" is missing or not an array");
        errors.wrongType(path("events"), "an array", events);
    }
    const json::Value *snapshot = errors.optional(recording, path("snapshot"), Type::Object);
    const json::Value *structure = errors.optional(recording, path("structure"), Type::Object);
    const json::Value *blueprint = errors.optional(recording, path("blueprint"), Type::Object);
    m_run->hasChart = structure || blueprint;
    if (structure && blueprint)
        m_run->warnings.push_back("both structure and blueprint are present; structure is used");
    detail::indexEvents(*m_run, eventsAt(eventsPath), errors, path("events"), m_control);
    if (snapshot) {
        m_run->hasSnapshot = true;
        auto snap = [&](std::string key) {
            auto p = path("snapshot");
            p.emplace_back(std::move(key));
            return p;
        };
        if (const json::Value *id = errors.optional(*snapshot, snap("runId"), Type::String))
            m_run->engineRunId = id->decodedString();
        if (const json::Value *recorders = snapshot->find("recorders"))
            m_run->servedUnderRedaction = listsRedactionRecorder(*recorders);
        const json::Value *initial = errors.optional(*snapshot, snap("initialState"), Type::Object);
        const json::Value *subflows = errors.optional(*snapshot, snap("subflowResults"), Type::Object);
        if (const json::Value *shared = errors.optional(*snapshot, snap("sharedState"), Type::Object))
            if (const json::Value *ledger = shared->findArray("findingsLedger"))
                m_run->finalLedgerOffset = ledger->sourceOffset();
        if (errors.optional(*snapshot, snap("commitLog"), Type::Array)) {
            detail::readEventFacts(*m_run);
            detail::buildCallsFromCommitLog(*m_run, commitLogAt(commitLogPath), initial, subflows, m_control);
            detail::addCallsOfOtherRuns(*m_run);
            detail::attachEvents(*m_run);
            detail::finishRun(*m_run);
        } else {
            m_run->gaps.push_back({"no-run-log", Gap::Kind::Excuse, {}, "", "The snapshot has no commitLog."});
            detail::indexEventRun(*m_run);
        }
    } else {
        detail::indexEventRun(*m_run);
    }
    if (m_run->servedUnderRedaction)
        m_run->gaps.push_back(redactedRunGap());
}

void Loader::classify(const json::Value &root, const LoadErrors &errors)
{
    // §1.2 step 5, in order.
    if (const json::Value *format = root.find("format")) {
        m_run->shape = RecordingShape::Envelope;
        if (!format->isString())
            fail(std::string("unsupported recording format (a ") + json::typeName(format->type()) +
                 ", not a string); this version of Tracefold reads agentfootprint.recording.v1");
        if (packed::isPackedFamily(format->asString())) {
            if (m_expansion)
                fail("the unpacked recording names a packed format again (" + json::jsQuoted(format->asString()) +
                     "); a packed recording holds a plain one");
            throw PackedFormatFound{};
        }
        if (format->asString() != kEnvelopeFormat)
            fail("unsupported recording format " + json::jsQuoted(format->asString()) +
                 "; this version of Tracefold reads agentfootprint.recording.v1");
        const json::Value *recording = root.findObject("recording");
        if (!recording)
            fail("envelope member \"recording.events\" is missing or not an array");
        if (const json::Value *run = errors.optional(root, {std::string("run")}, Type::Object)) {
            if (const json::Value *id = run->findString("runId"))
                m_run->runId = id->decodedString();
        }
        if (const json::Value *config = errors.optional(root, {std::string("configuration")}, Type::Object)) {
            if (const json::Value *manifest = config->findObject("manifest")) {
                if (const json::Value *mode = manifest->findString("reactMode"))
                    m_run->reactMode = mode->decodedString();
                if (const json::Value *llm = manifest->findObject("llm")) {
                    if (const json::Value *m = llm->findString("model"))
                        m_run->model = m->decodedString();
                    if (const json::Value *pr = llm->findString("provider"))
                        m_run->provider = pr->decodedString();
                }
            }
        }
        loadRecordingObject(*recording, errors, {std::string("recording")}, "recording/snapshot/commitLog");
        return;
    }
    if (const json::Value *header = root.findObject("header");
        header && header->contains("format") && root.findArray("records")) {
        const json::Value *f = header->findString("format");
        fail("this is an audit bundle (" + (f ? text::printableLine(f->asString()) : std::string("unknown format")) +
             "); its payloads are bounded and cannot be replayed");
    }
    if (root.findArray("commitLog") && root.findArray("served")) {
        m_run->shape = RecordingShape::Reference;
        const json::Value &served = *root.findArray("served");
        for (std::size_t i = 0; i < served.size(); ++i) {
            if (!served.at(i).isObject())
                errors.wrongType({std::string("served"), i}, "an object", &served.at(i));
            m_run->servedViews.push_back(served.at(i));
        }
        detail::buildCallsFromCommitLog(*m_run, commitLogAt("commitLog"), nullptr, nullptr, m_control);
        detail::attachEvents(*m_run);
        detail::finishRun(*m_run);
        return;
    }
    if (root.findArray("commits") && root.findObject("subflowResults") && root.findObject("finalState")) {
        m_run->shape = RecordingShape::BoundaryCapture;
        if (const json::Value *id = errors.optional(root, {std::string("runId")}, Type::String))
            m_run->runId = id->decodedString();
        errors.required(root, {std::string("events")}, Type::Array);
        detail::indexEvents(*m_run, eventsAt("events"), errors, {std::string("events")}, m_control);
        detail::readEventFacts(*m_run);
        detail::buildCallsFromBoundaryCapture(*m_run, *root.findObject("subflowResults"),
                                              *root.findObject("finalState"));
        detail::attachEvents(*m_run);
        detail::finishRun(*m_run);
        return;
    }
    if (const json::Value *events = root.findArray("events")) {
        if (const json::Value *version = root.findNumber("version"); version && root.contains("redaction"))
            fail("this is an agentfootprint Trace (version " + json::stringify(*version) +
                 "); it carries no typed events or per-call data — export a recording (recordRun) instead");
        (void)events;
        m_run->shape = RecordingShape::Recording;
        loadRecordingObject(root, errors, {}, "snapshot/commitLog");
        return;
    }
    if (root.findString("type") && root.contains("payload")) {
        loadNdjson(m_rootOffset);
        return;
    }
    if (root.contains("events"))
        errors.wrongType({std::string("events")}, "an array", root.find("events"));
    if (root.findArray("commitLog") && root.findObject("sharedState")) {
        // §1.2 5.8: a bare snapshot opens as shape A with no events.
        m_run->shape = RecordingShape::Recording;
        json::Value wrapped = json::Value::object();
        wrapped.set("events", json::Value::array());
        wrapped.set("snapshot", root);
        m_run->warnings.push_back("bare run snapshot: opened as a recording with no events");
        loadRecordingObject(wrapped, errors, {}, "commitLog");
        return;
    }
    fail("not an agentfootprint recording; found top-level keys [" + keysOf(root) + "]");
}

// The share of a packed recording's progress bar that unpacking takes; loading its expansion takes the rest.
constexpr double kUnpackShare = 0.3;

std::shared_ptr<const io::MappedFile> expandPacked(const io::MappedFile &file, const LoadControl &control)
{
    packed::ExpandControl expand;
    expand.progress = [&](double fraction, const std::string &stage) {
        control.report(kUnpackShare * fraction, stage);
    };
    expand.cancelled = [&] { return control.cancelled(); };
    std::string error;
    auto expanded = packed::expandToMapping(file, expand, error);
    if (!expanded)
        throw LoadFailure(error);
    return expanded;
}

std::shared_ptr<Run> loadPacked(std::shared_ptr<const io::MappedFile> file, const LoadControl &control)
{
    auto expanded = expandPacked(*file, control);
    file->releaseResidentPages();
    LoadControl rest = control;
    rest.progress = [&](double fraction, const std::string &message) {
        control.report(kUnpackShare + (1 - kUnpackShare) * fraction, message);
    };
    try {
        Loader loader(std::move(expanded), rest, true);
        std::shared_ptr<Run> run = loader.load();
        run->packedFile = std::move(file);
        return run;
    } catch (const LoadFailure &failure) {
        // Positions in the message are in the unpacked text, which the user can write out to look at.
        const std::string what = failure.what();
        throw LoadFailure(what == "cancelled" ? what
                                              : what + " (in the unpacked recording; tracefold-cli unpack writes it)");
    }
}

LoadResult runLoader(std::shared_ptr<const io::MappedFile> file, const LoadControl &control)
{
    LoadResult result;
    const std::string name = file->path(); // every refusal names the file (spec/recording.md §1.8)
    const std::shared_ptr<const io::MappedFile> opened = file;
    try {
        std::shared_ptr<Run> run;
        if (packed::formatFirstNamesPackedFamily(file->bytes())) {
            run = loadPacked(std::move(file), control);
        } else {
            try {
                Loader loader(file, control, false);
                run = loader.load();
            } catch (const PackedFormatFound &) {
                run = loadPacked(std::move(file), control);
            }
        }
        // The list grew by doubling as the file streamed: at 100,000 calls, 11 MB of it was room for calls to come.
        run->calls.shrink_to_fit();
        result.run = std::move(run);
        // Every call costs a summary and a view of some kilobytes in every front end; a hostile file of a million
        // tiny calls must not turn into gigabytes (a real run has a few thousand calls at most).
        if (result.run->calls.size() > kMaxCalls)
            throw LoadFailure(name + ": " + std::to_string(result.run->calls.size()) +
                              " LLM calls; Tracefold opens recordings of at most " + std::to_string(kMaxCalls) +
                              " calls");
        result.run->source->releaseResidentPages();
        control.report(1.0, "Ready");
    } catch (const LoadFailure &failure) {
        result.run.reset();
        result.error = failure.what();
        result.cancelled = result.error == "cancelled";
    } catch (const std::bad_alloc &) {
        result.run.reset();
        result.error = name + ": out of memory while loading";
    } catch (const std::length_error &e) {
        result.run.reset();
        result.error = name + ": value too large: " + e.what();
    }
    // A file that changed under the parse reads as zeros or as another file's bytes: whatever the parse made of
    // them, success or refusal, is not about the file, and the reason is the change.
    if (!result.cancelled)
        if (std::string change = opened->changedOnDisk(); !change.empty()) {
            result.run.reset();
            result.error = std::move(change);
            result.changedOnDisk = true;
        }
    return result;
}

} // namespace

LoadResult loadRecording(const std::string &path, const LoadControl &control)
{
    std::string error;
    auto file = io::MappedFile::open(path, error);
    if (!file) {
        LoadResult result;
        result.error = error;
        return result;
    }
    LoadResult result = runLoader(std::move(file), control);
    return result;
}

LoadResult loadRecordingFromBytes(std::string bytes, const std::string &name, const LoadControl &control)
{
    return runLoader(io::MappedFile::fromString(std::move(bytes), name), control);
}

} // namespace tf::recording
