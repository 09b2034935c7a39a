#include "ui/services/offthreadrelease.h"

namespace tf::ui {

namespace {

struct ReleasePool : QThreadPool
{
    ReleasePool() { setMaxThreadCount(1); }
};

Q_GLOBAL_STATIC(ReleasePool, theReleasePool)

} // namespace

QThreadPool *releasePool()
{
    return theReleasePool();
}

} // namespace tf::ui
