#include "commitlogfold.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace tf::recording {

using json::Value;

namespace {

constexpr char kSegmentSeparator = '\x1f';

bool isContainer(const Value &v)
{
    return v.isObject() || v.isArray();
}

bool isNegativeZero(const Value &v)
{
    return v.isNumber() && v.asNumber() == 0 && std::signbit(v.asNumber());
}

// The index an array accepts as an own property: canonical decimal only ("01" and "1.0" are not indices).
std::optional<std::size_t> arrayIndex(std::string_view segment)
{
    if (!json::isArrayIndexKey(segment))
        return std::nullopt;
    std::size_t n = 0;
    for (char c : segment)
        n = n * 10 + std::size_t(c - '0');
    return n;
}

const Value *readChild(const Value &parent, std::string_view segment)
{
    if (parent.isObject())
        return parent.find(segment);
    if (parent.isArray()) {
        const auto index = arrayIndex(segment);
        if (index && *index < parent.size())
            return &parent.at(*index);
    }
    return nullptr;
}

void splitInto(std::string_view path, std::vector<std::string_view> &out)
{
    out.clear();
    std::size_t start = 0;
    for (;;) {
        const std::size_t cut = path.find(kSegmentSeparator, start);
        if (cut == std::string_view::npos) {
            out.push_back(path.substr(start));
            return;
        }
        out.push_back(path.substr(start, cut - start));
        start = cut + 1;
    }
}

// JavaScript identity of array elements within one row. The library's union dedups objects and arrays by
// reference, and its merge places the elements of an `updates` array into the state by reference, so the same
// `updates` node merged twice in one row is a duplicate the second time. Everything else is a fresh object in the
// library (each row starts from a deep copy; set and append clone). Node pointers alone cannot tell those apart
// here, because copies share nodes: an earlier row, a `set` or the base may hold the very node this row's
// `updates` holds. So a merge places a private deep copy of each container element, the same copy every time the
// row places that `updates` node, and only those copies can ever compare equal. The copy costs the size of what
// the merge writes; nothing is built for rows without container elements in a merged array.
//
// Not reproduced: the library also edits a placed element in place when a later entry of the same row writes
// through it by array index (`merge p`, then `set p␟0␟k`), which edits the row's own `updates` too. Here that write
// copies the element, so a third entry merging `p` again would add it a second time. Only a path through an array
// index can reach a placed element, no encoder writes one, and the vectors hold no such row.
class RowIdentity
{
public:
    Value place(const Value &fromUpdates)
    {
        if (!isContainer(fromUpdates))
            return fromUpdates;
        if (auto it = m_copies.find(fromUpdates.identity()); it != m_copies.end())
            return it->second;
        Value copy;
        if (fromUpdates.isArray()) {
            std::vector<Value> items;
            items.reserve(fromUpdates.size());
            for (const Value &item : fromUpdates)
                items.push_back(place(item));
            copy = Value::arrayFromItems(std::move(items));
        } else {
            std::vector<json::Member> members;
            members.reserve(fromUpdates.memberCount());
            for (const json::Member *m = fromUpdates.memberBegin(); m != fromUpdates.memberEnd(); ++m)
                members.push_back(json::Member{m->key, place(m->value)});
            copy = Value::objectFromMembers(std::move(members));
        }
        // Holding the copy keeps its node alive for the whole row, so no later allocation can reuse its address.
        m_placed.insert(copy.identity());
        m_copies.emplace(fromUpdates.identity(), copy);
        return copy;
    }

    bool isPlaced(const void *identity) const { return m_placed.count(identity) != 0; }

private:
    std::unordered_map<const void *, Value> m_copies;
    std::unordered_set<const void *> m_placed;
};

// The elements one union has kept so far, by the library's equality (Set's SameValueZero on primitives, reference
// on containers).
class UnionSeen
{
public:
    explicit UnionSeen(RowIdentity &ids)
        : m_ids(ids)
    {
    }

    // True when `v` (already placed, if it came from `updates`) is not equal to an element kept before.
    bool admit(const Value &v)
    {
        switch (v.type()) {
        case json::Type::Null:
            return std::exchange(m_null, true) == false;
        case json::Type::Bool:
            return std::exchange(v.asBool() ? m_true : m_false, true) == false;
        case json::Type::Number:
            // 0 and -0 are one key, as in a JavaScript Set.
            return m_numbers.insert(v.asNumber() == 0 ? 0.0 : v.asNumber()).second;
        case json::Type::String:
            // The views stay valid: every admitted string is held by the union's input or output.
            return m_strings.insert(v.asString()).second;
        case json::Type::Array:
        case json::Type::Object:
            if (!m_ids.isPlaced(v.identity()))
                return true; // a fresh object in the library: never equal to anything
            return m_identities.insert(v.identity()).second;
        }
        return true;
    }

private:
    RowIdentity &m_ids;
    bool m_null = false;
    bool m_true = false;
    bool m_false = false;
    std::unordered_set<double> m_numbers;
    std::unordered_set<std::string_view> m_strings;
    std::unordered_set<const void *> m_identities;
};

// `[...new Set([...cur, ...src])]`: first of equal elements kept, duplicates already in `cur` collapse, and a Set
// stores -0 as 0. When `cur` is already a set of its own, it is extended in place (push_back appends to a shared
// array without disturbing the holders that see a shorter length) instead of being rebuilt.
Value unionOf(Value cur, const Value &src, RowIdentity &ids)
{
    UnionSeen seen(ids);
    std::vector<Value> rebuilt;
    const std::size_t n = cur.size();
    // The library's union is a new array. Reusing `cur` is only invisible while `cur` cannot compare identical to
    // anything, i.e. it is not a copy this row placed from `updates`.
    bool rebuilding = ids.isPlaced(cur.identity());
    if (rebuilding)
        rebuilt.reserve(n + src.size());
    for (std::size_t i = 0; i < n; ++i) {
        const Value &item = cur.at(i);
        const bool kept = seen.admit(item);
        const bool negativeZero = kept && isNegativeZero(item);
        if (!rebuilding && (!kept || negativeZero)) {
            rebuilding = true;
            rebuilt.reserve(n + src.size());
            rebuilt.assign(cur.begin(), cur.begin() + i);
        }
        if (rebuilding && kept)
            rebuilt.push_back(negativeZero ? Value::number(0) : item);
    }
    Value out = rebuilding ? Value::arrayFromItems(std::move(rebuilt)) : std::move(cur);
    // By index, not by iterator: `out` may share its node with `src` (hand-built rows), and pushing can reallocate.
    for (std::size_t i = 0; i < src.size(); ++i) {
        Value placed = ids.place(src.at(i));
        if (seen.admit(placed))
            out.push_back(isNegativeZero(placed) ? Value::number(0) : std::move(placed));
    }
    return out;
}

// `{...array}`: members "0", "1", … in index order.
Value objectFromArray(const Value &array)
{
    std::vector<json::Member> members;
    members.reserve(array.size());
    for (std::size_t i = 0; i < array.size(); ++i)
        members.push_back(json::Member{std::to_string(i), array.at(i)});
    return Value::objectFromMembers(std::move(members));
}

Value shallowObjectCopy(const Value &object)
{
    return Value::objectFromMembers(std::vector<json::Member>(object.memberBegin(), object.memberEnd()));
}

std::optional<Value> merged(std::optional<Value> cur, const Value *src, RowIdentity &ids);
Value mergedMembersInBulk(Value out, const Value &src, RowIdentity &ids);

void mergeMember(Value &object, std::string_view key, const Value &src, RowIdentity &ids)
{
    std::optional<Value> cur;
    // Moved out, so a member no one else holds is merged in place rather than copied.
    if (object.contains(key))
        cur = std::move(object.memberRef(key));
    object.memberRef(key) = *merged(std::move(cur), &src, ids);
}

// mergeMember for every member of a large `src` in one pass: the same members in the same JavaScript order, but a
// new index key does not shift the members after it once per key (a hostile `updates` object of a million index
// keys merged into an object with names would otherwise be quadratic).
Value mergedMembersInBulk(Value out, const Value &src, RowIdentity &ids)
{
    std::vector<json::Member> members(out.memberBegin(), out.memberEnd());
    out = Value(); // the only other holder of the members' values, so a value no one else holds is merged in place
    members.reserve(members.size() + src.memberCount()); // no reallocation: the key views below stay valid
    std::unordered_map<std::string_view, std::size_t> position;
    position.reserve(members.capacity());
    for (std::size_t i = 0; i < members.size(); ++i)
        position.emplace(members[i].key, i);
    bool newIndexKey = false;
    for (const json::Member *m = src.memberBegin(); m != src.memberEnd(); ++m) {
        if (auto it = position.find(m->key); it != position.end()) {
            json::Value &slot = members[it->second].value;
            slot = *merged(std::move(slot), &m->value, ids);
            continue;
        }
        newIndexKey = newIndexKey || json::isArrayIndexKey(m->key);
        members.push_back(json::Member{m->key, *merged(std::nullopt, &m->value, ids)});
        position.emplace(members.back().key, members.size() - 1);
    }
    if (newIndexKey) {
        const auto indexEnd = std::stable_partition(members.begin(), members.end(),
                                                    [](const json::Member &m) { return json::isArrayIndexKey(m.key); });
        std::stable_sort(members.begin(), indexEnd, [](const json::Member &a, const json::Member &b) {
            return a.key.size() != b.key.size() ? a.key.size() < b.key.size() : a.key < b.key;
        });
    }
    return Value::objectFromMembers(std::move(members));
}

// M(current, src) of the README. nullopt is "absent" (a missing src).
std::optional<Value> merged(std::optional<Value> cur, const Value *src, RowIdentity &ids)
{
    if (!src)
        return std::nullopt;
    if (src->isArray()) {
        if (src->size() == 0)
            return Value::array(); // an empty array clears
        if (cur && cur->isArray())
            return unionOf(std::move(*cur), *src, ids);
        std::vector<Value> items; // a copy of src, duplicates kept, elements placed by reference
        items.reserve(src->size());
        for (const Value &item : *src)
            items.push_back(ids.place(item));
        return Value::arrayFromItems(std::move(items));
    }
    if (src->isObject()) {
        // `{...cur}` is a new object: `cur` itself is reused (and then edited copy-on-write) unless it is a copy
        // this row placed from `updates`, whose identity the result must not keep.
        Value out = !cur                                               ? Value::object()
                    : cur->isObject() && ids.isPlaced(cur->identity()) ? shallowObjectCopy(*cur)
                    : cur->isObject()                                  ? std::move(*cur)
                    : cur->isArray()                                   ? objectFromArray(*cur)
                                                                       : Value::object();
        if (src->memberCount() >= json::kIndexedMembers)
            return mergedMembersInBulk(std::move(out), *src, ids);
        for (const json::Member *m = src->memberBegin(); m != src->memberEnd(); ++m)
            mergeMember(out, m->key, m->value, ids);
        return out;
    }
    return *src;
}

// The container child of `container` at `segment` for a write, or nullptr when a write cannot go there: a name on
// an array, or an index past its end (JSON cannot hold what the library makes of those; the README leaves them
// out, and refusing keeps a hostile index from allocating).
Value *childForWrite(Value &container, std::string_view segment)
{
    if (container.isObject())
        return &container.memberRef(segment);
    const auto index = arrayIndex(segment);
    if (!index || *index > container.size())
        return nullptr;
    if (*index == container.size())
        container.push_back(Value());
    return &container.itemRef(*index);
}

// Walks to the parent of the last segment as the library's nativeSet does: a missing, null or primitive parent
// becomes {} and the walk goes on; arrays are entered by index. Returns nullptr when the write is refused; the
// parents created before the refused segment stay, as they do in the library.
Value *parentForWrite(Value &root, const std::vector<std::string_view> &segments)
{
    Value *cur = &root;
    for (std::size_t i = 0; i + 1 < segments.size(); ++i) {
        if (isRefusedSegment(segments[i]))
            return nullptr;
        Value *child = childForWrite(*cur, segments[i]);
        if (!child)
            return nullptr;
        if (!isContainer(*child))
            *child = Value::object();
        cur = child;
    }
    const std::string_view last = segments.back();
    if (isRefusedSegment(last))
        return nullptr;
    if (cur->isArray()) {
        const auto index = arrayIndex(last);
        if (!index || *index > cur->size())
            return nullptr;
    }
    return cur;
}

// Moves the value at `segment` out of `parent` (leaving null in its place), so that it can be extended in place.
std::optional<Value> takeSlot(Value &parent, std::string_view segment)
{
    if (parent.isObject()) {
        if (!parent.contains(segment))
            return std::nullopt;
        return std::move(parent.memberRef(segment));
    }
    const std::size_t index = *arrayIndex(segment);
    if (index >= parent.size())
        return std::nullopt;
    return std::move(parent.itemRef(index));
}

// Writes the slot; an absent value removes an object member. In an array the library leaves `undefined` in the
// slot, which JSON writes as null.
void putSlot(Value &parent, std::string_view segment, std::optional<Value> v)
{
    if (parent.isObject()) {
        if (v)
            parent.memberRef(segment) = std::move(*v);
        else
            parent.erase(segment);
        return;
    }
    const std::size_t index = *arrayIndex(segment);
    if (index == parent.size())
        parent.push_back(Value());
    parent.itemRef(index) = v ? std::move(*v) : Value();
}

std::optional<Value> valueAt(const Value *tree, const std::vector<std::string_view> &segments)
{
    const Value *v = tree ? readStatePath(*tree, segments) : nullptr;
    return v ? std::optional<Value>(*v) : std::nullopt;
}

void applyDelete(Value &root, const std::vector<std::string_view> &segments)
{
    // Probe first: a delete that does nothing must not copy the nodes on its path either.
    const Value *probe = &root;
    for (std::size_t i = 0; i + 1 < segments.size(); ++i) {
        if (isRefusedSegment(segments[i]))
            return;
        probe = readChild(*probe, segments[i]);
        if (!probe || !isContainer(*probe))
            return;
    }
    const std::string_view last = segments.back();
    if (isRefusedSegment(last) || !readChild(*probe, last))
        return;
    Value *cur = &root;
    for (std::size_t i = 0; i + 1 < segments.size(); ++i)
        cur = cur->isObject() ? &cur->memberRef(segments[i]) : &cur->itemRef(*arrayIndex(segments[i]));
    if (cur->isObject())
        cur->erase(last);
    else
        cur->itemRef(*arrayIndex(last)) = Value(); // a hole, which JSON writes as null
}

// The library skips a `set` that the next entry sets again on the same path; the result is the same either way,
// and skipping saves the work.
bool supersededByNextSet(const std::vector<TraceEntry> &entries, std::size_t i)
{
    return i + 1 < entries.size() && entries[i + 1].verb == "set" && entries[i + 1].path == entries[i].path;
}

} // namespace

bool isCommitBundle(const Value &row)
{
    if (!row.isObject() || !row.findString("runtimeStageId") || !row.findArray("trace"))
        return false;
    for (const char *key : {"overwrite", "updates"}) {
        const Value *v = row.find(key);
        if (v && !v->isObject())
            return false;
    }
    return true;
}

std::vector<std::string_view> splitStatePath(std::string_view path)
{
    std::vector<std::string_view> segments;
    splitInto(path, segments);
    return segments;
}

bool isRefusedSegment(std::string_view segment)
{
    return segment == "constructor" || segment == "prototype" || segment == "__proto__";
}

const Value *readStatePath(const Value &root, const std::vector<std::string_view> &segments)
{
    const Value *cur = &root;
    for (std::string_view segment : segments) {
        if (isRefusedSegment(segment))
            return nullptr;
        cur = readChild(*cur, segment);
        if (!cur)
            return nullptr;
    }
    return cur;
}

CommitLogFold::CommitLogFold(const Value *initialState)
    : m_state(initialState && initialState->isObject() ? *initialState : Value::object())
{
}

std::vector<TraceEntry> traceEntries(const Value &bundle)
{
    std::vector<TraceEntry> entries;
    const Value *trace = bundle.findArray("trace");
    if (!trace)
        return entries;
    entries.reserve(trace->size());
    for (const Value &entry : *trace) {
        const Value *path = entry.findString("path");
        if (!path)
            continue; // the library would throw on such an entry; here it changes nothing
        const Value *verb = entry.findString("verb");
        entries.push_back({path->asString(), verb ? verb->asString() : std::string_view{}});
    }
    return entries;
}

bool CommitLogFold::apply(const Value &row)
{
    if (!isCommitBundle(row))
        return false;
    applyEntries(traceEntries(row), row.find("overwrite"), row.find("updates"));
    return true;
}

void CommitLogFold::applyEntries(const std::vector<TraceEntry> &entries, const Value *overwrite, const Value *updates)
{
    RowIdentity ids;
    std::vector<std::string_view> segments;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const std::string_view verb = entries[i].verb;
        splitInto(entries[i].path, segments);
        if (segments.size() > kMaxPathSegments) {
            ++m_refusedPaths; // would build a state too deep to walk (and to free) without overflowing the stack
            continue;
        }
        if (verb == "set") {
            if (supersededByNextSet(entries, i))
                continue;
            if (Value *parent = parentForWrite(m_state, segments))
                putSlot(*parent, segments.back(), valueAt(overwrite, segments));
        } else if (verb == "append") {
            Value *parent = parentForWrite(m_state, segments);
            if (!parent)
                continue;
            std::optional<Value> tail = valueAt(overwrite, segments);
            std::optional<Value> cur = takeSlot(*parent, segments.back());
            // `[...current, ...tail]` is a new array in the library; extending in place keeps the node's identity,
            // which only matters for a copy this row placed from `updates`.
            if (cur && cur->isArray() && ids.isPlaced(cur->identity()))
                cur = Value::arrayFromItems(std::vector<Value>(cur->begin(), cur->end()));
            if (cur && cur->isArray() && tail && tail->isArray()) {
                // In place when no one sees past this array's end. By index: the tail may be the very node being
                // extended (a `set` then an `append` of one overwrite path), and pushing can reallocate.
                for (std::size_t k = 0; k < tail->size(); ++k)
                    cur->push_back(Value(tail->at(k)));
                putSlot(*parent, segments.back(), std::move(cur));
            } else {
                putSlot(*parent, segments.back(), std::move(tail));
            }
        } else if (verb == "delete") {
            applyDelete(m_state, segments);
        } else {
            // `merge`, and every other verb (the library's verb switch falls through to merge).
            if (verb != "merge")
                ++m_unknownVerbs;
            Value *parent = parentForWrite(m_state, segments);
            if (!parent)
                continue;
            const Value *src = updates ? readStatePath(*updates, segments) : nullptr;
            putSlot(*parent, segments.back(), merged(takeSlot(*parent, segments.back()), src, ids));
        }
    }
}

} // namespace tf::recording
