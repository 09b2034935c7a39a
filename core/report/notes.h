#pragma once

#include "core/recording/run.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Bookmarks and notes an engineer keeps on a recording, in a sidecar file beside it (`<recording>.tracefold.json`).
// The recording itself is never written. The core reads, edits and serializes the sidecar; writing the file is the
// GUI's job (QSaveFile, ui/sidecarstore.*). The CLI only reads it.
//
// Schema, version 1 (README "Reports"):
//   { "version": 1,
//     "recording": { "path": "run.json", "size": 398847, "sha256OfFirstMiB": "<64 hex>" },
//     "bookmarks": [ { "call": { "epoch": 3, "callRuntimeStageId": "call-llm#12" }, "created": "…"? } ],
//     "notes": [ { "target": { "kind": "call" | "ledger-row", "epoch": 3, "callRuntimeStageId": "call-llm#12",
//                              "rowIndex": 4?, "toolCallId": "call_2"? },
//                  "text": "…", "created": "2025-01-31T12:00:00Z" } ] }
namespace tf::notes {

inline constexpr int kSidecarVersion = 1;
inline constexpr std::size_t kIdentityPrefixBytes = 1u << 20;

// A call is addressed by its runtime stage id (unique in a run even when epochs repeat) and its epoch.
struct CallRef
{
    int epoch = 0;
    std::string callRuntimeStageId;
    bool operator==(const CallRef &) const = default;
};
CallRef callRefOf(const recording::CallRecord &call);

enum class TargetKind
{
    Call,
    LedgerRow
};
const char *targetKindId(TargetKind kind); // "call", "ledger-row"

struct Target
{
    TargetKind kind = TargetKind::Call;
    CallRef call;
    std::optional<std::size_t> rowIndex;   // ledger-row only: index in the ledger as of that call
    std::optional<std::string> toolCallId; // ledger-row only: the row's toolCallId when it has one, as a check
    bool operator==(const Target &) const = default;
};

struct Note
{
    Target target;
    std::string text; // WTF-8
    std::string created;
};

struct Bookmark
{
    CallRef call;
    std::string created;
};

// Which recording the sidecar was written for: enough to notice that the file beside it was replaced.
struct RecordingIdentity
{
    std::string path; // file name, as it was when the sidecar was written
    std::uint64_t size = 0;
    std::string sha256OfFirstMiB; // lowercase hex of SHA-256 over the first min(size, 1 MiB) bytes
    bool operator==(const RecordingIdentity &) const = default;
};
RecordingIdentity identityOf(std::string_view bytes, const std::string &path);
RecordingIdentity identityOf(const recording::Run &run);

struct Sidecar
{
    int version = kSidecarVersion;
    RecordingIdentity recording;
    std::vector<Bookmark> bookmarks;
    std::vector<Note> notes;
    bool empty() const { return bookmarks.empty() && notes.empty(); }
};

// `<recording>.tracefold.json`, beside the recording.
std::string sidecarPathFor(const std::string &recordingPath);

struct ReadResult
{
    std::optional<Sidecar> sidecar;    // nullopt: no sidecar (not an error) or unreadable (error set)
    std::string error;                 // one line naming the file and what is wrong
    std::vector<std::string> warnings; // entries skipped because they had the wrong shape
};
ReadResult parseSidecar(std::string_view text, const std::string &name);
// A missing file is no sidecar and no error.
ReadResult readSidecarFile(const std::string &path);

// Pretty JSON ending in a newline; lone surrogates escaped, so the file is strict UTF-8.
std::string serializeSidecar(const Sidecar &sidecar);

// Edits. Each returns whether something changed.
bool isBookmarked(const Sidecar &sidecar, const CallRef &call);
bool toggleBookmark(Sidecar &sidecar, const CallRef &call, const std::string &created);
void addNote(Sidecar &sidecar, Note note);
bool removeNote(Sidecar &sidecar, std::size_t index);
bool editNote(Sidecar &sidecar, std::size_t index, std::string text);
std::vector<std::size_t> notesOn(const Sidecar &sidecar, const Target &target);

// ISO 8601 UTC with seconds, e.g. "2025-01-31T12:00:00Z".
std::string nowUtcIso8601();

// Notes and bookmarks matched against a loaded run.
struct Resolved
{
    std::size_t index = 0;              // into Sidecar::notes or Sidecar::bookmarks
    std::optional<std::size_t> ordinal; // the call it is attached to; nullopt when orphaned
    bool orphaned = false;
    std::string reason; // why it is orphaned (one sentence)
};
struct Resolution
{
    std::vector<Resolved> notes;
    std::vector<Resolved> bookmarks;
    bool sameRecording = true; // the identity matches the run's file
    std::string recordingNote; // what differs when it does not
    std::size_t orphanedNotes() const;
};
Resolution resolve(const Sidecar &sidecar, const recording::Run &run);

// The call a reference names in `run`, or nullopt: the runtime stage id and the epoch must both match (an empty
// stage id matches by epoch alone when that epoch is unique).
std::optional<std::size_t> findCall(const recording::Run &run, const CallRef &call);

} // namespace tf::notes
