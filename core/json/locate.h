#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tf::json {

// One step of a path into a JSON document: a member name or an array index.
using PathStep = std::variant<std::string, std::size_t>;

// Byte offset of the value at `path` in already-validated JSON `text` (the root value starts at `rootOffset`).
// Values carry no positions (that would double their size); an error message that wants one walks the text again,
// which only happens on the error path. Returns nullopt when the path does not exist.
std::optional<std::size_t> locate(std::string_view text, const std::vector<PathStep> &path, std::size_t rootOffset = 0);

// "events[3].payload" style rendering of a path for messages.
std::string describePath(const std::vector<PathStep> &path);

} // namespace tf::json
