#pragma once

#include "callview.h"
#include "run.h"

#include "core/io/mappedfile.h"

#include <atomic>
#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

namespace tf::recording {

// The first calls of a large recording, read ahead of the whole index so that a window has call 1 on screen at once
// (README "Opening large recordings"). The layout of the document is skimmed (json::skimMembers) to where its
// commit log and event list begin; only their first rows and events are parsed, by the loader's own builders, and only
// the calls whose commit bundle and event bracket are wholly read are kept (Run::preview). The full load replaces the
// preview when it is done and is the only one that validates the file: a preview of a file the load then refuses is
// dropped with the load's error.
struct RunPreview
{
    std::shared_ptr<const Run> run;
    std::vector<CallSummary> calls;
    // How much of the file its events and commit-log rows span: a preview of ten times as many calls reads about ten
    // times as much, so a window can stop reading ahead before that is a large part of the file.
    std::size_t bytesRead = 0;
};

// At most `wantCalls` calls (at least one when the file holds one). nullopt when the file is not a plain JSON recording
// with an event list (NDJSON, packed, a reference or a capture: the full load is quick enough or must come first), or
// when anything in the part read is not as a recording's (the full load then says what).
std::optional<RunPreview> previewRun(const std::shared_ptr<const io::MappedFile> &file, std::size_t wantCalls,
                                     const std::atomic<bool> *cancel = nullptr);

} // namespace tf::recording
