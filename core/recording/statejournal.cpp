#include "statejournal.h"

#include "core/json/parser.h"

#include <algorithm>

namespace tf::recording {

using json::Value;

namespace {

constexpr char kSegmentSeparator = '\x1f';

std::string_view rootKeyOf(std::string_view path)
{
    return path.substr(0, path.find(kSegmentSeparator));
}

// A copy that shares no node with `v`: a replay may extend arrays in place, and the journal's own values are read
// by other threads at the same time.
Value freshCopy(const Value &v)
{
    if (v.isArray()) {
        std::vector<Value> items;
        items.reserve(v.size());
        for (const Value &item : v)
            items.push_back(freshCopy(item));
        return Value::arrayFromItems(std::move(items));
    }
    if (v.isObject()) {
        std::vector<json::Member> members;
        members.reserve(v.memberCount());
        for (const json::Member *m = v.memberBegin(); m != v.memberEnd(); ++m)
            members.push_back(json::Member{m->key, freshCopy(m->value)});
        return Value::objectFromMembers(std::move(members));
    }
    return v; // strings, numbers, booleans and null are never written in place
}

bool sameKeys(const Value &state, const std::vector<std::string> &keys)
{
    if (state.memberCount() != keys.size())
        return false;
    std::size_t i = 0;
    for (const json::Member *m = state.memberBegin(); m != state.memberEnd(); ++m, ++i)
        if (m->key != keys[i])
            return false;
    return true;
}

} // namespace

StateJournal::StateJournal(std::string_view text, const Value *initialState, const io::MappedFile *source,
                           const json::StringEnds *ends)
    : m_text(text)
    , m_source(source)
    , m_ends(ends)
    , m_fold(initialState)
{
    if (initialState && initialState->isObject())
        for (const json::Member *m = initialState->memberBegin(); m != initialState->memberEnd(); ++m)
            m_base.emplace(std::string(m->key), written(initialState, m->key));
    noteKeyOrder(0);
}

StateJournal::Written StateJournal::written(const Value *tree, std::string_view key)
{
    Written w;
    const Value *v = tree && tree->isObject() ? tree->find(key) : nullptr;
    if (!v)
        return w;
    w.present = true;
    w.offset = v->sourceOffset();
    if (w.offset != json::kNoSource)
        return w;
    if (v->isArray() || v->isObject())
        w.kept = freshCopy(*v);
    else if (v->isBlockString()) // it would keep its row's whole block of short strings alive
        w.kept = m_keptStrings.copy(v->asString());
    else
        w.kept = *v;
    return w;
}

Value StateJournal::materialize(const Written &w) const
{
    if (w.offset != json::kNoSource)
        return json::parseAgain(m_text, std::size_t(w.offset), nullptr, m_ends);
    return freshCopy(w.kept);
}

std::uint32_t StateJournal::intern(std::string_view s)
{
    if (auto it = m_stringIds.find(s); it != m_stringIds.end())
        return it->second;
    m_strings.emplace_back(s);
    const auto id = std::uint32_t(m_strings.size() - 1);
    m_stringIds.emplace(m_strings.back(), id);
    return id;
}

// Whether the group's first entry makes the key's value without reading the value before it, so a rebuild can start
// at this group from "absent" (CommitLogFold::applyEntries, spec/recording.md §3.3).
bool StateJournal::startsOver(const Entry &first, const Group &group) const
{
    const std::string_view path = m_strings[first.path];
    if (path.find(kSegmentSeparator) != std::string_view::npos || isRefusedSegment(path))
        return false;
    const std::string_view verb = m_strings[first.verb];
    if (verb == "set" || verb == "delete")
        return true;
    const auto isContainer = [&](const Written &w) {
        return w.offset != json::kNoSource || w.kept.isArray() || w.kept.isObject();
    };
    if (verb == "append") // a tail that is not an array replaces the value (or removes it, when absent)
        return !group.overwrite.present || !isContainer(group.overwrite) ||
               (group.overwrite.offset != json::kNoSource ? m_text[group.overwrite.offset] != '['
                                                          : !group.overwrite.kept.isArray());
    // merge, and every other verb: a missing, primitive or empty-array source replaces the value.
    if (!group.updates.present || !isContainer(group.updates))
        return true;
    if (group.updates.offset == json::kNoSource)
        return group.updates.kept.isArray() && group.updates.kept.size() == 0;
    if (m_text[group.updates.offset] != '[')
        return false;
    std::size_t p = group.updates.offset + 1;
    while (p < m_text.size() && json::isJsonSpace(m_text[p]))
        ++p;
    return p < m_text.size() && m_text[p] == ']';
}

void StateJournal::noteKeyOrder(std::size_t fromRow)
{
    const Value &state = m_fold.state();
    if (!m_orders.empty() && sameKeys(state, m_orders.back().keys))
        return;
    KeyOrder order;
    order.fromRow = fromRow;
    for (const json::Member *m = state.memberBegin(); m != state.memberEnd(); ++m)
        order.keys.emplace_back(m->key);
    if (!m_orders.empty() && m_orders.back().fromRow == fromRow)
        m_orders.back() = std::move(order);
    else
        m_orders.push_back(std::move(order));
}

bool StateJournal::apply(std::size_t index, const Value &row)
{
    m_rows = index + 1;
    m_rowOffsets.resize(m_rows, json::kNoSource);
    m_rowOffsets[index] = row.sourceOffset();
    if (!isCommitBundle(row))
        return false;
    const std::vector<TraceEntry> entries = traceEntries(row);
    const Value *overwrite = row.find("overwrite");
    const Value *updates = row.find("updates");
    // Journal first: applying may extend the row's own arrays in place, which forgets where they were parsed.
    std::vector<std::string_view> roots; // in order of first appearance
    for (const TraceEntry &e : entries)
        if (std::find(roots.begin(), roots.end(), rootKeyOf(e.path)) == roots.end())
            roots.push_back(rootKeyOf(e.path));
    for (std::string_view root : roots) {
        Group g;
        g.row = std::uint32_t(index);
        g.firstEntry = std::uint32_t(m_entries.size());
        for (const TraceEntry &e : entries)
            if (rootKeyOf(e.path) == root)
                m_entries.push_back({intern(e.path), intern(e.verb)});
        g.entryCount = std::uint32_t(m_entries.size() - g.firstEntry);
        g.overwrite = written(overwrite, root);
        g.updates = written(updates, root);
        std::vector<Group> &groups = m_keys[std::string(root)];
        g.chainStart = startsOver(m_entries[g.firstEntry], g) ? std::uint32_t(groups.size())
                       : groups.empty()                       ? kFromBase
                                                              : groups.back().chainStart;
        groups.push_back(std::move(g));
    }
    m_fold.applyEntries(entries, overwrite, updates);
    noteKeyOrder(index + 1);
    return true;
}

void StateJournal::finish()
{
    m_fold.resetState(Value::object());
    // Kept for the run's life: no growth slack.
    for (auto &[key, groups] : m_keys)
        groups.shrink_to_fit();
    m_entries.shrink_to_fit();
    m_rowOffsets.shrink_to_fit();
}

std::uint32_t StateJournal::checkpointInterval(const std::vector<Group> &groups) const
{
    // Each checkpoint holds a handle to each of the key's items (a ledger's rows): over a chain their memory grows
    // with its square, so a chain longer than kCheckpointsPerChain intervals spaces them further apart.
    return std::max(m_checkpointInterval, std::uint32_t(groups.size() / kCheckpointsPerChain));
}

void StateJournal::buildCheckpoints() const
{
    for (const auto &[key, groups] : m_keys) {
        const std::uint32_t interval = checkpointInterval(groups);
        if (interval == 0)
            continue;
        // A rebuild just past a boundary replays from the checkpoint before it and leaves the boundary's: taken in
        // order, the rebuilds replay each chain once (earlier rebuilds may have left some already). Asked only where
        // a rebuild leaves one, deep in a chain (a key set anew at every row has none), and at each chain's end too,
        // where a chain with a single boundary first gets it.
        for (std::size_t i = 0; i < groups.size(); ++i) {
            const bool boundary = (i + 1) % interval == 0;
            const bool chainEnd = i + 1 == groups.size() || groups[i + 1].chainStart == std::uint32_t(i + 1);
            const std::size_t start = groups[i].chainStart == kFromBase ? 0 : groups[i].chainStart;
            if ((boundary || chainEnd) && i + 1 - start > interval)
                memberBefore(std::size_t(groups[i].row) + 1, key);
        }
    }
}

std::optional<Value> StateJournal::memberBefore(std::size_t row, std::string_view key) const
{
    // Passes ask for one member of every call (the receipt after each, the ledger at each): what the asks before this
    // one read is let go once it passes the budget.
    if (m_source)
        m_source->trimResidentPages(io::kPassResidentBytes);
    row = std::min(row, m_rows);
    const auto base = m_base.find(std::string(key));
    const auto keyLog = m_keys.find(std::string(key));
    const std::vector<Group> *groups = keyLog != m_keys.end() ? &keyLog->second : nullptr;
    // The last group before `row`.
    const std::size_t last = groups ? std::size_t(std::partition_point(groups->begin(), groups->end(),
                                                                       [&](const Group &g) { return g.row < row; }) -
                                                  groups->begin())
                                    : 0;
    Value mini = Value::object();
    std::size_t from = 0;
    if (last == 0 || (*groups)[last - 1].chainStart == kFromBase) {
        if (base != m_base.end())
            mini.set(key, materialize(base->second));
    } else {
        from = (*groups)[last - 1].chainStart;
    }
    const std::uint32_t interval = groups ? checkpointInterval(*groups) : m_checkpointInterval;
    const bool longChain = interval > 0 && last - from > interval;
    if (longChain) {
        std::lock_guard lock(m_checkpointMutex);
        if (const auto k = m_checkpoints.find(std::string(key)); k != m_checkpoints.end()) {
            auto c = k->second.lower_bound(std::uint32_t(last));
            if (c != k->second.begin() && std::prev(c)->first >= from) {
                --c;
                mini = Value::object();
                if (c->second)
                    mini.set(key, *c->second);
                from = std::size_t(c->first) + 1;
            }
        }
    }
    CommitLogFold replay(nullptr);
    replay.resetState(std::move(mini));
    std::vector<TraceEntry> entries;
    for (std::size_t i = from; i < last; ++i) {
        const Group &g = (*groups)[i];
        entries.clear();
        for (std::uint32_t e = 0; e < g.entryCount; ++e) {
            const Entry &entry = m_entries[g.firstEntry + e];
            entries.push_back({m_strings[entry.path], m_strings[entry.verb]});
        }
        Value overwrite, updates;
        if (g.overwrite.present) {
            overwrite = Value::object();
            overwrite.set(key, materialize(g.overwrite));
        }
        if (g.updates.present) {
            updates = Value::object();
            updates.set(key, materialize(g.updates));
        }
        replay.applyEntries(entries, g.overwrite.present ? &overwrite : nullptr,
                            g.updates.present ? &updates : nullptr);
        if (longChain && (i + 1) % interval == 0) {
            const Value *v = replay.state().find(key);
            std::lock_guard lock(m_checkpointMutex);
            m_checkpoints[std::string(key)].try_emplace(std::uint32_t(i), v ? std::optional<Value>(*v) : std::nullopt);
        }
        // A long chain (a ledger appended at every call) reads a value from every row it spans, all over the file.
        if (m_source && (i - from) % 16 == 15)
            m_source->trimResidentPages(io::kPassResidentBytes);
    }
    if (const Value *v = replay.state().find(key))
        return *v;
    return std::nullopt;
}

Value StateJournal::stateBefore(std::size_t row) const
{
    row = std::min(row, m_rows);
    const auto order =
        std::partition_point(m_orders.begin(), m_orders.end(), [&](const KeyOrder &o) { return o.fromRow <= row; });
    std::vector<json::Member> members;
    if (order != m_orders.begin()) {
        const std::vector<std::string> &keys = std::prev(order)->keys;
        members.reserve(keys.size());
        for (const std::string &key : keys)
            if (std::optional<Value> v = memberBefore(row, key))
                members.push_back(json::Member{key, std::move(*v)});
    }
    return Value::objectFromMembers(std::move(members));
}

Value StateJournal::Cursor::stateBefore(std::size_t row)
{
    row = std::min(row, m_journal.m_rows);
    const auto parsed = [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i)
            if (m_journal.m_rowOffsets[i] == json::kNoSource)
                return false;
        return true;
    };
    // The text between the rows (short by the last row's own length when reading on to the end).
    const auto bytesReadOn = [&] {
        const std::size_t until = row < m_journal.m_rows ? row : row - 1;
        return std::size_t(m_journal.m_rowOffsets[until] - m_journal.m_rowOffsets[m_row]);
    };
    if (!m_started || row < m_row || !parsed(m_row, row) || (row > m_row && bytesReadOn() > m_maxBytesReadOn)) {
        m_fold.resetState(m_journal.stateBefore(row));
        m_row = row;
        m_started = true;
    }
    for (; m_row < row; ++m_row)
        m_fold.apply(
            json::parseAgain(m_journal.m_text, std::size_t(m_journal.m_rowOffsets[m_row]), nullptr, m_journal.m_ends));
    return m_fold.state();
}

std::size_t StateJournal::checkpointCount() const
{
    std::lock_guard lock(m_checkpointMutex);
    std::size_t n = 0;
    for (const auto &[key, checkpoints] : m_checkpoints)
        n += checkpoints.size();
    return n;
}

std::size_t StateJournal::groupCount() const
{
    std::size_t n = 0;
    for (const auto &[key, groups] : m_keys)
        n += groups.size();
    return n;
}

} // namespace tf::recording
