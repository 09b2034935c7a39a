#include "mappedfile.h"
#include "residentceiling.h"
#include "vanishedpages.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tf::io {

namespace {

std::atomic<std::size_t> g_residentCeiling{0};

// This process's resident memory, from /proc/self/statm: all of it (the second field) and the file-backed (and
// shared) part (the third); npos where that file does not exist.
struct Resident
{
    std::size_t all = std::string_view::npos, fileBacked = std::string_view::npos;
};
Resident residentBytes()
{
    // Opened once and read with pread: passes ask before every call they rebuild, from several threads.
    static const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return {};
    char buf[128];
    const ssize_t got = ::pread(fd, buf, sizeof buf - 1, 0);
    if (got <= 0)
        return {};
    buf[got] = '\0';
    unsigned long size = 0, resident = 0, shared = 0;
    if (std::sscanf(buf, "%lu %lu %lu", &size, &resident, &shared) != 3)
        return {};
    const auto page = std::size_t(::sysconf(_SC_PAGESIZE));
    return {std::size_t(resident) * page, std::size_t(shared) * page};
}

} // namespace

FileStamp stampOf(const struct ::stat &st)
{
    FileStamp stamp;
    stamp.device = std::uint64_t(st.st_dev);
    stamp.inode = std::uint64_t(st.st_ino);
    stamp.size = std::uint64_t(st.st_size);
    stamp.mtimeSeconds = std::int64_t(st.st_mtim.tv_sec);
    stamp.mtimeNanoseconds = std::int64_t(st.st_mtim.tv_nsec);
    return stamp;
}

MappedFile::~MappedFile()
{
    // Unguarded first: the handler must never map zeros over an address range that may be someone else's by then.
    vanishedpages::release(m_guardSlot);
    if (m_mapped)
        ::munmap(const_cast<char *>(m_data), m_size);
}

std::shared_ptr<const MappedFile> MappedFile::open(const std::string &path, std::string &error)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        error = path + ": cannot open: " + std::strerror(errno);
        return nullptr;
    }
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0) {
        error = path + ": cannot stat: " + std::strerror(errno);
        ::close(fd);
        return nullptr;
    }
    if (S_ISDIR(st.st_mode)) {
        error = path + ": is a directory; expected an agentfootprint recording file";
        ::close(fd);
        return nullptr;
    }
    if (!S_ISREG(st.st_mode)) {
        error = path + ": not a regular file";
        ::close(fd);
        return nullptr;
    }
    return map(fd, path, true, error);
}

std::shared_ptr<const MappedFile> MappedFile::fromDescriptor(int fd, std::string name, std::string &error)
{
    return map(fd, std::move(name), false, error);
}

std::shared_ptr<const MappedFile> MappedFile::map(int fd, std::string name, bool namesTheFile, std::string &error)
{
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0) {
        error = name + ": cannot stat: " + std::strerror(errno);
        ::close(fd);
        return nullptr;
    }
    std::shared_ptr<MappedFile> file(new MappedFile());
    file->m_path = std::move(name);
    file->m_stamped = namesTheFile;
    file->m_stamp = stampOf(st);
    if (st.st_size > 0) {
        void *p = ::mmap(nullptr, std::size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            error = file->m_path + ": cannot map: " + std::strerror(errno);
            ::close(fd);
            return nullptr;
        }
        file->m_guardSlot = vanishedpages::guard(p, std::size_t(st.st_size));
        if (file->m_guardSlot < 0) {
            ::munmap(p, std::size_t(st.st_size));
            error = file->m_path + ": cannot open: more than " + std::to_string(vanishedpages::kMaxGuarded) +
                    " files are open at once";
            ::close(fd);
            return nullptr;
        }
        ::madvise(p, std::size_t(st.st_size), MADV_SEQUENTIAL);
        file->m_data = static_cast<const char *>(p);
        file->m_size = std::size_t(st.st_size);
        file->m_mapped = true;
        const std::size_t resident = residentBytes().fileBacked;
        file->m_fileResidentAtOpen = resident == std::string_view::npos ? 0 : resident;
    }
    ::close(fd);
    return file;
}

void MappedFile::trimResidentPages(std::size_t budgetBytes) const
{
    if (!m_mapped)
        return;
    const std::size_t readers = std::max<std::size_t>(1, m_readers.load(std::memory_order_relaxed));
    const Resident now = residentBytes();
    if (now.fileBacked == std::string_view::npos) {
        releaseResidentPages();
        return;
    }
    // What the passes have added to the file-backed memory since the file was mapped (the libraries' pages are in it
    // too, and do not count), against their budgets, or what the ceiling leaves, whichever allows more.
    const std::size_t added = now.fileBacked > m_fileResidentAtOpen ? now.fileBacked - m_fileResidentAtOpen : 0;
    std::size_t allowed = budgetBytes * readers;
    if (const std::size_t ceiling = residentCeiling(); ceiling > now.all)
        allowed = std::max(allowed, added + (ceiling - now.all));
    if (added < allowed)
        return;
    releaseResidentPages();
}

void setResidentCeiling(std::size_t bytes)
{
    g_residentCeiling.store(bytes, std::memory_order_relaxed);
}

std::size_t residentCeiling()
{
    return g_residentCeiling.load(std::memory_order_relaxed);
}

MappedFile::Reader::Reader(const MappedFile *file)
    : m_file(file)
{
    if (m_file)
        m_file->m_readers.fetch_add(1, std::memory_order_relaxed);
}

MappedFile::Reader::~Reader()
{
    if (!m_file)
        return;
    // A pass on several threads may hold a budget per thread when it ends: the last reader to end lets the pages go
    // down to one budget. Not at each reader's end: the workers of a pass end a chunk each at a time, and trimming to
    // the others' budgets there would drop the pages they are reading, several times a pass.
    if (m_file->m_readers.fetch_sub(1, std::memory_order_relaxed) == 1)
        m_file->trimResidentPages(kPassResidentBytes);
}

void MappedFile::releaseResidentPages(std::size_t before) const
{
    releaseResidentPages(0, before);
}

void MappedFile::releaseResidentPages(std::size_t from, std::size_t before) const
{
    if (!m_mapped)
        return;
    const std::size_t page = std::size_t(::sysconf(_SC_PAGESIZE));
    const std::size_t start = (std::min(from, m_size) + page - 1) / page * page;
    const std::size_t end = (std::min(before, m_size) / page) * page;
    if (end > start)
        ::madvise(const_cast<char *>(m_data) + start, end - start, MADV_DONTNEED);
}

bool MappedFile::pagesVanished() const
{
    return vanishedpages::vanished(m_guardSlot);
}

int MappedFile::reopen() const
{
    if (!m_stamped || !m_mapped)
        return -1;
    const int fd = ::open(m_path.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st
    {
    };
    if (fd < 0 || ::fstat(fd, &st) != 0) {
        if (fd >= 0)
            ::close(fd);
        return -1;
    }
    if (stampOf(st) != m_stamp) {
        ::close(fd);
        return -1;
    }
    return fd;
}

std::string MappedFile::changedOnDisk() const
{
    const std::string prefix = m_path + ": the file changed on disk while it was being read (";
    const std::string suffix = "); read it again once it is complete";
    if (m_stamped) {
        struct stat st
        {
        };
        if (::stat(m_path.c_str(), &st) != 0)
            return prefix + "it is gone: " + std::strerror(errno) + suffix;
        const FileStamp now = stampOf(st);
        if (now.device != m_stamp.device || now.inode != m_stamp.inode)
            return prefix + "another file was put in its place" + suffix;
        if (now.size != m_stamp.size)
            return prefix + (now.size < m_stamp.size ? "truncated" : "grew") + " from " + std::to_string(m_stamp.size) +
                   " to " + std::to_string(now.size) + " bytes" + suffix;
        if (now.mtimeSeconds != m_stamp.mtimeSeconds || now.mtimeNanoseconds != m_stamp.mtimeNanoseconds)
            return prefix + "rewritten in place" + suffix;
    }
    if (pagesVanished())
        return prefix + "bytes vanished under the reader" + suffix;
    return {};
}

std::shared_ptr<const MappedFile> MappedFile::fromString(std::string bytes, std::string name)
{
    std::shared_ptr<MappedFile> file(new MappedFile());
    file->m_owned = std::move(bytes);
    file->m_data = file->m_owned.data();
    file->m_size = file->m_owned.size();
    file->m_path = std::move(name);
    return file;
}

} // namespace tf::io
