#pragma once

// Shared by the fuzz targets and their replay executables (tests/fuzz/CMakeLists.txt).

#include "core/json/parser.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace tf::fuzz {

// A property every input must keep, checked in every build (libFuzzer reports the abort as a crash; the replay
// executable dies, so its ctest fails). Not assert(): the regression replay runs in release builds too.
#define TF_FUZZ_CHECK(cond)                                                                                            \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            std::fprintf(stderr, "%s:%d: fuzz property failed: %s\n", __FILE__, __LINE__, #cond);                      \
            std::abort();                                                                                              \
        }                                                                                                              \
    } while (0)

inline std::string_view asText(const std::uint8_t *data, std::size_t size)
{
    return {reinterpret_cast<const char *>(data), size};
}

// A parsed document and the memory its strings point into.
struct Document
{
    std::string text;
    json::StringArena arena;
    json::ParseError error;
    json::Value root;
    bool ok = false;
};

inline void parseDocument(std::string_view text, Document &doc)
{
    doc.text.assign(text);
    std::size_t end = 0;
    doc.root = json::parse(doc.text, doc.arena, doc.error, 0, &end);
    doc.ok = !doc.error.failed();
    if (!doc.ok)
        TF_FUZZ_CHECK(doc.error.offset <= doc.text.size() && doc.error.line >= 1 && doc.error.column >= 1);
    else
        TF_FUZZ_CHECK(end <= doc.text.size());
}

} // namespace tf::fuzz
