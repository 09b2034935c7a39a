#include "noteindex.h"

namespace tf::report::html {

NoteIndex indexNotes(const notes::Sidecar *sidecar, const recording::Run &run)
{
    NoteIndex notes;
    notes.sidecar = sidecar;
    if (!sidecar)
        return notes;
    notes.resolution = notes::resolve(*sidecar, run);
    for (const notes::Resolved &r : notes.resolution.notes)
        if (r.ordinal)
            notes.byCall[*r.ordinal].push_back(r.index);
    for (const notes::Resolved &r : notes.resolution.bookmarks)
        if (r.ordinal)
            notes.bookmarked.insert(*r.ordinal);
    return notes;
}

} // namespace tf::report::html
