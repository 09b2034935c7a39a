#include "value.h"

#include <cassert>
#include <stdexcept>

namespace tf::json {

namespace {

const Value kNullValue{}; // braces: clang refuses a default-initialized const of this class

// Index keys are compared numerically; both are known to be canonical, so length then bytes orders them.
bool indexKeyLess(std::string_view a, std::string_view b)
{
    return a.size() != b.size() ? a.size() < b.size() : a < b;
}

} // namespace

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
    auto owned = std::make_shared<std::string>(std::move(wtf8));
    Value v = borrowedString(*owned);
    v.m_node = std::move(owned);
    return v;
}

Value Value::array()
{
    Value v;
    v.m_type = Type::Array;
    v.m_node = std::make_shared<ArrayNode>();
    return v;
}

Value Value::object()
{
    Value v;
    v.m_type = Type::Object;
    v.m_node = std::make_shared<ObjectNode>();
    return v;
}

Value Value::arrayFromItems(std::vector<Value> items)
{
    if (items.size() > UINT32_MAX)
        throw std::length_error("array longer than 2^32 items");
    Value v;
    v.m_type = Type::Array;
    auto node = std::make_shared<ArrayNode>();
    node->items = std::move(items);
    v.m_length = std::uint32_t(node->items.size());
    v.m_node = std::move(node);
    return v;
}

Value Value::objectFromMembers(std::vector<Member> members)
{
    Value v;
    v.m_type = Type::Object;
    auto node = std::make_shared<ObjectNode>();
    node->members = std::move(members);
    v.m_node = std::move(node);
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
    if (m_node.use_count() > 1 || node->items.size() != m_length) {
        auto copy = std::make_shared<ArrayNode>();
        copy->items.assign(node->items.begin(), node->items.begin() + m_length);
        m_node = copy;
        node = copy.get();
    }
    return *node;
}

void Value::push_back(Value v)
{
    assert(m_type == Type::Array);
    auto *node = static_cast<ArrayNode *>(m_node.get());
    // Appending past the shared end is invisible to the other holders, who each see only their own length.
    if (node->items.size() != m_length)
        node = &mutableArray();
    if (m_length == UINT32_MAX)
        throw std::length_error("array longer than 2^32 items");
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
    for (const Member &m : static_cast<const ObjectNode *>(m_node.get())->members)
        if (m.key == key)
            return &m.value;
    return nullptr;
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
    if (m_node.use_count() > 1) {
        auto copy = std::make_shared<ObjectNode>(*static_cast<const ObjectNode *>(m_node.get()));
        m_node = copy;
    }
    return *static_cast<ObjectNode *>(m_node.get());
}

Value &Value::memberRef(std::string_view key)
{
    auto &members = mutableObject().members;
    for (Member &m : members)
        if (m.key == key)
            return m.value;
    auto pos = members.end();
    if (isArrayIndexKey(key)) {
        pos = members.begin();
        while (pos != members.end() && isArrayIndexKey(pos->key) && indexKeyLess(pos->key, key))
            ++pos;
    }
    return members.insert(pos, Member{std::string(key), Value()})->value;
}

bool Value::erase(std::string_view key)
{
    if (m_type != Type::Object || !find(key))
        return false;
    auto &members = mutableObject().members;
    for (auto it = members.begin(); it != members.end(); ++it) {
        if (it->key == key) {
            members.erase(it);
            return true;
        }
    }
    return false;
}

const void *Value::identity() const
{
    return (m_type == Type::Array || m_type == Type::Object) ? m_node.get() : nullptr;
}

} // namespace tf::json
