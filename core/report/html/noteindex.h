#pragma once

#include "core/report/notes.h"

#include <cstddef>
#include <map>
#include <set>
#include <vector>

namespace tf::report::html {

// The sidecar's bookmarks and notes resolved against the run, indexed by call ordinal.
struct NoteIndex
{
    const notes::Sidecar *sidecar = nullptr;
    notes::Resolution resolution;
    std::map<std::size_t, std::vector<std::size_t>> byCall; // ordinal -> note indices
    std::set<std::size_t> bookmarked;                       // ordinals

    std::size_t notesAt(std::size_t ordinal) const
    {
        auto it = byCall.find(ordinal);
        return it == byCall.end() ? 0 : it->second.size();
    }
};

NoteIndex indexNotes(const notes::Sidecar *sidecar, const recording::Run &run);

} // namespace tf::report::html
