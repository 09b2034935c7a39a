#include "plainsize.h"

#include "core/json/jsnumber.h"
#include "core/json/writer.h"

#include <algorithm>
#include <vector>

namespace tf::packed {

namespace {

using json::Value;

// What `$af:ref` names, as upstream's String(index) prints it in its refusal.
std::string printedIndex(const Value &index)
{
    switch (index.type()) {
    case json::Type::Null:
        return "null";
    case json::Type::Bool:
        return index.asBool() ? "true" : "false";
    case json::Type::Number:
        return json::jsNumberToString(index.asNumber());
    case json::Type::String:
        return inLine(index.asString());
    case json::Type::Array: // String([1, 2]) joins the items; rare enough to name only the type
        return "an array";
    case json::Type::Object:
        return "[object Object]";
    }
    return "?";
}

std::size_t offsetOf(const Value &node, std::size_t fallback)
{
    return node.sourceOffset() == json::kNoSource ? fallback : std::size_t(node.sourceOffset());
}

class Measure
{
public:
    Measure(const PackedParts &parts, std::uint64_t maxBytes)
        : m_values(*parts.values)
        , m_maxBytes(maxBytes)
        , m_state(parts.values->size(), State::Unsized)
        , m_sizes(parts.values->size())
    {
    }

    Refusal run(const Value &recording, PlainSize &size);

private:
    enum class State : std::uint8_t
    {
        Unsized,
        Sizing,
        Sized
    };
    static constexpr std::size_t kNotPooled = SIZE_MAX;
    // An array or object being summed, or a pooled value (`pooled` its index) whose one child is its own node.
    struct Frame
    {
        const Value *node = nullptr;
        std::size_t pooled = kNotPooled;
        std::size_t next = 0;
        PlainSize sum;
    };

    // Sizes `node` at once when nothing needs walking (a scalar, a value already sized) and returns true; otherwise
    // pushes the frame that will size it, or refuses.
    bool visit(const Value &node, std::size_t at, PlainSize &out);
    // The next child of the top frame, its comma and key already counted; nullptr when the frame is complete.
    const Value *nextChild(Frame &f);
    // Hands a sized child to the frame that holds it (or makes it the result).
    void deliver(const PlainSize &child);
    bool within(std::uint64_t bytes, std::size_t at)
    {
        if (bytes <= m_maxBytes)
            return true;
        m_refusal = {at, tooLargeMessage(m_maxBytes), "PackedRecordingTooLargeError"};
        return false;
    }
    void push(const Value &node, std::size_t pooled = kNotPooled)
    {
        Frame f{&node, pooled, 0, {}};
        if (pooled == kNotPooled)
            f.sum.bytes = node.isArray() ? 2 + (node.size() ? node.size() - 1 : 0) : 2; // brackets and commas
        m_stack.push_back(f);
    }

    const Value &m_values;
    const std::uint64_t m_maxBytes;
    std::vector<State> m_state;
    std::vector<PlainSize> m_sizes;
    std::vector<Frame> m_stack;
    PlainSize m_result;
    Refusal m_refusal;
};

bool Measure::visit(const Value &node, std::size_t at, PlainSize &out)
{
    switch (node.type()) {
    case json::Type::Null:
    case json::Type::Bool:
        out = {node.isNull() || node.asBool() ? 4u : 5u, 0};
        return true;
    case json::Type::Number:
        out = {json::jsNumberToString(node.asNumber()).size(), 0};
        return true;
    case json::Type::String:
        out = {json::stringifiedLength(node), 0};
        return within(out.bytes, at);
    case json::Type::Array:
        push(node);
        return false;
    case json::Type::Object:
        break;
    }
    at = offsetOf(node, at);
    if (const Value *index = referenceIndex(node)) {
        const std::optional<std::size_t> checked = checkedIndex(*index, m_values.size());
        if (!checked) {
            m_refusal = {at,
                         "A reference names value " + printedIndex(*index) + ", which this recording does not hold."};
            return false;
        }
        const std::size_t i = *checked;
        if (m_state[i] == State::Sized) {
            out = m_sizes[i];
            return true;
        }
        if (m_state[i] == State::Sizing) {
            m_refusal = {at, "Value " + std::to_string(i) + " refers to itself; a recording cannot hold that."};
            return false;
        }
        m_state[i] = State::Sizing;
        push(m_values.at(i), i);
        return false;
    }
    if (const Value *inner = escapedObject(node)) {
        push(*inner);
        return false;
    }
    push(node);
    return false;
}

const Value *Measure::nextChild(Frame &f)
{
    if (f.pooled != kNotPooled)
        return f.next++ == 0 ? f.node : nullptr;
    if (f.node->isArray())
        return f.next < f.node->size() ? &f.node->at(f.next++) : nullptr;
    if (f.next == f.node->memberCount())
        return nullptr;
    const json::Member &m = f.node->memberBegin()[f.next];
    f.sum.bytes += (f.next++ > 0 ? 1 : 0) + json::jsStringLength(m.key) + 1;
    return &m.value;
}

void Measure::deliver(const PlainSize &child)
{
    if (m_stack.empty()) {
        m_result = child;
        return;
    }
    Frame &f = m_stack.back();
    if (f.pooled != kNotPooled) {
        f.sum = child;
        return;
    }
    f.sum.depth = std::max(f.sum.depth, child.depth);
    if (within(f.sum.bytes + child.bytes, offsetOf(*f.node, 0)))
        f.sum.bytes += child.bytes;
}

Refusal Measure::run(const Value &recording, PlainSize &size)
{
    PlainSize sized;
    if (visit(recording, 0, sized))
        deliver(sized);
    while (!m_refusal.refused() && !m_stack.empty()) {
        const std::size_t at = offsetOf(*m_stack.back().node, 0);
        if (const Value *child = nextChild(m_stack.back())) {
            if (visit(*child, at, sized))
                deliver(sized);
            continue;
        }
        // Complete: a container is one level deeper than its deepest member; a pooled value is what its node is.
        Frame finished = m_stack.back();
        m_stack.pop_back();
        if (finished.pooled == kNotPooled) {
            ++finished.sum.depth;
        } else {
            m_state[finished.pooled] = State::Sized;
            m_sizes[finished.pooled] = finished.sum;
        }
        deliver(finished.sum);
    }
    if (!m_refusal.refused() && within(m_result.bytes, 0))
        size = m_result;
    return m_refusal;
}

} // namespace

std::string tooLargeMessage(std::uint64_t maxBytes)
{
    return "This packed recording expands to more than " + std::to_string(maxBytes) +
           " bytes of JSON \u2014 the most this reader takes. Its plain form would be refused at that size too; a "
           "reader that trusts the recording and reads it as a graph (never as a tree) can pass a larger maxBytes.";
}

Refusal measurePlain(const PackedParts &parts, std::uint64_t maxBytes, PlainSize &size)
{
    return Measure(parts, maxBytes).run(*parts.recording, size);
}

} // namespace tf::packed
