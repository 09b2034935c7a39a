#include "jsnumber.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace tf::json {

void appendJsNumber(std::string &out, double x)
{
    if (std::isnan(x)) {
        out += "NaN";
        return;
    }
    if (std::isinf(x)) {
        out += x < 0 ? "-Infinity" : "Infinity";
        return;
    }
    if (x == 0) {
        out += '0';
        return;
    }
    if (x < 0) {
        out += '-';
        x = -x;
    }
    // Scientific shortest form gives exactly the ECMAScript digit string s and exponent.
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf - 1, x, std::chars_format::scientific);
    *res.ptr = '\0'; // to_chars does not terminate; atoi below needs it
    const char *e = static_cast<const char *>(std::memchr(buf, 'e', std::size_t(res.ptr - buf)));
    std::string digits;
    for (const char *p = buf; p < e; ++p)
        if (*p != '.')
            digits += *p;
    const int exp10 = std::atoi(e + 1);
    const int k = int(digits.size());
    const int n = exp10 + 1;
    if (k <= n && n <= 21) {
        out += digits;
        out.append(std::size_t(n - k), '0');
    } else if (0 < n && n <= 21) {
        out.append(digits, 0, std::size_t(n));
        out += '.';
        out.append(digits, std::size_t(n), std::string::npos);
    } else if (-6 < n && n <= 0) {
        out += "0.";
        out.append(std::size_t(-n), '0');
        out += digits;
    } else {
        out += digits[0];
        if (k > 1) {
            out += '.';
            out.append(digits, 1, std::string::npos);
        }
        out += 'e';
        out += (n - 1) < 0 ? '-' : '+';
        out += std::to_string(std::abs(n - 1));
    }
}

std::string jsNumberToString(double x)
{
    std::string s;
    appendJsNumber(s, x);
    return s;
}

} // namespace tf::json
