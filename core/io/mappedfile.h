#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

struct stat;

namespace tf::io {

// How much of a mapped file a pass over it (a fold, a summary of every call) lets stay resident: a few calls' worth
// of messages. Passes call MappedFile::trimResidentPages with it as they go.
inline constexpr std::size_t kPassResidentBytes = 8u << 20;

// What a file was when it was opened: a change of any of these while it is read means its bytes may not be the ones
// read (a file replaced by rename keeps its old bytes in the mapping, but the path no longer names them).
struct FileStamp
{
    std::uint64_t device = 0, inode = 0;
    std::uint64_t size = 0;
    std::int64_t mtimeSeconds = 0, mtimeNanoseconds = 0;
    bool operator==(const FileStamp &) const = default;
};
// The stamp of a file as stat() or fstat() describes it.
FileStamp stampOf(const struct ::stat &st);

// A file opened read-only and mapped into memory (PROT_READ, MAP_PRIVATE): nothing Tracefold does can change the
// recording. Strings parsed from it are views into the mapping, so it lives as long as any value does.
//
// Someone else can change it, though: a mapping of a file truncated under the reader is guarded (vanishedpages.h),
// so the vanished pages read as zeros instead of killing the process, and every reader that trusts what it read
// asks changedOnDisk() once it is done.
class MappedFile
{
public:
    ~MappedFile();
    MappedFile(const MappedFile &) = delete;
    MappedFile &operator=(const MappedFile &) = delete;

    // On failure returns nullptr and sets `error` to a one-line reason naming the file.
    static std::shared_ptr<const MappedFile> open(const std::string &path, std::string &error);
    // Maps what the open descriptor holds, read-only, under `name` (a scratch file standing for the file the user
    // opened: the expansion of a packed recording). Takes the descriptor and closes it.
    static std::shared_ptr<const MappedFile> fromDescriptor(int fd, std::string name, std::string &error);
    // Wraps bytes already in memory (tests, stdin, archive members).
    static std::shared_ptr<const MappedFile> fromString(std::string bytes, std::string name);

    std::string_view bytes() const { return {m_data, m_size}; }
    // The bytes are a mapping of a file (open, fromDescriptor), not bytes in memory (fromString): reading them makes
    // pages resident, which releaseResidentPages lets go.
    bool mapped() const { return m_mapped; }
    // A new read-only descriptor (the caller closes it) on the file the mapping was made from, while its path still
    // names that file unchanged (device, inode, size and mtime as when mapped); -1 otherwise, and for bytes in memory
    // or a scratch file. For a pass that reads the file through a buffer rather than through the mapping.
    int reopen() const;

    // Drops the resident pages of the mapping before `offset` (all of them with npos). The mapping stays valid: a
    // later read faults the page back in from the page cache. Parsed strings are views into the file, so this is
    // what keeps a gigabyte recording from costing a gigabyte of resident memory once it has been read.
    void releaseResidentPages(std::size_t before = std::string_view::npos) const;
    // The same for those from `from` (rounded up to a page) up to `before`: a pass reading a later part of the file
    // while another reads an earlier one lets go of its own pages only.
    void releaseResidentPages(std::size_t from, std::size_t before) const;
    // Releases them only when the process's file-backed resident memory has grown by more than `budgetBytes` since
    // the file was mapped: a pass that reads messages scattered over the whole file (verification, search) calls it
    // often and cheaply, and the mapping's share of resident memory stays near the budget. Where the kernel does not
    // say (no /proc), it releases every time.
    // The budget is per reader (see Reader): workers reading different calls at once each keep theirs.
    void trimResidentPages(std::size_t budgetBytes) const;

    // Counts a pass as reading the file while it lives (one per thread: a CallStates holds one). Each reader gets
    // the budget of trimResidentPages: with one budget for all, every worker of a pass let go of the pages the
    // others were reading, several times a call (a 5,000-call summary on two workers spent a quarter of its time
    // faulting them back in).
    class Reader
    {
    public:
        explicit Reader(const MappedFile *file);
        ~Reader();
        Reader(const Reader &) = delete;
        Reader &operator=(const Reader &) = delete;

    private:
        const MappedFile *m_file;
    };
    const std::string &path() const { return m_path; }

    // Whether a read of the mapping met a page the file no longer has (it reads as zeros now). An atomic load: cheap
    // enough to ask after every rebuilt call.
    bool pagesVanished() const;
    // Empty while the file is as it was opened; otherwise one line naming the file and saying it changed while it
    // was being read, and how (pages vanished under a read; the path now holds a file of another size, mtime or
    // inode; the path is gone). A stat of the path: ask once a read is done, not per value.
    std::string changedOnDisk() const;

private:
    MappedFile() = default;
    static std::shared_ptr<const MappedFile> map(int fd, std::string name, bool namesTheFile, std::string &error);
    const char *m_data = nullptr;
    std::size_t m_size = 0;
    bool m_mapped = false;
    std::size_t m_fileResidentAtOpen = 0;
    mutable std::atomic<std::size_t> m_readers{0};
    std::string m_owned;
    std::string m_path;
    int m_guardSlot = -1;
    // Set when the mapping stands for the file at m_path (open()); a scratch file mapped under another name has none.
    bool m_stamped = false;
    FileStamp m_stamp;
};

} // namespace tf::io
