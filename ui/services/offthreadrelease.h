#pragma once

#include <QThreadPool>

#include <memory>

namespace tf::ui {

// A handle to `owned` whose last release destroys it on a pool thread instead of on the thread that lets it go. A
// call's bundle holds one call's fold, ledger rows, transcript and Wire rows — at 1.5 GB tens of megabytes in many
// blocks — and the GUI thread lets the previous bundle go in the middle of the next call switch: freeing it there,
// and giving its pages back to the system, was part of the switch's time on the thread that paints.
//
// The pool is one thread of its own: queued behind the call builds on the global pool, the bundles let go lived on
// beside the next ones (4 MB more at the peak on a 1,300-call run). Null once destroyed, at exit.
QThreadPool *releasePool();

template <typename T>
std::shared_ptr<const T> releasedOffThread(std::shared_ptr<T> owned)
{
    const T *object = owned.get();
    return std::shared_ptr<const T>(object, [owned = std::move(owned)](const T *) mutable {
        if (QThreadPool *pool = releasePool())
            pool->start([last = std::move(owned)] {});
        else
            owned.reset();
    });
}

} // namespace tf::ui
