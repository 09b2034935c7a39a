#pragma once

#include <algorithm>
#include <atomic>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tf::json {

enum class Type : std::uint8_t { Null, Bool, Number, String, Array, Object };

class Value;
struct Member;

namespace detail {

// The shared part behind a Value (an array, an object, an owned or a deferred string), counted in place: a
// shared_ptr's second pointer and control block cost 8 and 16 bytes in each of millions of values and nodes.
struct Node
{
    enum class Kind : std::uint8_t { Array, Object, OwnedString, DeferredString, StringBlock };
    explicit Node(Kind k)
        : kind(k)
    {
    }
    Node(const Node &other) // a copy is a new node, with its own count
        : kind(other.kind)
    {
    }
    Node &operator=(const Node &) = delete;

    mutable std::atomic<std::uint32_t> refs{1};
    const Kind kind;
};

// Owns one count of a Node. Counts are atomic: shared nodes are read from several threads at once.
class NodeRef
{
public:
    NodeRef() = default;
    // Adopts a node made with `new`, whose count is the one this reference holds.
    explicit NodeRef(Node *adopted) noexcept
        : m_node(adopted)
    {
    }
    NodeRef(const NodeRef &other) noexcept
        : m_node(other.m_node)
    {
        if (m_node)
            m_node->refs.fetch_add(1, std::memory_order_relaxed);
    }
    NodeRef(NodeRef &&other) noexcept
        : m_node(other.m_node)
    {
        other.m_node = nullptr;
    }
    NodeRef &operator=(NodeRef other) noexcept
    {
        std::swap(m_node, other.m_node);
        return *this;
    }
    ~NodeRef()
    {
        if (m_node)
            release(m_node);
    }

    Node *get() const noexcept { return m_node; }
    // Whether another reference shares the node (copy-on-write asks before writing in place).
    bool shared() const noexcept { return m_node && m_node->refs.load(std::memory_order_acquire) > 1; }

    template <class T, class... Args>
    static NodeRef make(Args &&...args)
    {
        return NodeRef(new T(std::forward<Args>(args)...)); // owned from here on: release() deletes it
    }

private:
    static void release(Node *node) noexcept;

    Node *m_node = nullptr;
};

} // namespace detail

// Arrays are shared buffers: a Value sees the first `length` items of its node. Appending to a Value that is the
// node's only holder pushes in place; any other write, and an append to a node another value holds, copies first
// (copy-on-write). A holder may be on another thread (a window showing a call while a worker folds the next), so a
// shared node is never written, not even past the other holders' length: growing its buffer would move their items.
//
// `source` is the byte offset of the literal the node was parsed from, in the text the parser was given, while the
// node still holds exactly what that literal says; a copy or an in-place write forgets it. It lets a value that is
// not kept be parsed again from the file on demand, and names a parsed node across such re-parses.
inline constexpr std::uint64_t kNoSource = UINT64_MAX;

// The constructors are defined after Value and Member (below): clang instantiates the vectors' members in an inline
// constructor, and the element types must be complete by then.
struct ArrayNode : detail::Node
{
    ArrayNode();
    ArrayNode(const ArrayNode &other);
    ArrayNode &operator=(const ArrayNode &) = delete;
    std::vector<Value> items;
    std::uint64_t source = kNoSource;
};

struct ObjectNode : detail::Node
{
    // In JavaScript property order: array-index keys ascending, then the others in first-insertion order.
    std::vector<Member> members;
    // Key hash -> position, present exactly when the object holds kIndexedMembers members or more, so a lookup or a
    // write never scans a large object (a hostile object with a million names would make every lookup, and a fold
    // writing each name, quadratic). Built with the node and kept current by every write; never built lazily, so a
    // shared node is only read from other threads. Behind a pointer: almost every object is small, and an empty
    // hash map would still cost 56 bytes in each of millions of objects.
    using Index = std::unordered_multimap<std::size_t, std::uint32_t>;
    std::unique_ptr<Index> index;
    std::uint64_t source = kNoSource; // as ArrayNode::source

    ObjectNode();
    ObjectNode(const ObjectNode &other); // copy-on-write copies a node
    ObjectNode &operator=(const ObjectNode &) = delete;
};
inline constexpr std::size_t kIndexedMembers = 32;

// An immutable-by-default JSON value with JavaScript semantics where recordings need them: numbers are doubles,
// objects keep JavaScript property order, strings are WTF-8 (UTF-8 that may carry a lone surrogate as its 3-byte
// form, so `\udXXX` escapes survive without loss). Copies are cheap: nodes and owned strings are shared.
//
// A string may point into memory it does not own (the mapped file or a document arena); whoever parsed it keeps
// that memory alive for as long as the value lives (see Document).
class Value
{
public:
    Value() = default;
    static Value null() { return {}; }
    static Value boolean(bool b);
    static Value number(double d);
    // Borrowed: the bytes must outlive the value.
    static Value borrowedString(std::string_view wtf8);
    static Value string(std::string wtf8);
    // A string kept as the body of its JSON literal (escapes not yet decoded; see stringbody.h). The body must have
    // passed scanStringBody and must outlive the value; `stringifyForm` is that scan's judgement.
    static Value deferredString(std::string_view body, bool stringifyForm);
    // A string whose bytes live in a block shared by the strings copied with it (SharedStringWriter).
    static Value blockString(const detail::NodeRef &block, std::string_view bytesInBlock);
    static Value array();
    static Value object();

    Type type() const { return m_type; }
    bool isNull() const { return m_type == Type::Null; }
    bool isBool() const { return m_type == Type::Bool; }
    bool isNumber() const { return m_type == Type::Number; }
    bool isString() const { return m_type == Type::String; }
    bool isArray() const { return m_type == Type::Array; }
    bool isObject() const { return m_type == Type::Object; }

    bool asBool() const { return m_bool; }
    double asNumber() const { return m_number; }
    // The decoded text. A deferred string is decoded on the first call and the copy lives as long as the value's
    // node: fine for the fields a view reads, wrong for passes over every message of a run (hashing, sizing,
    // search, display), which use appendString(), decodedString() or stringEquals() and keep nothing.
    std::string_view asString() const
    {
        if (m_type != Type::String)
            return {};
        if (m_strFlags & kDeferred)
            return decodeDeferredOnce();
        return std::string_view{m_strData, m_length};
    }
    void appendString(std::string &out) const;
    std::string decodedString() const;
    // The decoded text without keeping a copy: a deferred string is decoded into `scratch`, which must outlive the
    // view; any other string is viewed in place.
    std::string_view stringView(std::string &scratch) const;
    bool stringEquals(std::string_view wtf8) const;
    bool isEmptyString() const { return m_type == Type::String && m_length == 0; }
    bool isDeferredString() const { return m_type == Type::String && (m_strFlags & kDeferred); }
    // A string in a SharedStringWriter block: it keeps the whole block alive, so a value kept long should be copied.
    bool isBlockString() const;
    // The body JSON.stringify writes for this string, when the value still holds it in that form (a deferred
    // string the parser judged so): then `body` is set and the result is true.
    bool stringifyBody(std::string_view &body) const;
    // The body of a deferred string, escapes still written out (stringbody.h reads one without decoding it whole);
    // false for any other value.
    bool deferredBody(std::string_view &body) const;

    // Arrays
    std::size_t size() const;
    const Value &at(std::size_t i) const;
    const Value *begin() const;
    const Value *end() const;
    void push_back(Value v);
    Value &itemRef(std::size_t i);
    void reserve(std::size_t n);

    // Objects
    std::size_t memberCount() const;
    const Member *memberBegin() const;
    const Member *memberEnd() const;
    const Value *find(std::string_view key) const;
    bool contains(std::string_view key) const { return find(key) != nullptr; }
    // Inserts at the JavaScript property position when new, replaces in place when present.
    Value &memberRef(std::string_view key);
    void set(std::string_view key, Value v) { memberRef(key) = std::move(v); }
    bool erase(std::string_view key);

    // Convenience typed lookups: nullptr when absent or of another type.
    const Value *findString(std::string_view key) const;
    const Value *findArray(std::string_view key) const;
    const Value *findObject(std::string_view key) const;
    const Value *findNumber(std::string_view key) const;

    // The node behind an array or object, for identity comparisons (the collapse's "same object").
    const void *identity() const;
    // Where the parser read this array or object (ArrayNode::source), while it is unchanged; kNoSource otherwise,
    // and for every other type.
    std::uint64_t sourceOffset() const;

    // Used by the parser to adopt an already ordered member list; `source` is where it read the literal.
    static Value objectFromMembers(std::vector<Member> members, std::uint64_t source = kNoSource);
    static Value arrayFromItems(std::vector<Value> items, std::uint64_t source = kNoSource);

private:
    ArrayNode &mutableArray();
    ObjectNode &mutableObject();
    std::string_view decodeDeferredOnce() const;

    static constexpr std::uint8_t kDeferred = 1;      // m_strData/m_length is the literal's body, escapes undecoded
    static constexpr std::uint8_t kStringifyForm = 2; // ... and that body is JSON.stringify's form of the text

    // 24 bytes: recordings hold millions of values. m_node counts an owned string, a deferred string's decoded copy,
    // an ArrayNode or an ObjectNode.
    Type m_type = Type::Null;
    bool m_bool = false;
    std::uint8_t m_strFlags = 0;
    std::uint32_t m_length = 0; // string: bytes; array: visible items
    union {
        double m_number = 0;
        const char *m_strData;
    };
    detail::NodeRef m_node;
};

// Copies short strings into blocks of bytes that the strings share, each string holding a count of its block: a few
// allocations for all the short strings of a parse instead of one each, and strings that never read their source
// again. Parsing a value again from a memory-mapped file uses it (ParseLimits::selfContained): a view into the
// mapping would fault the file's pages back in whenever it is read, and a kernel may map a whole large folio (2 MiB)
// for each of them.
class SharedStringWriter
{
public:
    Value copy(std::string_view wtf8);

private:
    detail::NodeRef m_block;
    char *m_next = nullptr;
    std::size_t m_free = 0;
    std::size_t m_nextBlockBytes = 256;
};

// A member name: WTF-8, owned. Up to 15 bytes are kept inline (nearly every key of a recording: "role",
// "content", "toolCallId"), longer ones on the heap; 16 bytes where a std::string takes 32, in each of millions of
// members.
class Key
{
public:
    Key() noexcept = default; // empty and inline: every byte, the length among them, is zero
    Key(std::string_view s); // NOLINT(google-explicit-constructor): a key is a string
    Key(const std::string &s)
        : Key(std::string_view(s))
    {
    }
    Key(const char *s)
        : Key(std::string_view(s))
    {
    }
    Key(const Key &other)
        : Key(other.view())
    {
    }
    Key(Key &&other) noexcept
    {
        std::copy(std::begin(other.m_bytes), std::end(other.m_bytes), std::begin(m_bytes));
        other.m_bytes[kTag] = 0;
    }
    Key &operator=(Key other) noexcept
    {
        std::swap(m_bytes, other.m_bytes);
        return *this;
    }
    ~Key();

    std::string_view view() const noexcept
    {
        if (isHeap())
            return {heapData(), heapSize()};
        return {m_bytes, std::size_t(static_cast<unsigned char>(m_bytes[kTag]))};
    }
    operator std::string_view() const noexcept { return view(); } // NOLINT(google-explicit-constructor)
    const char *data() const noexcept { return view().data(); }
    std::size_t size() const noexcept { return view().size(); }
    bool empty() const noexcept { return size() == 0; }

    // One equality, against any text (a Key converts to a view): two would make `key == std::string` ambiguous.
    friend bool operator==(const Key &a, std::string_view b) noexcept { return a.view() == b; }

    // The two 8-byte words a key of up to 15 bytes is kept as: its bytes, zeros, its length last. A key equals such a
    // text exactly when its own words are these (a long key's last byte is a tag no length has), so finding a member
    // among an object's few costs two loads and compares each instead of a length check and a memcmp.
    struct Words
    {
        std::uint64_t low = 0, high = 0;
        bool operator==(const Words &) const = default;
    };
    static std::optional<Words> wordsOf(std::string_view s) noexcept
    {
        if (s.size() > kInline)
            return std::nullopt;
        char bytes[16] = {};
        std::copy(s.begin(), s.end(), bytes); // an empty view's data() may be null, which memcpy may not be given
        bytes[kTag] = char(s.size());
        return wordsAt(bytes);
    }
    Words words() const noexcept { return wordsAt(m_bytes); }
    friend auto operator<=>(const Key &a, const Key &b) noexcept { return a.view() <=> b.view(); }

private:
    static constexpr std::size_t kInline = 15;
    static constexpr std::size_t kTag = 15; // inline: the length; heap: kHeap
    static constexpr unsigned char kHeap = 0xFF;

    bool isHeap() const noexcept { return static_cast<unsigned char>(m_bytes[kTag]) == kHeap; }
    static Words wordsAt(const char *bytes) noexcept
    {
        Words w;
        std::memcpy(&w.low, bytes, 8);
        std::memcpy(&w.high, bytes + 8, 8);
        return w;
    }
    const char *heapData() const noexcept;
    std::size_t heapSize() const noexcept;

    alignas(8) char m_bytes[16] = {};
};

struct Member
{
    Key key;
    Value value;
};

inline ArrayNode::ArrayNode()
    : Node(Kind::Array)
{
}

inline ArrayNode::ArrayNode(const ArrayNode &other)
    : Node(other)
    , items(other.items)
{
}

inline ObjectNode::ObjectNode()
    : Node(Kind::Object)
{
}

inline ObjectNode::ObjectNode(const ObjectNode &other)
    : Node(other)
    , members(other.members)
    , index(other.index ? std::make_unique<Index>(*other.index) : nullptr)
{
}

// A JavaScript array-index key: the canonical decimal form of an integer in 0..2^32-2.
bool isArrayIndexKey(std::string_view key);

const char *typeName(Type t);

// How many deferred strings asString() has decoded and kept since the process started: lets tests show that a
// whole-run pass (inspect, verification) keeps no decoded copies.
std::size_t deferredStringsKept();

} // namespace tf::json
