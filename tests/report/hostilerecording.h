#pragma once

// A recording made hostile on purpose, for the report's escaping tests: a generated run whose tool results, tool
// names, ids, fact values and final answer carry markup that tries to run script, load resources, or close the
// report's own elements. Shared by tests/core/tst_htmlreport.cpp and tests/report/tst_hostilereport.cpp.

#include "core/generate/recordinggenerator.h"
#include "core/json/parser.h"
#include "core/json/writer.h"
#include "core/recording/recordingloader.h"

#include <string>
#include <string_view>
#include <vector>

namespace tf::testing {

// Every payload either writes the sentinel title "PWNED", adds an element with an id starting "pwned", or would
// fetch or navigate. A report in which any of them took effect as markup fails the browser test.
inline const std::vector<std::string> &hostilePayloads()
{
    static const std::vector<std::string> payloads = {
        "<script>window.__pwned=1;document.title='PWNED'</script>",
        "<img src=x onerror=\"document.title='PWNED'\">",
        "<a href=\"javascript:document.title='PWNED'\">click me</a>",
        "</style></pre></code></td></tr></table></div><script>document.title='PWNED'</script>",
        "\"><svg onload=\"document.title='PWNED'\"><circle r=9></svg>",
        "<iframe srcdoc=\"<script>parent.document.title='PWNED'</script>\"></iframe>",
        "'><body onload=\"document.title='PWNED'\">",
        "</title><script>document.title='PWNED'</script>",
        "<div id=\"pwned-markup\">markup became an element</div>",
        "<meta http-equiv=\"refresh\" content=\"0;url=javascript:document.title='PWNED'\">",
        "<style>body{background:url(https://example.invalid/x.png)}</style>",
        "<!-- --><script>document.title='PWNED'</script><!-- -->",
        "<math><mtext></p><script>document.title='PWNED'</script></mtext></math>",
        std::string("line\xE2\x80\xA8separator and lone \xED\xA0\x80 surrogate and \xE2\x80\xAE override"),
    };
    return payloads;
}

inline std::string hostileBlob()
{
    std::string all;
    for (const std::string &p : hostilePayloads())
        all += p + " ";
    return all;
}

// The answer the hostile run ends with: it quotes the hostile fact value, so the backtrack shows that value, its
// fact line, its standing row and its tool result.
inline std::string hostileFactValue()
{
    return "down<script>document.title='PWNED'</script>";
}

namespace detail {

inline json::Value transform(const json::Value &v, const std::string &finalAnswer)
{
    using json::Value;
    switch (v.type()) {
    case json::Type::String: {
        const std::string_view s = v.asString();
        // Tool results (the generator writes them as stringified JSON objects starting with "port").
        if (s.rfind("{\"port\":", 0) == 0)
            return Value::string(hostileBlob() + std::string(s));
        if (s == finalAnswer)
            return Value::string("The port is " + hostileFactValue() + " " + hostilePayloads()[1] + " " +
                                 hostilePayloads()[3]);
        if (s == "down")
            return Value::string(hostileFactValue());
        if (s == "read_zoning")
            return Value::string("read_zoning<img src=x onerror=\"document.title='PWNED'\">");
        if (s == "call_2")
            return Value::string("call_2\"><svg onload=\"document.title='PWNED'\">");
        if (s == "the host-side HBA log")
            return Value::string(hostilePayloads()[5]);
        return v;
    }
    case json::Type::Array: {
        Value out = Value::array();
        for (const Value &item : v)
            out.push_back(transform(item, finalAnswer));
        return out;
    }
    case json::Type::Object: {
        Value out = Value::object();
        for (const json::Member *m = v.memberBegin(); m != v.memberEnd(); ++m)
            out.set(m->key, transform(m->value, finalAnswer));
        return out;
    }
    default:
        return v;
    }
}

} // namespace detail

// A generated recording (parsed, every hostile string put in, serialized again). Receipts no longer match the
// altered bytes, so many parts read Damaged: the report must render that as well.
inline std::string hostileRecording(int calls = 8, std::uint64_t seed = 3)
{
    generate::GeneratorOptions options;
    options.calls = calls;
    options.seed = seed;
    const std::string text = generate::generateRecording(options);
    json::StringArena arena;
    json::ParseError error;
    const json::Value root = json::parse(text, arena, error);
    if (error.failed())
        return {};
    const auto loaded = recording::loadRecordingFromBytes(text, "generated.json");
    const std::string finalAnswer = loaded.run && loaded.run->finalAnswer ? *loaded.run->finalAnswer : std::string();
    return json::stringify(detail::transform(root, finalAnswer));
}

} // namespace tf::testing
