#pragma once

// A packer for tests, written from the format's description (spec/upstream-since-9.113.md §1), not from upstream's
// code: every string, array or object whose JSON is at least 64 bytes and that occurs twice or more (by content) is
// written once into `values` and referred to as {"$af:ref": n}; an object of the recording's own with a reserved key
// is escaped. Upstream pools by object identity, so its choices differ; any faithful pooling must unpack to the same
// bytes, which is the law the tests check with it.

#include "core/json/value.h"
#include "core/json/writer.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace tf::testpacker {

class Packer
{
public:
    std::string pack(const json::Value &recording)
    {
        count(recording);
        const json::Value packedRecording = packed(recording);
        json::Value out = json::Value::object();
        out.set("format", json::Value::string("agentfootprint.recording.packed.v1"));
        out.set("recording", packedRecording);
        json::Value values = json::Value::array();
        for (const json::Value &v : m_values)
            values.push_back(v);
        out.set("values", values);
        return json::stringify(out);
    }

private:
    static constexpr std::size_t kMinPooledBytes = 64;

    static bool poolable(const json::Value &v) { return v.isString() || v.isArray() || v.isObject(); }

    // Content key: the value's JSON (subtrees are hashed by their text; a test recording is a few megabytes).
    void count(const json::Value &v)
    {
        if (!poolable(v))
            return;
        const std::string text = json::stringify(v);
        if (text.size() >= kMinPooledBytes)
            ++m_counts[text];
        if (v.isArray())
            for (const json::Value &item : v)
                count(item);
        else if (v.isObject())
            for (const json::Member *m = v.memberBegin(); m != v.memberEnd(); ++m)
                count(m->value);
    }

    json::Value packed(const json::Value &v)
    {
        if (!poolable(v))
            return v;
        const std::string text = json::stringify(v);
        const auto counted = m_counts.find(text);
        if (text.size() < kMinPooledBytes || counted == m_counts.end() || counted->second < 2)
            return expand(v);
        auto [it, fresh] = m_index.try_emplace(text, m_values.size());
        if (fresh) {
            m_values.emplace_back();
            m_values[it->second] = expand(v);
        }
        json::Value ref = json::Value::object();
        ref.set("$af:ref", json::Value::number(double(it->second)));
        return ref;
    }

    json::Value expand(const json::Value &v)
    {
        if (v.isArray()) {
            json::Value out = json::Value::array();
            for (const json::Value &item : v)
                out.push_back(packed(item));
            return out;
        }
        if (!v.isObject())
            return v;
        json::Value out = json::Value::object();
        bool reserved = false;
        for (const json::Member *m = v.memberBegin(); m != v.memberEnd(); ++m) {
            reserved = reserved || m->key == "$af:ref" || m->key == "$af:esc";
            out.set(m->key, packed(m->value));
        }
        if (!reserved)
            return out;
        json::Value escaped = json::Value::object();
        escaped.set("$af:esc", out);
        return escaped;
    }

    std::unordered_map<std::string, int> m_counts;
    std::unordered_map<std::string, std::size_t> m_index;
    std::vector<json::Value> m_values;
};

inline std::string pack(const json::Value &recording)
{
    return Packer().pack(recording);
}

} // namespace tf::testpacker
