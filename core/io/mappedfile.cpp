#include "mappedfile.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tf::io {

namespace {

// Bytes of file-backed (and shared) memory resident in this process, from the third field of /proc/self/statm;
// npos where that file does not exist.
std::size_t fileResidentBytes()
{
    FILE *f = std::fopen("/proc/self/statm", "r");
    if (!f)
        return std::string_view::npos;
    unsigned long size = 0, resident = 0, shared = 0;
    const int n = std::fscanf(f, "%lu %lu %lu", &size, &resident, &shared);
    std::fclose(f);
    if (n != 3)
        return std::string_view::npos;
    return std::size_t(shared) * std::size_t(::sysconf(_SC_PAGESIZE));
}

} // namespace

MappedFile::~MappedFile()
{
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
    return fromDescriptor(fd, path, error);
}

std::shared_ptr<const MappedFile> MappedFile::fromDescriptor(int fd, std::string name, std::string &error)
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
    if (st.st_size > 0) {
        void *p = ::mmap(nullptr, std::size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            error = file->m_path + ": cannot map: " + std::strerror(errno);
            ::close(fd);
            return nullptr;
        }
        ::madvise(p, std::size_t(st.st_size), MADV_SEQUENTIAL);
        file->m_data = static_cast<const char *>(p);
        file->m_size = std::size_t(st.st_size);
        file->m_mapped = true;
        const std::size_t resident = fileResidentBytes();
        file->m_fileResidentAtOpen = resident == std::string_view::npos ? 0 : resident;
    }
    ::close(fd);
    return file;
}

void MappedFile::trimResidentPages(std::size_t budgetBytes) const
{
    if (!m_mapped)
        return;
    const std::size_t now = fileResidentBytes();
    if (now != std::string_view::npos && now < m_fileResidentAtOpen + budgetBytes)
        return;
    releaseResidentPages();
}

void MappedFile::releaseResidentPages(std::size_t before) const
{
    if (!m_mapped)
        return;
    const std::size_t page = std::size_t(::sysconf(_SC_PAGESIZE));
    const std::size_t length = (std::min(before, m_size) / page) * page;
    if (length > 0)
        ::madvise(const_cast<char *>(m_data), length, MADV_DONTNEED);
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
