// `tracefold-cli unpack FILE -o OUT`: writes the plain recording a packed one stands for, exactly upstream's
// JSON.stringify(unpackRecording(JSON.parse(text))); a plain file is copied byte for byte. Never writes FILE.
#include "cliio.h"
#include "commands.h"

#include "core/io/bytesink.h"
#include "core/io/mappedfile.h"
#include "core/packed/unpack.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace tf::cli {

namespace {

bool sameFile(const std::string &a, const std::string &b)
{
    struct stat sa
    {
    }, sb{};
    return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

// A new file beside `output` (a unique name, never an existing file), renamed over it once complete, so a reader
// never sees half a recording and no file but the output is ever replaced.
class PartialOutput
{
public:
    explicit PartialOutput(const std::string &output)
        : m_output(output)
        , m_temporary(output + ".partial-XXXXXX")
    {
        m_fd = ::mkstemp(m_temporary.data());
        if (m_fd < 0)
            m_error = output + ": cannot write: " + std::strerror(errno);
        else
            ::fchmod(m_fd, 0644);
    }
    ~PartialOutput()
    {
        if (m_fd >= 0) {
            ::close(m_fd);
            ::unlink(m_temporary.c_str());
        }
    }
    PartialOutput(const PartialOutput &) = delete;
    PartialOutput &operator=(const PartialOutput &) = delete;

    int fd() const { return m_fd; }
    const std::string &error() const { return m_error; }
    bool commit()
    {
        const int fd = std::exchange(m_fd, -1);
        if (::close(fd) != 0 || std::rename(m_temporary.c_str(), m_output.c_str()) != 0) {
            m_error = m_output + ": cannot write: " + std::strerror(errno);
            ::unlink(m_temporary.c_str());
            return false;
        }
        return true;
    }

private:
    std::string m_output;
    std::string m_temporary;
    int m_fd = -1;
    std::string m_error;
};

// A write of the mapped bytes fails with EFAULT when the kernel meets a page the input no longer has (no SIGBUS:
// the kernel does the read): then the input's change is the reason, not the output.
std::string readFailure(const io::MappedFile &input, const std::string &writeError)
{
    std::string change = input.changedOnDisk();
    return change.empty() ? writeError : change;
}

} // namespace

int unpack(const std::vector<std::string> &args)
{
    const char *usage = "usage: tracefold-cli unpack FILE -o OUT\n";
    std::string input, output;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if ((a == "-o" || a == "--output") && i + 1 < args.size())
            output = args[++i];
        else if (input.empty() && !a.empty() && a[0] != '-')
            input = a;
        else {
            std::fputs(usage, stderr);
            return 2;
        }
    }
    if (input.empty() || output.empty()) {
        std::fputs(usage, stderr);
        return 2;
    }
    std::string error;
    const auto file = io::MappedFile::open(input, error);
    if (!file) {
        errorLine(error);
        return 2;
    }
    if (sameFile(input, output)) {
        errorLine(output + ": is " + input + " itself; unpack never writes the file it reads");
        return 2;
    }
    const std::string_view text = file->bytes();
    PartialOutput out(output);
    if (out.fd() < 0) {
        errorLine(out.error());
        return 2;
    }
    io::FileSink sink(out.fd());
    if (packed::namesPackedFamily(text)) {
        const packed::Unpacked unpacked = packed::Unpacked::read(text, input);
        if (!unpacked.error().empty()) {
            const std::string change = file->changedOnDisk();
            errorLine(change.empty() ? unpacked.error() : change);
            return 2;
        }
        if (!unpacked.write(sink)) {
            errorLine(readFailure(*file, output + ": cannot write: " + sink.error()));
            return 2;
        }
    } else if (!sink.write(text)) {
        errorLine(readFailure(*file, output + ": cannot write: " + sink.error()));
        return 2;
    }
    // The output is complete but may hold bytes of a file that changed under the read: it replaces nothing then.
    if (std::string change = file->changedOnDisk(); !change.empty()) {
        errorLine(change);
        return 2;
    }
    if (!out.commit()) {
        errorLine(out.error());
        return 2;
    }
    return 0;
}

} // namespace tf::cli
