#pragma once

#include <string>
#include <vector>

namespace tf::cli {

// Each command takes its own arguments (after the command words) and returns the process exit status.
int conformFindings(const std::vector<std::string> &args);
int conformCommitLog(const std::vector<std::string> &args);
int inspect(const std::vector<std::string> &args);
int generate(const std::vector<std::string> &args);
// reportcommands.cpp
int report(const std::vector<std::string> &args);
int search(const std::vector<std::string> &args);
// diffcommand.cpp: exit 0 when the runs were served the same and answered the same, 1 when they differ
int diff(const std::vector<std::string> &args);
// unpackcommand.cpp
int unpack(const std::vector<std::string> &args);
// auditcommand.cpp
int audit(const std::vector<std::string> &args);
// followcommand.cpp: runs until interrupted (exit 0) or idle for --idle-exit seconds
int follow(const std::vector<std::string> &args);

} // namespace tf::cli
