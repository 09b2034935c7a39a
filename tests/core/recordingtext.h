#pragma once

// What the tests of issue 16 do to recordings as text: generate one, parse one into a tree that owns its text, edit
// the text in place, and find a verification row of a call.

#include "core/generate/recordinggenerator.h"
#include "core/json/parser.h"
#include "core/recording/callview.h"

#include <QtGlobal>

#include <memory>
#include <string>
#include <string_view>

namespace tf::testsupport {

inline std::string generated(int calls, std::uint64_t seed)
{
    generate::GeneratorOptions options;
    options.calls = calls;
    options.seed = seed;
    return generate::generateRecording(options);
}

// A parsed document with the text and arena its values point into.
struct ParsedJson
{
    std::string text;
    json::StringArena arena;
    json::Value root;
};

inline std::unique_ptr<ParsedJson> parseJson(std::string text)
{
    auto doc = std::make_unique<ParsedJson>();
    doc->text = std::move(text);
    json::ParseError error;
    doc->root = json::parse(doc->text, doc->arena, error);
    if (error.failed())
        qFatal("%s", error.describe().c_str());
    return doc;
}

// Every occurrence of `from` replaced; `count` (when given) says how many there were.
inline std::string replaceAll(std::string text, const std::string &from, const std::string &to,
                              std::size_t *count = nullptr)
{
    std::size_t replaced = 0;
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
        ++replaced;
    }
    if (count)
        *count = replaced;
    return text;
}

// The recorder row a run served under a redaction policy carries (spec/upstream-since-9.113.md §4), and a
// generated recording's text with it added to snapshot.recorders.
inline constexpr std::string_view kRedactionMarkerRow =
    R"({"id":"agentfootprint.redaction","name":"Redaction","description":"Served under a redaction policy: a )"
    R"(placeholder (REDACTED / [REDACTED]) stands wherever the policy selected a value.","data":)"
    R"({"servedUnderPolicy":true}})";

inline std::string withRedactionMarker(std::string text)
{
    const std::string head = R"({"snapshot":{)";
    if (text.rfind(head, 0) != 0)
        qFatal("unexpected head");
    text.insert(head.size(), R"("recorders":[)" + std::string(kRedactionMarkerRow) + "],");
    return text;
}

inline const recording::PartCheck *findCheck(const recording::CallView &v, const std::string &part)
{
    for (const recording::PartCheck &c : v.checks)
        if (c.part == part)
            return &c;
    return nullptr;
}

} // namespace tf::testsupport
