#pragma once

#include <string>

namespace tf::json {

// ECMAScript Number::toString(10) for a double: shortest round-trip digits, laid out the JavaScript way
// (`1e+21`, `1e-7`, `0.000001`, `-0` as `0`). NaN and the infinities give their JavaScript names; JSON.stringify
// callers turn those into `null` themselves.
std::string jsNumberToString(double x);
void appendJsNumber(std::string &out, double x);

} // namespace tf::json
