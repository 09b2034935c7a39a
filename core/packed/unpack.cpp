#include "unpack.h"

#include "expansionwriter.h"

#include <unistd.h>

namespace tf::packed {

namespace {

// Expansions up to this size are kept in memory; larger ones go to a scratch file, whose pages the loader releases
// as it reads them (MappedFile::releaseResidentPages), as it does for a plain file.
constexpr std::uint64_t kInMemoryBytes = 32u << 20;

} // namespace

Unpacked Unpacked::read(std::string_view text, const std::string &name, const UnpackOptions &options)
{
    Unpacked out;
    out.m_arena = std::make_unique<json::StringArena>();
    json::ParseLimits limits;
    limits.progress = options.parseProgress;
    json::ParseError parseError;
    std::size_t end = 0;
    const std::size_t start = rootStart(text);
    out.m_root = std::make_shared<json::Value>(json::parse(text, *out.m_arena, parseError, start, &end, limits));
    if (parseError.failed()) {
        out.m_error = parseError.reason == "cancelled" ? "cancelled" : name + ": " + parseError.describe();
        return out;
    }
    for (std::size_t q = end; q < text.size(); ++q)
        if (!json::isJsonSpace(text[q])) {
            out.m_error = name + ": unexpected data after the JSON value at byte " + std::to_string(q);
            return out;
        }
    Refusal refusal;
    const Detected detected = detect(text, *out.m_root, out.m_parts, refusal);
    if (detected == Detected::Refused) {
        out.m_error = describe(name, refusal);
        return out;
    }
    if (detected == Detected::Plain)
        return out;
    refusal = measurePlain(out.m_parts, options.maxPlainBytes, out.m_size);
    if (!refusal.refused() && out.m_size.depth > kMaxExpandedDepth)
        refusal = {start,
                   "it expands to JSON nested " + std::to_string(out.m_size.depth) +
                       " levels deep; Tracefold reads at most " + std::to_string(kMaxExpandedDepth),
                   ""};
    if (refusal.refused()) {
        out.m_error = describe(name, refusal);
        out.m_parts = {};
    }
    return out;
}

bool Unpacked::write(io::ByteSink &sink, const std::function<bool(std::uint64_t)> &progress) const
{
    return packed() && writeExpansion(m_parts, sink, progress);
}

std::shared_ptr<const io::MappedFile> expandToMapping(const io::MappedFile &file, const ExpandControl &control,
                                                      std::string &error)
{
    const auto report = [&](double fraction, const std::string &stage) {
        if (control.progress)
            control.progress(fraction, stage);
    };
    const auto cancelled = [&] { return control.cancelled && control.cancelled(); };
    const std::string_view text = file.bytes();
    const double total = double(std::max<std::size_t>(text.size(), 1));
    UnpackOptions options = control.options;
    options.parseProgress = [&](std::size_t offset) {
        report(0.3 * double(offset) / total, "Reading the packed recording");
        return !cancelled();
    };
    const Unpacked unpacked = Unpacked::read(text, file.path(), options);
    if (!unpacked.packed()) {
        error = !unpacked.error().empty() ? unpacked.error() : file.path() + ": not a packed recording";
        return nullptr;
    }
    const std::uint64_t plain = unpacked.plainSize().bytes;
    report(0.3, "Unpacking");
    const auto written = [&](std::uint64_t bytes) {
        report(0.3 + 0.7 * double(bytes) / double(std::max<std::uint64_t>(plain, 1)), "Unpacking");
        return !cancelled();
    };
    const auto failed = [&](const std::string &why) {
        error = cancelled() ? "cancelled" : file.path() + ": cannot unpack: " + why;
        return nullptr;
    };
    if (plain <= kInMemoryBytes) {
        std::string bytes;
        bytes.reserve(std::size_t(plain));
        io::StringSink sink(bytes);
        if (!unpacked.write(sink, written))
            return failed("the expansion stopped");
        return io::MappedFile::fromString(std::move(bytes), file.path());
    }
    std::string why;
    const int fd = io::createScratchFile(why);
    if (fd < 0)
        return failed(why);
    io::FileSink sink(fd);
    if (!unpacked.write(sink, written)) {
        ::close(fd);
        return failed(sink.error().empty() ? "the expansion stopped" : "writing the expansion: " + sink.error());
    }
    return io::MappedFile::fromDescriptor(fd, file.path(), error);
}

} // namespace tf::packed
