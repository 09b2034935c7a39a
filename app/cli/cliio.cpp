#include "cliio.h"

#include "core/recording/run.h"

#include <iostream>

namespace tf::cli {

void errorLine(const std::string &message)
{
    std::string line;
    for (const char c : message)
        line += c == '\n' ? std::string("\\n") : c == '\r' ? std::string("\\r") : std::string(1, c);
    std::cerr << line << '\n';
}

bool changedWhileRead(const recording::Run &run)
{
    const std::string change = run.changedOnDisk();
    if (change.empty())
        return false;
    errorLine(change);
    return true;
}

} // namespace tf::cli
