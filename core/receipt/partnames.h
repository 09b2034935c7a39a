#pragma once

#include <cstddef>
#include <string>
#include <string_view>

// The names a call's served parts go by, as the receipt verification names its rows (PartCheck::part) and as a run
// comparison names the part where two runs went apart. One spelling, so a part named in one surface can be looked
// up in another.
namespace tf::receipt {

inline constexpr std::string_view kSystemTextPart = "system.text";
inline constexpr std::string_view kToolNamesPart = "tools.names";

std::string systemPiecePart(std::size_t index);        // system.pieces[k]
std::string messagePart(std::size_t index);            // messages[i], an index into the messages as sent
std::string toolSchemaPart(std::string_view toolName); // tools.schema[NAME]

} // namespace tf::receipt
