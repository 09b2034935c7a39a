#pragma once

#include <string>

namespace tf::recording {
struct Run;
}

namespace tf::cli {

// One line on stderr, whatever the message holds: a line break from a file name is printed escaped, since the
// README promises one line per refusal.
void errorLine(const std::string &message);

// Whether the recording changed on disk while the command read it (recording::Run::changedOnDisk); then prints the
// one line saying so, and the command exits 2 without printing what it built from the changed bytes. Every command
// asks once its output is complete and before any of it is written.
bool changedWhileRead(const recording::Run &run);

} // namespace tf::cli
