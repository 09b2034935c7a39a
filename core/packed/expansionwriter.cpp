#include "expansionwriter.h"

#include "core/json/writer.h"

namespace tf::packed {

namespace {

using json::Value;

class ExpansionWriter
{
public:
    ExpansionWriter(const PackedParts &parts, io::ByteSink &sink, const std::function<bool(std::uint64_t)> &progress)
        : m_values(*parts.values)
        , m_sink(sink)
        , m_progress(progress)
    {
        m_buffer.reserve(kFlushBytes + (64u << 10));
    }

    bool run(const Value &recording) { return write(recording) && flush(); }

private:
    static constexpr std::size_t kFlushBytes = 1u << 20;

    bool flush()
    {
        if (m_buffer.empty())
            return true;
        m_written += m_buffer.size();
        const bool ok = m_sink.write(m_buffer);
        m_buffer.clear();
        return ok && (!m_progress || m_progress(m_written));
    }
    bool maybeFlush() { return m_buffer.size() < kFlushBytes || flush(); }

    bool write(const Value &packed);
    bool writeString(const Value &s);
    bool writeMembers(const Value &object);

    const Value &m_values;
    io::ByteSink &m_sink;
    const std::function<bool(std::uint64_t)> &m_progress;
    std::string m_buffer;
    std::uint64_t m_written = 0;
};

bool ExpansionWriter::write(const Value &packed)
{
    // A chain of references is followed in a loop: only nesting costs a level of recursion.
    const Value *node = &packed;
    while (const Value *index = referenceIndex(*node)) {
        const std::optional<std::size_t> i = checkedIndex(*index, m_values.size());
        if (!i)
            return false; // measurePlain refuses it first
        node = &m_values.at(*i);
    }
    if (const Value *inner = escapedObject(*node))
        return writeMembers(*inner);
    switch (node->type()) {
    case json::Type::String:
        return writeString(*node);
    case json::Type::Array: {
        m_buffer += '[';
        for (std::size_t i = 0; i < node->size(); ++i) {
            if (i)
                m_buffer += ',';
            if (!write(node->at(i)))
                return false;
        }
        m_buffer += ']';
        return maybeFlush();
    }
    case json::Type::Object:
        return writeMembers(*node);
    default:
        json::appendStringify(m_buffer, *node);
        return maybeFlush();
    }
}

bool ExpansionWriter::writeString(const Value &s)
{
    std::string_view body;
    // A long tool result in JSON.stringify's form goes to the sink as the file holds it, without a copy.
    if (s.stringifyBody(body) && body.size() >= kFlushBytes) {
        m_buffer += '"';
        if (!flush() || !m_sink.write(body))
            return false;
        m_written += body.size();
        m_buffer += '"';
        return maybeFlush();
    }
    json::appendStringify(m_buffer, s);
    return maybeFlush();
}

bool ExpansionWriter::writeMembers(const Value &object)
{
    m_buffer += '{';
    for (const json::Member *m = object.memberBegin(); m != object.memberEnd(); ++m) {
        if (m != object.memberBegin())
            m_buffer += ',';
        json::appendJsString(m_buffer, m->key);
        m_buffer += ':';
        if (!write(m->value))
            return false;
    }
    m_buffer += '}';
    return maybeFlush();
}

} // namespace

bool writeExpansion(const PackedParts &parts, io::ByteSink &sink, const std::function<bool(std::uint64_t)> &progress)
{
    return ExpansionWriter(parts, sink, progress).run(*parts.recording);
}

} // namespace tf::packed
