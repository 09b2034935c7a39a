#include "vectorfile.h"

#include "core/io/mappedfile.h"
#include "core/json/parser.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace tf::conformance {

namespace {

bool isBlank(std::string_view line)
{
    return std::all_of(line.begin(), line.end(), json::isJsonSpace);
}

} // namespace

Summary runVectorFile(const std::string &path, std::ostream &out,
                      const std::function<bool(const json::Value &, std::string_view, std::size_t)> &runCase)
{
    Summary summary;
    // MappedFile words a directory as a recording problem, so that case is named here.
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        summary.error = path + ": cannot open: " + std::strerror(EISDIR);
        return summary;
    }
    std::string error;
    const auto file = io::MappedFile::open(path, error);
    if (!file) {
        summary.error = error;
        return summary;
    }
    const std::string_view bytes = file->bytes();
    std::size_t lineNo = 0;
    for (std::size_t pos = 0; pos < bytes.size();) {
        const std::size_t eol = std::min(bytes.find('\n', pos), bytes.size());
        const std::string_view line = bytes.substr(pos, eol - pos); // the mapping keeps the values' views alive
        pos = eol + 1;
        ++lineNo;
        if (isBlank(line))
            continue;

        json::StringArena arena;
        json::ParseError parseError;
        std::size_t end = 0;
        const json::Value c = json::parse(line, arena, parseError, 0, &end);
        if (!parseError.failed() && !isBlank(line.substr(end))) {
            parseError.offset = end;
            parseError.reason = "unexpected text after the case object";
            json::lineColumnAt(line, end, parseError.line, parseError.column);
        }
        if (parseError.failed()) {
            out << "FAIL line " << lineNo << ": " << parseError.describe() << '\n';
            ++summary.failed;
            continue;
        }
        if (runCase(c, line, lineNo))
            ++summary.passed;
        else
            ++summary.failed;
    }
    // Counts over a file that changed under the read are not the vectors' verdicts.
    summary.error = file->changedOnDisk();
    return summary;
}

} // namespace tf::conformance
