#pragma once

#include <string>
#include <string_view>

namespace tf::io {

// Where a long text is written a piece at a time (the expansion of a packed recording): a file, or a string.
class ByteSink
{
public:
    virtual ~ByteSink() = default;
    // Returns false when the bytes could not be written; the sink says why in error().
    virtual bool write(std::string_view bytes) = 0;
    virtual std::string error() const { return {}; }
};

class StringSink final : public ByteSink
{
public:
    explicit StringSink(std::string &out)
        : m_out(out)
    {
    }
    bool write(std::string_view bytes) override
    {
        m_out.append(bytes);
        return true;
    }

private:
    std::string &m_out;
};

// Writes to a descriptor it does not own, through short and interrupted writes.
class FileSink final : public ByteSink
{
public:
    explicit FileSink(int fd)
        : m_fd(fd)
    {
    }
    bool write(std::string_view bytes) override;
    std::string error() const override { return m_error; }

private:
    int m_fd;
    std::string m_error;
};

// A file in the temporary directory ($TMPDIR, else /tmp) that has no name from the start (O_TMPFILE) or from the
// moment it is made, so nothing is left behind and nothing is ever written beside the file the user opened. Returns
// its descriptor, or -1 with `error` set.
int createScratchFile(std::string &error);

} // namespace tf::io
