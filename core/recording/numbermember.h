#pragma once

#include "core/json/value.h"

#include <optional>
#include <string_view>

namespace tf::recording {

// A payload's or meta's number member when it is one (a duration, a token total, a wall clock); nullopt when absent
// or of another type.
inline std::optional<double> numberMember(const json::Value &object, std::string_view key)
{
    if (const json::Value *v = object.findNumber(key))
        return v->asNumber();
    return std::nullopt;
}

} // namespace tf::recording
