// `tracefold-cli report` and `tracefold-cli search`: the reviewer-facing commands. Both read the recording (and
// the report its sidecar of notes) and never write either.
#include "cliio.h"
#include "commands.h"

#include "core/json/writer.h"
#include "core/recording/recordingloader.h"
#include "core/report/htmlreport.h"
#include "core/report/notes.h"
#include "core/report/runsearch.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace tf::cli {

namespace {

// Written beside the target and renamed, so a reader never sees half a report.
bool writeAtomically(const std::string &path, const std::string &bytes)
{
    const std::string temporary = path + ".partial";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out)
            return false;
        out.write(bytes.data(), std::streamsize(bytes.size()));
        out.flush();
        if (!out) {
            std::remove(temporary.c_str());
            return false;
        }
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
        std::remove(temporary.c_str());
        return false;
    }
    return true;
}

// The PDF helper ships beside tracefold-cli (same build directory, same bindir when installed). The CLI links no
// Qt, so the one Qt-linked step, laying the HTML out with QTextDocument into a QPdfWriter, runs in that helper.
std::string pdfHelperPath()
{
    if (const char *overridden = std::getenv("TRACEFOLD_REPORT_PDF"); overridden && *overridden)
        return overridden;
    char self[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return "tracefold-report-pdf";
    std::string dir(self, std::size_t(n));
    dir = dir.substr(0, dir.find_last_of('/'));
    return dir + "/tracefold-report-pdf";
}

// Runs the helper without a shell (no quoting of untrusted names) and returns its exit status, or -1.
int runPdfHelper(const std::string &html, const std::string &pdf, const std::string &title)
{
    const std::string helper = pdfHelperPath();
    std::vector<std::string> args = {helper, html, pdf, "--title", title};
    std::vector<char *> argv;
    for (std::string &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, helper.c_str(), nullptr, nullptr, argv.data(), environ);
    if (rc != 0) {
        errorLine(helper + ": cannot run the PDF helper (" + std::strerror(rc) + ")");
        return -1;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::shared_ptr<const recording::Run> load(const std::string &path)
{
    const recording::LoadResult loaded = recording::loadRecording(path);
    if (!loaded.run)
        errorLine(loaded.error);
    return loaded.run;
}

} // namespace

int report(const std::vector<std::string> &args)
{
    const char *usage =
        "usage: tracefold-cli report FILE -o REPORT.html [--pdf REPORT.pdf] [--detail all|relevant] [--no-notes] "
        "[--baseline OTHER]\n";
    std::string input, html, pdf, baselinePath;
    bool withNotes = true;
    // Unset: every call in the HTML report, only the calls that matter in the PDF.
    std::optional<report::ReportDetail> detail;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        const bool hasValue = i + 1 < args.size();
        if ((a == "-o" || a == "--output") && hasValue)
            html = args[++i];
        else if (a == "--pdf" && hasValue)
            pdf = args[++i];
        else if (a == "--detail" && hasValue && (args[i + 1] == "all" || args[i + 1] == "relevant"))
            detail = args[++i] == "all" ? report::ReportDetail::All : report::ReportDetail::Relevant;
        else if (a == "--no-notes")
            withNotes = false;
        else if (a == "--baseline" && hasValue)
            baselinePath = args[++i];
        else if (input.empty() && !a.empty() && a[0] != '-')
            input = a;
        else {
            std::cerr << usage;
            return 2;
        }
    }
    if (input.empty() || (html.empty() && pdf.empty())) {
        std::cerr << usage;
        return 2;
    }
    const auto run = load(input);
    if (!run)
        return 2;
    // The run this one is compared with (issue 19): the report gains a comparison section.
    std::shared_ptr<const recording::Run> baseline;
    if (!baselinePath.empty() && !(baseline = load(baselinePath)))
        return 2;

    std::optional<notes::Sidecar> sidecar;
    if (withNotes) {
        notes::ReadResult read = notes::readSidecarFile(notes::sidecarPathFor(input));
        if (!read.error.empty()) {
            errorLine(read.error + " (use --no-notes to report without it)");
            return 2;
        }
        for (const std::string &w : read.warnings)
            errorLine(notes::sidecarPathFor(input) + ": " + w);
        sidecar = std::move(read.sidecar);
    }
    report::HtmlReportOptions options;
    options.sidecar = sidecar ? &*sidecar : nullptr;
    options.baseline = baseline.get();
    // Both documents are built before either is written, and only from a file that stayed as it was opened.
    options.detail = detail.value_or(report::ReportDetail::All);
    const std::string htmlDocument = html.empty() ? std::string() : report::renderHtmlReport(*run, options);
    std::string pdfDocument;
    if (!pdf.empty()) {
        // The same report with the stylesheet Qt's rich-text engine lays out (see HtmlReportOptions::Flavor).
        options.flavor = report::HtmlReportOptions::Flavor::QtPrint;
        options.detail = detail.value_or(report::ReportDetail::Relevant);
        pdfDocument = report::renderHtmlReport(*run, options);
    }
    if (changedWhileRead(*run))
        return 2;
    if (!html.empty() && !writeAtomically(html, htmlDocument)) {
        errorLine(html + ": cannot write the report");
        return 1;
    }
    if (!pdf.empty()) {
        const std::string &document = pdfDocument;
        // The helper reads the same HTML from a private temporary file.
        char pattern[] = "/tmp/tracefold-report-XXXXXX.html";
        const int fd = mkstemps(pattern, 5);
        if (fd < 0) {
            errorLine("cannot create a temporary file for the PDF");
            return 1;
        }
        bool written = true;
        for (std::size_t off = 0; off < document.size() && written;) {
            const ssize_t n = ::write(fd, document.data() + off, document.size() - off);
            if (n < 0 && errno == EINTR)
                continue;
            written = n > 0;
            off += written ? std::size_t(n) : 0;
        }
        ::close(fd);
        const std::string title =
            "Tracefold report " + (run->runId.empty() ? notes::identityOf(*run).path : run->runId);
        const int status = written ? runPdfHelper(pattern, pdf, title) : -1;
        ::unlink(pattern);
        if (status != 0) {
            if (status > 0)
                errorLine(pdf + ": the PDF helper failed (exit " + std::to_string(status) + ")");
            else if (written)
                errorLine(pdf + ": the PDF helper did not finish");
            else
                errorLine("cannot write a temporary file for the PDF");
            return 1;
        }
    }
    return 0;
}

int search(const std::vector<std::string> &args)
{
    const char *usage = "usage: tracefold-cli search FILE TEXT [--json] [-i] [--responses]\n";
    std::vector<std::string> positional;
    bool asJson = false;
    report::SearchOptions options;
    bool literal = false;
    for (const std::string &a : args) {
        if (!literal && a == "--") {
            literal = true;
        } else if (!literal && a == "--json") {
            asJson = true;
        } else if (!literal && (a == "-i" || a == "--ignore-case")) {
            options.caseInsensitive = true;
        } else if (!literal && a == "--responses") {
            options.includeResponses = true;
        } else if (!literal && a.size() > 1 && a[0] == '-' && positional.size() != 1) {
            std::cerr << usage;
            return 2;
        } else {
            positional.push_back(a);
        }
    }
    if (positional.size() != 2 || positional[1].empty()) {
        std::cerr << usage;
        return 2;
    }
    const auto run = load(positional[0]);
    if (!run)
        return 2;
    const report::SearchResult result = report::searchRun(*run, positional[1], options);
    const std::string document =
        asJson ? json::prettyPrint(report::searchJson(*run, result)) + '\n' : report::searchText(*run, result);
    if (changedWhileRead(*run))
        return 2;
    std::cout << document;
    return 0;
}

} // namespace tf::cli
