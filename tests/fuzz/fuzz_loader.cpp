// Fuzz target: the whole loader over arbitrary bytes (shape detection, every shape's builder, the NDJSON reader),
// then everything a viewer derives from a loaded run: the per-call summary and the full view of every call, and the
// inspect document the CLI prints.

#include "fuzz_common.h"

#include "core/json/writer.h"
#include "core/recording/callview.h"
#include "core/recording/recordingloader.h"
#include "core/recording/runpreview.h"
#include "core/report/inspectreport.h"

using namespace tf;

namespace fuzz_loader {

void exerciseRun(const recording::Run &run)
{
    const std::vector<recording::CallSummary> summaries = recording::summarizeCalls(run);
    TF_FUZZ_CHECK(summaries.size() == run.calls.size());
    for (std::size_t i = 0; i < run.calls.size(); ++i) {
        const recording::CallView view = recording::buildCallView(run, i);
        TF_FUZZ_CHECK(view.record == &run.calls[i]);
        if (view.piece) {
            const std::string broken = findings::checkPieceStructure(*view.piece);
            if (!broken.empty())
                std::fprintf(stderr, "piece structure: %s\n", broken.c_str());
            TF_FUZZ_CHECK(broken.empty());
            (void)view.piece->sizeUtf8();
        }
        if (view.conversationOnRecord)
            (void)json::stringify(view.asSent);
    }
    (void)json::stringify(report::inspectJson(run, summaries));
    (void)report::inspectTable(run, summaries);
}

} // namespace fuzz_loader

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const recording::LoadResult result =
        recording::loadRecordingFromBytes(std::string(fuzz::asText(data, size)), "fuzz.json");
    // The preview of the first calls reads the same bytes another way (a skim, then prefixes): it must never crash,
    // and whatever it shows of a file the load accepts must be what the load shows.
    const std::optional<recording::RunPreview> preview =
        recording::previewRun(io::MappedFile::fromString(std::string(fuzz::asText(data, size)), "fuzz.json"), 3);
    if (preview && result.run) {
        const std::vector<recording::CallSummary> all = recording::summarizeCalls(*result.run);
        TF_FUZZ_CHECK(preview->calls.size() <= all.size());
        for (std::size_t i = 0; i < preview->calls.size() && i < all.size(); ++i)
            TF_FUZZ_CHECK(json::stringify(report::inspectCallJson(preview->calls[i])) ==
                          json::stringify(report::inspectCallJson(all[i])));
    }
    // Exactly one of a run and an error; a refusal starts with the file name (spec/recording.md §1.8: "NAME: ..." or,
    // for NDJSON, "NAME:LINE:COLUMN: ...").
    TF_FUZZ_CHECK(!result.run != result.error.empty());
    TF_FUZZ_CHECK(!result.cancelled);
    if (!result.run) {
        if (result.error.rfind("fuzz.json:", 0) != 0)
            std::fprintf(stderr, "error: %s\n", result.error.c_str());
        TF_FUZZ_CHECK(result.error.rfind("fuzz.json:", 0) == 0);
        return 0;
    }
    fuzz_loader::exerciseRun(*result.run);
    return 0;
}
