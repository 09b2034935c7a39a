#pragma once

#include "commitlogfold.h"

#include "core/io/mappedfile.h"
#include "core/json/stringends.h"
#include "core/json/value.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tf::recording {

// The fold state of one commit log at any row, rebuilt on demand instead of kept.
//
// Keeping the state at every call keeps every value the log ever wrote, as parse tree: a run of 100,000 calls is
// gigabytes. The journal keeps, per root key of the state, which rows wrote below that key, with their trace entries
// and where the row's `overwrite` and `updates` values under that key are in the text. It rebuilds a key by parsing
// those values again and replaying the key's entries through CommitLogFold::applyEntries (the one implementation of
// the fold), starting from the last row whose first entry on the key did not depend on the value before it (a
// `set` or `delete` of the key itself, and the like). Entries only ever read and write below their own first path
// segment, so keys rebuilt one at a time give the state the whole fold gives; the commit-log conformance vectors
// check exactly that, row by row. A rebuild costs about the size of the rebuilt values.
//
// Read-only once the log is applied (but for its checkpoints, behind a mutex): stateBefore() and memberBefore() may
// run on several threads at once. A value they return may share nodes with a checkpoint, copy-on-write, so callers
// may keep or edit it.
class StateJournal
{
public:
    // `text` is what the rows are parsed from; it (and whatever a row's strings point into) must outlive the journal.
    // Rows should be parsed json::ParseLimits::selfContained, so that re-parsed values equal the originals.
    // `initialState` as for CommitLogFold. When `text` is a mapped file, `source` lets a rebuild that reads values
    // scattered over the file release the pages it faulted in as it goes.
    // `ends`: where the text's long strings end (Run::stringEnds), so that rebuilds step over them.
    StateJournal(std::string_view text, const json::Value *initialState, const io::MappedFile *source = nullptr,
                 const json::StringEnds *ends = nullptr);

    // Applies row `index` to the live fold and journals what it writes. Rows come in order, each once; indices
    // skipped over are rows that are not bundles. Returns false when this row is not a bundle.
    bool apply(std::size_t index, const json::Value &row);
    // The live fold, after the last applied row (for the loader; do not read it from other threads).
    const CommitLogFold &fold() const { return m_fold; }
    // Frees the live state once the log is applied: every later read rebuilds.
    void finish();

    // The state after rows [0, row), i.e. just before row `row`; rows past the end read as after the last.
    json::Value stateBefore(std::size_t row) const;
    // One member of that state; nullopt when it is absent.
    std::optional<json::Value> memberBefore(std::size_t row, std::string_view key) const;

    // A rebuild of a key written by a long chain of rows (a ledger appended to at every call) starts from the
    // nearest checkpoint before the row instead of the chain's start: the key's value after every
    // `groups`-th row of the chain, kept the first time a rebuild passes it (values share their nodes copy-on-write,
    // so a checkpoint costs its containers, not its strings). 16 unless set: a window's switch to a late call of a
    // run with a 3,300-row ledger replayed 32 rows' values on average at 64, parsed again from all over the file,
    // for checkpoints that cost about 2 MB of row handles over the whole run at 16. A chain of more than
    // kCheckpointsPerChain intervals has them further apart (a checkpoint of a ledger holds a handle per row, so
    // their memory grows with the square of the chain). The conformance runner sets 2 so the small vectors exercise
    // them. Set it before any rebuild.
    void setCheckpointInterval(std::uint32_t groups) { m_checkpointInterval = groups; }
    static constexpr std::uint32_t kCheckpointsPerChain = 64;
    // Makes every checkpoint of every long chain now, by one replay of each chain, instead of the first time a rebuild
    // passes it: a window's first switches into a region no rebuild has passed replay the chain from its last
    // checkpoint, which at a 3,300-row ledger was most of the slowest switches. Costs one parse of each chain's
    // values; the checkpoints of one replay share their items. Safe beside rebuilds on other threads.
    void buildCheckpoints() const;

    // Reads the states of calls in increasing row order for a whole-run pass: each row is parsed once and applied to a
    // live fold (where a rebuild per call would parse every call's whole state again). Falls back to a rebuild when
    // asked for an earlier row, or when a row was not parsed from the text. A state it returns may share nodes with
    // the ones it returns later, as CommitLogFold states do; use one cursor on one thread.
    //
    // A cursor that may jump (a window stepping through a run) limits how many bytes of rows it reads on: parsing
    // every row of a jump across half a run costs seconds where a rebuild costs milliseconds, and a run whose rows
    // carry megabytes of tool results makes even a few rows dearer than a rebuild.
    class Cursor
    {
    public:
        static constexpr std::size_t kReadsOnAnyDistance = std::size_t(-1);

        explicit Cursor(const StateJournal &journal, std::size_t maxBytesReadOn = kReadsOnAnyDistance)
            : m_journal(journal)
            , m_fold(nullptr)
            , m_maxBytesReadOn(maxBytesReadOn)
        {
        }
        json::Value stateBefore(std::size_t row);

    private:
        const StateJournal &m_journal;
        CommitLogFold m_fold;
        std::size_t m_maxBytesReadOn;
        std::size_t m_row = 0; // m_fold holds the state before this row
        bool m_started = false;
    };

    // What the journal holds (for the memory figures of docs/performance.md): groups and entries.
    std::size_t groupCount() const;
    std::size_t entryCount() const { return m_entries.size(); }
    std::size_t checkpointCount() const;

private:
    // A row's value under one root key in its `overwrite` or `updates`.
    struct Written
    {
        std::uint64_t offset = json::kNoSource; // a container parsed from the text: parsed again from here
        json::Value kept;                       // anything else: the value itself (copied before it is replayed)
        bool present = false;
    };
    // The entries of one row on one root key.
    struct Group
    {
        std::uint32_t row = 0;
        std::uint32_t firstEntry = 0;
        std::uint32_t entryCount = 0;
        // The group a rebuild of this key starts from (an index into the key's groups), or kFromBase.
        std::uint32_t chainStart = 0;
        Written overwrite, updates;
    };
    struct Entry
    {
        std::uint32_t path = 0; // interned
        std::uint32_t verb = 0; // interned
    };
    struct KeyOrder
    {
        std::size_t fromRow = 0; // in effect for stateBefore(r) with r >= fromRow
        std::vector<std::string> keys;
    };
    static constexpr std::uint32_t kFromBase = UINT32_MAX;

    Written written(const json::Value *tree, std::string_view key);
    json::Value materialize(const Written &w) const;
    std::uint32_t checkpointInterval(const std::vector<Group> &groups) const;
    std::uint32_t intern(std::string_view s);
    bool startsOver(const Entry &first, const Group &group) const;
    void noteKeyOrder(std::size_t fromRow);

    std::string_view m_text;
    const io::MappedFile *m_source = nullptr;
    const json::StringEnds *m_ends = nullptr;
    CommitLogFold m_fold;
    std::size_t m_rows = 0;
    std::unordered_map<std::string, Written> m_base; // initialState's members
    std::unordered_map<std::string, std::vector<Group>> m_keys;
    std::vector<Entry> m_entries;
    std::deque<std::string> m_strings; // paths and verbs, stable for the views in m_stringIds
    std::unordered_map<std::string_view, std::uint32_t> m_stringIds;
    std::vector<KeyOrder> m_orders;
    std::vector<std::uint64_t> m_rowOffsets; // where each row was parsed from; kNoSource when it was not
    json::SharedStringWriter m_keptStrings;  // short strings kept as written, packed (not their rows' blocks)
    std::uint32_t m_checkpointInterval = 16;
    // Per key: group index -> the key's value after that group (nullopt: absent). Filled by rebuilds, on any thread.
    mutable std::mutex m_checkpointMutex;
    mutable std::unordered_map<std::string, std::map<std::uint32_t, std::optional<json::Value>>> m_checkpoints;
};

} // namespace tf::recording
