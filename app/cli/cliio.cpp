#include "cliio.h"

#include <iostream>

namespace tf::cli {

void errorLine(const std::string &message)
{
    std::string line;
    for (const char c : message)
        line += c == '\n' ? std::string("\\n") : c == '\r' ? std::string("\\r") : std::string(1, c);
    std::cerr << line << '\n';
}

} // namespace tf::cli
