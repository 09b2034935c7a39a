#include "notes.h"

#include "core/crypto/sha256.h"
#include "core/json/jsnumber.h"
#include "core/json/parser.h"
#include "core/json/writer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <sstream>

namespace tf::notes {

namespace {

using json::Value;

std::string baseName(const std::string &path)
{
    const std::size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

Value callRefJson(const CallRef &call)
{
    Value o = Value::object();
    o.set("epoch", Value::number(call.epoch));
    o.set("callRuntimeStageId", Value::string(call.callRuntimeStageId));
    return o;
}

// A strictly typed reader over a parsed object: every getter says whether the member had the right type.
std::optional<CallRef> readCallRef(const Value &o)
{
    const Value *epoch = o.findNumber("epoch");
    const Value *stage = o.findString("callRuntimeStageId");
    if (!epoch || !std::isfinite(epoch->asNumber()) || epoch->asNumber() != std::floor(epoch->asNumber()))
        return std::nullopt;
    CallRef ref;
    ref.epoch = int(epoch->asNumber());
    if (stage)
        ref.callRuntimeStageId = stage->decodedString();
    return ref;
}

std::string stringOr(const Value &o, std::string_view key)
{
    const Value *v = o.findString(key);
    return v ? v->decodedString() : std::string();
}

} // namespace

CallRef callRefOf(const recording::CallRecord &call)
{
    return {call.epoch, call.callRuntimeStageId};
}

const char *targetKindId(TargetKind kind)
{
    return kind == TargetKind::Call ? "call" : "ledger-row";
}

RecordingIdentity identityOf(std::string_view bytes, const std::string &path)
{
    RecordingIdentity id;
    id.path = baseName(path);
    id.size = bytes.size();
    id.sha256OfFirstMiB = crypto::Sha256::hexDigest(bytes.substr(0, std::min(bytes.size(), kIdentityPrefixBytes)));
    return id;
}

RecordingIdentity identityOf(const recording::Run &run)
{
    // The file beside which the sidecar lives, as it is on disk: a packed recording, not its expansion.
    const auto &file = run.packedFile ? run.packedFile : run.source;
    return identityOf(file ? file->bytes() : std::string_view{}, run.path);
}

std::string sidecarPathFor(const std::string &recordingPath)
{
    return recordingPath + ".tracefold.json";
}

ReadResult parseSidecar(std::string_view text, const std::string &name)
{
    ReadResult result;
    json::StringArena arena;
    json::ParseError error;
    std::size_t end = 0;
    const Value root = json::parse(text, arena, error, 0, &end);
    if (error.failed()) {
        result.error = name + ": " + error.describe();
        return result;
    }
    while (end < text.size() && json::isJsonSpace(text[end]))
        ++end;
    if (end != text.size()) {
        result.error = name + ": unexpected text after the sidecar object at byte " + std::to_string(end);
        return result;
    }
    if (!root.isObject()) {
        result.error = name + ": a sidecar is a JSON object, found " + json::typeName(root.type());
        return result;
    }
    const Value *version = root.findNumber("version");
    if (!version) {
        result.error = name + ": no numeric \"version\"";
        return result;
    }
    if (version->asNumber() != kSidecarVersion) {
        result.error = name + ": unsupported sidecar version " + json::jsNumberToString(version->asNumber()) +
                       " (this Tracefold reads version 1)";
        return result;
    }
    Sidecar sidecar;
    if (const Value *rec = root.findObject("recording")) {
        sidecar.recording.path = stringOr(*rec, "path");
        if (const Value *size = rec->findNumber("size"); size && size->asNumber() >= 0)
            sidecar.recording.size = std::uint64_t(size->asNumber());
        sidecar.recording.sha256OfFirstMiB = stringOr(*rec, "sha256OfFirstMiB");
    }
    if (const Value *bookmarks = root.findArray("bookmarks")) {
        for (std::size_t i = 0; i < bookmarks->size(); ++i) {
            const Value &b = bookmarks->at(i);
            const Value *call = b.isObject() ? b.findObject("call") : nullptr;
            std::optional<CallRef> ref = call ? readCallRef(*call) : std::nullopt;
            if (!ref) {
                result.warnings.push_back("bookmarks[" + std::to_string(i) +
                                          "] skipped: no call {epoch, callRuntimeStageId}");
                continue;
            }
            sidecar.bookmarks.push_back({*ref, stringOr(b, "created")});
        }
    }
    if (const Value *notes = root.findArray("notes")) {
        for (std::size_t i = 0; i < notes->size(); ++i) {
            const Value &n = notes->at(i);
            const std::string where = "notes[" + std::to_string(i) + "] skipped: ";
            const Value *target = n.isObject() ? n.findObject("target") : nullptr;
            const Value *text = n.isObject() ? n.findString("text") : nullptr;
            if (!target || !text) {
                result.warnings.push_back(where + "a note needs a \"target\" object and a \"text\" string");
                continue;
            }
            std::optional<CallRef> ref = readCallRef(*target);
            const std::string kind = stringOr(*target, "kind");
            if (!ref || (kind != "call" && kind != "ledger-row")) {
                result.warnings.push_back(where + "the target needs kind \"call\" or \"ledger-row\" and an epoch");
                continue;
            }
            Note note;
            note.target.call = *ref;
            note.target.kind = kind == "call" ? TargetKind::Call : TargetKind::LedgerRow;
            if (note.target.kind == TargetKind::LedgerRow) {
                const Value *row = target->findNumber("rowIndex");
                if (!row || row->asNumber() < 0 || row->asNumber() != std::floor(row->asNumber())) {
                    result.warnings.push_back(where + "a ledger-row target needs a non-negative integer rowIndex");
                    continue;
                }
                note.target.rowIndex = std::size_t(row->asNumber());
                if (const Value *id = target->findString("toolCallId"))
                    note.target.toolCallId = id->decodedString();
            }
            note.text = text->decodedString();
            note.created = stringOr(n, "created");
            sidecar.notes.push_back(std::move(note));
        }
    }
    result.sidecar = std::move(sidecar);
    return result;
}

ReadResult readSidecarFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return {};
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (in.bad()) {
        ReadResult r;
        r.error = path + ": cannot read the sidecar";
        return r;
    }
    return parseSidecar(bytes.str(), path);
}

std::string serializeSidecar(const Sidecar &sidecar)
{
    Value root = Value::object();
    root.set("version", Value::number(kSidecarVersion));
    Value rec = Value::object();
    rec.set("path", Value::string(sidecar.recording.path));
    rec.set("size", Value::number(double(sidecar.recording.size)));
    rec.set("sha256OfFirstMiB", Value::string(sidecar.recording.sha256OfFirstMiB));
    root.set("recording", rec);
    Value bookmarks = Value::array();
    for (const Bookmark &b : sidecar.bookmarks) {
        Value o = Value::object();
        o.set("call", callRefJson(b.call));
        if (!b.created.empty())
            o.set("created", Value::string(b.created));
        bookmarks.push_back(o);
    }
    root.set("bookmarks", bookmarks);
    Value notes = Value::array();
    for (const Note &n : sidecar.notes) {
        Value target = Value::object();
        target.set("kind", Value::string(targetKindId(n.target.kind)));
        target.set("epoch", Value::number(n.target.call.epoch));
        target.set("callRuntimeStageId", Value::string(n.target.call.callRuntimeStageId));
        if (n.target.kind == TargetKind::LedgerRow) {
            target.set("rowIndex", Value::number(double(n.target.rowIndex.value_or(0))));
            if (n.target.toolCallId)
                target.set("toolCallId", Value::string(*n.target.toolCallId));
        }
        Value o = Value::object();
        o.set("target", target);
        o.set("text", Value::string(n.text));
        if (!n.created.empty())
            o.set("created", Value::string(n.created));
        notes.push_back(o);
    }
    root.set("notes", notes);
    return json::prettyPrint(root) + "\n";
}

bool isBookmarked(const Sidecar &sidecar, const CallRef &call)
{
    return std::any_of(sidecar.bookmarks.begin(), sidecar.bookmarks.end(),
                       [&](const Bookmark &b) { return b.call == call; });
}

bool toggleBookmark(Sidecar &sidecar, const CallRef &call, const std::string &created)
{
    const auto it = std::find_if(sidecar.bookmarks.begin(), sidecar.bookmarks.end(),
                                 [&](const Bookmark &b) { return b.call == call; });
    if (it != sidecar.bookmarks.end()) {
        sidecar.bookmarks.erase(it);
        return false;
    }
    sidecar.bookmarks.push_back({call, created});
    return true;
}

void addNote(Sidecar &sidecar, Note note)
{
    sidecar.notes.push_back(std::move(note));
}

bool removeNote(Sidecar &sidecar, std::size_t index)
{
    if (index >= sidecar.notes.size())
        return false;
    sidecar.notes.erase(sidecar.notes.begin() + std::ptrdiff_t(index));
    return true;
}

bool editNote(Sidecar &sidecar, std::size_t index, std::string text)
{
    if (index >= sidecar.notes.size() || sidecar.notes[index].text == text)
        return false;
    sidecar.notes[index].text = std::move(text);
    return true;
}

std::vector<std::size_t> notesOn(const Sidecar &sidecar, const Target &target)
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < sidecar.notes.size(); ++i) {
        const Target &t = sidecar.notes[i].target;
        if (t.kind == target.kind && t.call == target.call && t.rowIndex == target.rowIndex)
            out.push_back(i);
    }
    return out;
}

std::string nowUtcIso8601()
{
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return buf;
}

std::optional<std::size_t> findCall(const recording::Run &run, const CallRef &call)
{
    std::optional<std::size_t> byEpoch;
    std::size_t epochMatches = 0;
    for (std::size_t i = 0; i < run.calls.size(); ++i) {
        const recording::CallRecord &c = run.calls[i];
        if (c.epoch != call.epoch)
            continue;
        if (!call.callRuntimeStageId.empty() && c.callRuntimeStageId == call.callRuntimeStageId)
            return i;
        ++epochMatches;
        byEpoch = i;
    }
    if (call.callRuntimeStageId.empty() && epochMatches == 1)
        return byEpoch;
    return std::nullopt;
}

std::size_t Resolution::orphanedNotes() const
{
    return std::size_t(std::count_if(notes.begin(), notes.end(), [](const Resolved &r) { return r.orphaned; }));
}

Resolution resolve(const Sidecar &sidecar, const recording::Run &run)
{
    Resolution out;
    const RecordingIdentity actual = identityOf(run);
    if (!sidecar.recording.sha256OfFirstMiB.empty() &&
        (actual.size != sidecar.recording.size || actual.sha256OfFirstMiB != sidecar.recording.sha256OfFirstMiB)) {
        out.sameRecording = false;
        out.recordingNote = "the notes were written for another version of this recording (" +
                            std::to_string(sidecar.recording.size) + " bytes then, " + std::to_string(actual.size) +
                            " bytes now); each note is matched by its call's stage id and epoch";
    }
    const auto callMissing = [](const CallRef &c) {
        return "call " + std::to_string(c.epoch) + " (" +
               (c.callRuntimeStageId.empty() ? "no stage id" : c.callRuntimeStageId) + ") is not in this recording";
    };
    for (std::size_t i = 0; i < sidecar.bookmarks.size(); ++i) {
        Resolved r;
        r.index = i;
        r.ordinal = findCall(run, sidecar.bookmarks[i].call);
        if (!r.ordinal) {
            r.orphaned = true;
            r.reason = callMissing(sidecar.bookmarks[i].call);
        }
        out.bookmarks.push_back(std::move(r));
    }
    for (std::size_t i = 0; i < sidecar.notes.size(); ++i) {
        const Target &t = sidecar.notes[i].target;
        Resolved r;
        r.index = i;
        const std::optional<std::size_t> ordinal = findCall(run, t.call);
        if (!ordinal) {
            r.orphaned = true;
            r.reason = callMissing(t.call);
        } else if (t.kind == TargetKind::LedgerRow) {
            const std::optional<json::Value> ledger = run.ledgerAt(run.calls[*ordinal]);
            const std::size_t row = t.rowIndex.value_or(0);
            if (!ledger) {
                r.orphaned = true;
                r.reason = "no findings ledger is on record at call " + std::to_string(t.call.epoch);
            } else if (row >= ledger->size()) {
                r.orphaned = true;
                r.reason = "ledger row " + std::to_string(row) + " is not in the ledger at call " +
                           std::to_string(t.call.epoch) + " (" + std::to_string(ledger->size()) +
                           (ledger->size() == 1 ? " row)" : " rows)");
            } else if (t.toolCallId) {
                const json::Value &rowValue = ledger->at(row);
                const json::Value *id = rowValue.isObject() ? rowValue.findString("toolCallId") : nullptr;
                if (!id || id->asString() != *t.toolCallId) {
                    r.orphaned = true;
                    r.reason = "ledger row " + std::to_string(row) + " at call " + std::to_string(t.call.epoch) +
                               " no longer names the tool call the note was written on";
                }
            }
            if (!r.orphaned)
                r.ordinal = ordinal;
        } else {
            r.ordinal = ordinal;
        }
        out.notes.push_back(std::move(r));
    }
    return out;
}

} // namespace tf::notes
