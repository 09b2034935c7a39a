#include "value.h"

#include "stringbody.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstring>
#include <mutex>
#include <stdexcept>

namespace tf::json {

namespace {

const Value kNullValue{}; // braces: clang refuses a default-initialized const of this class

std::atomic<std::size_t> g_deferredKept{0};

// Shared by the copies of one deferred string, so that several threads asking for the text decode it once.
struct DeferredStringNode : detail::Node
{
    DeferredStringNode()
        : Node(Kind::DeferredString)
    {
    }
    std::once_flag once;
    std::string decoded;
};

struct StringBlockNode : detail::Node
{
    explicit StringBlockNode(std::size_t size)
        : Node(Kind::StringBlock)
        , bytes(std::make_unique<char[]>(size))
    {
    }
    std::unique_ptr<char[]> bytes;
};

struct OwnedStringNode : detail::Node
{
    explicit OwnedStringNode(std::string s)
        : Node(Kind::OwnedString)
        , text(std::move(s))
    {
    }
    std::string text;
};

// Index keys are compared numerically; both are known to be canonical, so length then bytes orders them.
bool indexKeyLess(std::string_view a, std::string_view b)
{
    return a.size() != b.size() ? a.size() < b.size() : a < b;
}

std::size_t keyHash(std::string_view key)
{
    return std::hash<std::string_view>{}(key);
}

constexpr std::size_t kNoMember = static_cast<std::size_t>(-1);

void rebuildIndex(ObjectNode &node)
{
    node.index.reset();
    if (node.members.size() < kIndexedMembers)
        return;
    node.index = std::make_unique<ObjectNode::Index>();
    node.index->reserve(node.members.size());
    for (std::size_t i = 0; i < node.members.size(); ++i)
        node.index->emplace(keyHash(node.members[i].key), std::uint32_t(i));
}

std::size_t positionOf(const ObjectNode &node, std::string_view key)
{
    if (!node.index) {
        // Nearly every key a reader asks for fits inline (Key::Words); a ledger's rows are asked for theirs
        // thousands of times a call.
        if (const std::optional<Key::Words> probe = Key::wordsOf(key)) {
            for (std::size_t i = 0; i < node.members.size(); ++i)
                if (node.members[i].key.words() == *probe)
                    return i;
            return kNoMember;
        }
        for (std::size_t i = 0; i < node.members.size(); ++i)
            if (node.members[i].key == key)
                return i;
        return kNoMember;
    }
    auto [it, end] = node.index->equal_range(keyHash(key));
    for (; it != end; ++it)
        if (node.members[it->second].key == key)
            return it->second;
    return kNoMember;
}

// Moves the index entry of the member now at `at` from position `from` to `to` (the cost of a shift is one such
// move per shifted member, the same order as the vector's own moves).
void reposition(ObjectNode &node, std::size_t at, std::size_t from, std::size_t to)
{
    auto [it, end] = node.index->equal_range(keyHash(node.members[at].key));
    for (; it != end; ++it)
        if (it->second == from) {
            it->second = std::uint32_t(to);
            return;
        }
}

} // namespace

static_assert(sizeof(void *) != 8 || sizeof(Value) == 24, "a Value is 24 bytes on 64-bit targets");
static_assert(sizeof(Key) == 16);

// A heap key: the pointer in bytes 0-7, the length in bytes 8-11 (keys longer than 4 GiB are refused).
Key::Key(std::string_view s)
{
    if (s.size() <= kInline) {
        std::copy(s.begin(), s.end(), m_bytes);
        m_bytes[kTag] = char(s.size());
        return;
    }
    if (s.size() > UINT32_MAX)
        throw std::length_error("member name longer than 4 GiB");
    char *heap = std::allocator<char>().allocate(s.size());
    std::copy(s.begin(), s.end(), heap);
    const auto size = std::uint32_t(s.size());
    std::memcpy(m_bytes, &heap, sizeof heap);
    std::memcpy(m_bytes + 8, &size, sizeof size);
    m_bytes[kTag] = char(kHeap);
}

Key::~Key()
{
    if (isHeap())
        std::allocator<char>().deallocate(const_cast<char *>(heapData()), heapSize());
}

const char *Key::heapData() const noexcept
{
    const char *p = nullptr;
    std::memcpy(&p, m_bytes, sizeof p);
    return p;
}

std::size_t Key::heapSize() const noexcept
{
    std::uint32_t size = 0;
    std::memcpy(&size, m_bytes + 8, sizeof size);
    return size;
}

void detail::NodeRef::release(Node *node) noexcept
{
    if (node->refs.fetch_sub(1, std::memory_order_acq_rel) != 1)
        return;
    switch (node->kind) {
    case Node::Kind::Array:
        delete static_cast<ArrayNode *>(node);
        return;
    case Node::Kind::Object:
        delete static_cast<ObjectNode *>(node);
        return;
    case Node::Kind::OwnedString:
        delete static_cast<OwnedStringNode *>(node);
        return;
    case Node::Kind::DeferredString:
        delete static_cast<DeferredStringNode *>(node);
        return;
    case Node::Kind::StringBlock:
        delete static_cast<StringBlockNode *>(node);
        return;
    }
}

bool isArrayIndexKey(std::string_view key)
{
    if (key.empty() || key.size() > 10)
        return false;
    if (key.size() > 1 && key[0] == '0')
        return false;
    std::uint64_t n = 0;
    for (char c : key) {
        if (c < '0' || c > '9')
            return false;
        n = n * 10 + std::uint64_t(c - '0');
    }
    return n <= 4294967294ULL;
}

const char *typeName(Type t)
{
    switch (t) {
    case Type::Null:
        return "null";
    case Type::Bool:
        return "boolean";
    case Type::Number:
        return "number";
    case Type::String:
        return "string";
    case Type::Array:
        return "array";
    case Type::Object:
        return "object";
    }
    return "unknown";
}

Value Value::boolean(bool b)
{
    Value v;
    v.m_type = Type::Bool;
    v.m_bool = b;
    return v;
}

Value Value::number(double d)
{
    Value v;
    v.m_type = Type::Number;
    v.m_number = d;
    return v;
}

Value Value::borrowedString(std::string_view wtf8)
{
    if (wtf8.size() > UINT32_MAX)
        throw std::length_error("string longer than 4 GiB");
    Value v;
    v.m_type = Type::String;
    v.m_strData = wtf8.data();
    v.m_length = std::uint32_t(wtf8.size());
    return v;
}

Value Value::string(std::string wtf8)
{
    detail::NodeRef node = detail::NodeRef::make<OwnedStringNode>(std::move(wtf8));
    Value v = borrowedString(static_cast<const OwnedStringNode *>(node.get())->text);
    v.m_node = std::move(node);
    return v;
}

Value Value::blockString(const detail::NodeRef &block, std::string_view bytesInBlock)
{
    Value v = borrowedString(bytesInBlock);
    v.m_node = block;
    return v;
}

bool Value::isBlockString() const
{
    return m_type == Type::String && m_node.get() && m_node.get()->kind == detail::Node::Kind::StringBlock;
}

Value SharedStringWriter::copy(std::string_view s)
{
    constexpr std::size_t kMaxBlockBytes = 16u << 10;
    if (s.empty())
        return Value::borrowedString({}); // no block to copy into yet, and memcpy may not take its null pointer
    if (s.size() > m_free) {
        // A new block; the old one lives on in the strings that hold it. Blocks grow, so a small parse stays small.
        while (m_nextBlockBytes < s.size())
            m_nextBlockBytes *= 2;
        m_block = detail::NodeRef::make<StringBlockNode>(m_nextBlockBytes);
        m_next = static_cast<StringBlockNode *>(m_block.get())->bytes.get();
        m_free = m_nextBlockBytes;
        m_nextBlockBytes = std::min(m_nextBlockBytes * 2, std::max(kMaxBlockBytes, m_nextBlockBytes));
    }
    std::memcpy(m_next, s.data(), s.size());
    const std::string_view copied(m_next, s.size());
    m_next += s.size();
    m_free -= s.size();
    return Value::blockString(m_block, copied);
}

Value Value::deferredString(std::string_view body, bool stringifyForm)
{
    Value v = borrowedString(body);
    v.m_strFlags = std::uint8_t(kDeferred | (stringifyForm ? kStringifyForm : 0));
    v.m_node = detail::NodeRef::make<DeferredStringNode>();
    return v;
}

std::string_view Value::decodeDeferredOnce() const
{
    auto *node = static_cast<DeferredStringNode *>(m_node.get());
    std::call_once(node->once, [&] {
        decodeStringBody({m_strData, m_length}, node->decoded);
        g_deferredKept.fetch_add(1, std::memory_order_relaxed);
    });
    return node->decoded;
}

void Value::appendString(std::string &out) const
{
    if (m_type != Type::String)
        return;
    if (m_strFlags & kDeferred)
        decodeStringBody({m_strData, m_length}, out);
    else
        out.append(m_strData, m_length);
}

std::string Value::decodedString() const
{
    std::string out;
    appendString(out);
    return out;
}

std::string_view Value::stringView(std::string &scratch) const
{
    if (!isDeferredString())
        return asString();
    scratch.clear();
    decodeStringBody({m_strData, m_length}, scratch);
    return scratch;
}

bool Value::stringEquals(std::string_view s) const
{
    if (m_type != Type::String)
        return false;
    if (!(m_strFlags & kDeferred))
        return std::string_view{m_strData, m_length} == s;
    // An escape is at most six bytes for one: a much shorter text cannot be equal, and tickets and ids are short.
    if (s.size() * 6 < m_length || s.size() > m_length)
        return false;
    return decodedString() == s;
}

bool Value::stringifyBody(std::string_view &body) const
{
    if (m_type != Type::String || (m_strFlags & (kDeferred | kStringifyForm)) != (kDeferred | kStringifyForm))
        return false;
    body = {m_strData, m_length};
    return true;
}

bool Value::deferredBody(std::string_view &body) const
{
    if (!isDeferredString())
        return false;
    body = {m_strData, m_length};
    return true;
}

std::size_t deferredStringsKept()
{
    return g_deferredKept.load(std::memory_order_relaxed);
}

Value Value::array()
{
    Value v;
    v.m_type = Type::Array;
    v.m_node = detail::NodeRef::make<ArrayNode>();
    return v;
}

Value Value::object()
{
    Value v;
    v.m_type = Type::Object;
    v.m_node = detail::NodeRef::make<ObjectNode>();
    return v;
}

Value Value::arrayFromItems(std::vector<Value> items, std::uint64_t source)
{
    if (items.size() > UINT32_MAX)
        throw std::length_error("array longer than 2^32 items");
    Value v;
    v.m_type = Type::Array;
    v.m_node = detail::NodeRef::make<ArrayNode>();
    auto *node = static_cast<ArrayNode *>(v.m_node.get());
    node->items = std::move(items);
    node->source = source;
    v.m_length = std::uint32_t(node->items.size());
    return v;
}

Value Value::objectFromMembers(std::vector<Member> members, std::uint64_t source)
{
    if (members.size() > UINT32_MAX)
        throw std::length_error("object with more than 2^32 members");
    Value v;
    v.m_type = Type::Object;
    v.m_node = detail::NodeRef::make<ObjectNode>();
    auto *node = static_cast<ObjectNode *>(v.m_node.get());
    node->members = std::move(members);
    node->source = source;
    rebuildIndex(*node);
    return v;
}

std::size_t Value::size() const
{
    return m_type == Type::Array ? m_length : 0;
}

const Value &Value::at(std::size_t i) const
{
    if (m_type != Type::Array || i >= m_length)
        return kNullValue;
    return static_cast<const ArrayNode *>(m_node.get())->items[i];
}

const Value *Value::begin() const
{
    if (m_type != Type::Array)
        return nullptr;
    return static_cast<const ArrayNode *>(m_node.get())->items.data();
}

const Value *Value::end() const
{
    const Value *b = begin();
    return b ? b + m_length : nullptr;
}

ArrayNode &Value::mutableArray()
{
    assert(m_type == Type::Array);
    auto *node = static_cast<ArrayNode *>(m_node.get());
    if (m_node.shared() || node->items.size() != m_length) {
        detail::NodeRef copy = detail::NodeRef::make<ArrayNode>();
        auto *fresh = static_cast<ArrayNode *>(copy.get());
        fresh->items.assign(node->items.begin(), node->items.begin() + m_length);
        m_node = std::move(copy);
        node = fresh;
    }
    node->source = kNoSource; // about to differ from what was parsed
    return *node;
}

void Value::push_back(Value v)
{
    assert(m_type == Type::Array);
    auto *node = static_cast<ArrayNode *>(m_node.get());
    if (m_node.shared() || node->items.size() != m_length)
        node = &mutableArray();
    if (m_length == UINT32_MAX)
        throw std::length_error("array longer than 2^32 items");
    node->source = kNoSource;
    node->items.push_back(std::move(v));
    ++m_length;
}

void Value::reserve(std::size_t n)
{
    mutableArray().items.reserve(n);
}

Value &Value::itemRef(std::size_t i)
{
    auto &node = mutableArray();
    return node.items.at(i);
}

std::size_t Value::memberCount() const
{
    return m_type == Type::Object ? static_cast<const ObjectNode *>(m_node.get())->members.size() : 0;
}

const Member *Value::memberBegin() const
{
    return m_type == Type::Object ? static_cast<const ObjectNode *>(m_node.get())->members.data() : nullptr;
}

const Member *Value::memberEnd() const
{
    const Member *b = memberBegin();
    return b ? b + memberCount() : nullptr;
}

const Value *Value::find(std::string_view key) const
{
    if (m_type != Type::Object)
        return nullptr;
    const auto *node = static_cast<const ObjectNode *>(m_node.get());
    const std::size_t i = positionOf(*node, key);
    return i == kNoMember ? nullptr : &node->members[i].value;
}

const Value *Value::findString(std::string_view key) const
{
    const Value *v = find(key);
    return v && v->isString() ? v : nullptr;
}

const Value *Value::findArray(std::string_view key) const
{
    const Value *v = find(key);
    return v && v->isArray() ? v : nullptr;
}

const Value *Value::findObject(std::string_view key) const
{
    const Value *v = find(key);
    return v && v->isObject() ? v : nullptr;
}

const Value *Value::findNumber(std::string_view key) const
{
    const Value *v = find(key);
    return v && v->isNumber() ? v : nullptr;
}

ObjectNode &Value::mutableObject()
{
    assert(m_type == Type::Object);
    if (m_node.shared())
        m_node = detail::NodeRef::make<ObjectNode>(*static_cast<const ObjectNode *>(m_node.get()));
    auto *node = static_cast<ObjectNode *>(m_node.get());
    node->source = kNoSource; // about to differ from what was parsed
    return *node;
}

Value &Value::memberRef(std::string_view key)
{
    ObjectNode &node = mutableObject();
    auto &members = node.members;
    if (const std::size_t i = positionOf(node, key); i != kNoMember)
        return members[i].value;
    if (members.size() >= UINT32_MAX)
        throw std::length_error("object with more than 2^32 members");
    std::size_t pos = members.size();
    if (isArrayIndexKey(key)) {
        // Index keys come first, ascending: binary search their block (its end is where the other keys start).
        const auto indexEnd = std::partition_point(members.begin(), members.end(),
                                                   [](const Member &m) { return isArrayIndexKey(m.key); });
        pos = std::size_t(std::lower_bound(members.begin(), indexEnd, key,
                                           [](const Member &m, std::string_view k) { return indexKeyLess(m.key, k); }) -
                          members.begin());
    }
    members.insert(members.begin() + std::ptrdiff_t(pos), Member{Key(key), Value()});
    if (members.size() == kIndexedMembers) {
        rebuildIndex(node);
    } else if (node.index) {
        for (std::size_t i = members.size() - 1; i > pos; --i)
            reposition(node, i, i - 1, i);
        node.index->emplace(keyHash(key), std::uint32_t(pos));
    }
    return members[pos].value;
}

bool Value::erase(std::string_view key)
{
    if (m_type != Type::Object || !find(key))
        return false;
    ObjectNode &node = mutableObject();
    auto &members = node.members;
    const std::size_t pos = positionOf(node, key);
    if (pos == kNoMember)
        return false;
    if (node.index) {
        auto [it, end] = node.index->equal_range(keyHash(key));
        for (; it != end; ++it)
            if (it->second == pos) {
                node.index->erase(it);
                break;
            }
        for (std::size_t i = pos + 1; i < members.size(); ++i)
            reposition(node, i, i, i - 1);
    }
    members.erase(members.begin() + std::ptrdiff_t(pos));
    if (members.size() < kIndexedMembers)
        node.index.reset();
    return true;
}

const void *Value::identity() const
{
    return (m_type == Type::Array || m_type == Type::Object) ? m_node.get() : nullptr;
}

std::uint64_t Value::sourceOffset() const
{
    if (m_type == Type::Array)
        return static_cast<const ArrayNode *>(m_node.get())->source;
    if (m_type == Type::Object)
        return static_cast<const ObjectNode *>(m_node.get())->source;
    return kNoSource;
}

} // namespace tf::json
