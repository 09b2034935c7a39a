#pragma once

#include <string>

namespace tf::cli {

// One line on stderr, whatever the message holds: a line break from a file name is printed escaped, since the
// README promises one line per refusal.
void errorLine(const std::string &message);

} // namespace tf::cli
