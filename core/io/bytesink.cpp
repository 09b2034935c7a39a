#include "bytesink.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace tf::io {

bool FileSink::write(std::string_view bytes)
{
    while (!bytes.empty()) {
        const ssize_t n = ::write(m_fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            m_error = n < 0 ? std::strerror(errno) : "nothing written";
            return false;
        }
        bytes.remove_prefix(std::size_t(n));
    }
    return true;
}

int createScratchFile(std::string &error)
{
    const char *env = std::getenv("TMPDIR");
    const std::string dir = env && *env ? env : "/tmp";
#ifdef O_TMPFILE
    const int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0)
        return fd;
#endif
    // Filesystems without O_TMPFILE: a unique name, removed at once.
    std::string name = dir + "/tracefold-XXXXXX";
    const int named = ::mkostemp(name.data(), O_CLOEXEC);
    if (named < 0) {
        error = "cannot create a temporary file in " + dir + ": " + std::strerror(errno);
        return -1;
    }
    ::unlink(name.c_str());
    return named;
}

} // namespace tf::io
