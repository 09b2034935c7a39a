#pragma once

#include <cstddef>

namespace tf::io {

// How much memory the whole process may keep resident before the passes over a mapped file let the pages they read
// go. Each pass keeps a budget of its own (MappedFile::trimResidentPages); a process with a ceiling lets them keep
// more, up to where its resident memory (anonymous and file-backed) reaches the ceiling. The window sets one from the
// size of the file it opens (ui/services/runloader.cpp): a switch re-reads the pages a 3,300-row ledger state spans,
// and each one let go is a page fault on the next. 0 (the default, the CLI's): the budgets alone.
void setResidentCeiling(std::size_t bytes);
std::size_t residentCeiling();

} // namespace tf::io
