// Fuzz target: the NDJSON event-log reader. The input is forced into NDJSON shape by a valid first event line (one
// of a few event types, picked by the first byte), so every mutation lands in the line-by-line reader, its torn-last-
// line rule and the events-only call builder, instead of being refused by shape detection.

#include "fuzz_common.h"

#include "core/json/writer.h"
#include "core/recording/callview.h"
#include "core/recording/recordingloader.h"

using namespace tf;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    static const char *const kFirstLines[] = {
        R"({"type":"agentfootprint.agent.turn_start","payload":{"userMessage":"hi"},"meta":{"runId":"run-1-1"}})",
        (R"({"type":"agentfootprint.stream.llm_start","payload":{"iteration":1,"model":"m","provider":"p"},)"
         R"("meta":{"runId":"run-1-1","runtimeStageId":"call-llm#1","wallClockMs":1}})"),
        R"({"type":"agentfootprint.agent.iteration_end","payload":{"iteration":1,"history":[]},"meta":{}})",
        R"({"type":"x","payload":{}})",
    };
    std::string text;
    std::string_view input = fuzz::asText(data, size);
    std::size_t pick = 0;
    if (!input.empty()) {
        pick = static_cast<unsigned char>(input[0]) % (sizeof kFirstLines / sizeof kFirstLines[0]);
        input.remove_prefix(1);
    }
    text = kFirstLines[pick];
    text += '\n';
    text.append(input);

    const recording::LoadResult result = recording::loadRecordingFromBytes(std::move(text), "fuzz.ndjson");
    TF_FUZZ_CHECK(!result.run != result.error.empty());
    if (!result.run) {
        if (result.error.rfind("fuzz.ndjson:", 0) != 0)
            std::fprintf(stderr, "error: %s\n", result.error.c_str());
        TF_FUZZ_CHECK(result.error.rfind("fuzz.ndjson:", 0) == 0);
        return 0;
    }
    TF_FUZZ_CHECK(result.run->shape == recording::RecordingShape::NdjsonEvents);
    TF_FUZZ_CHECK(!result.run->events.empty());
    const auto summaries = recording::summarizeCalls(*result.run);
    TF_FUZZ_CHECK(summaries.size() == result.run->calls.size());
    for (std::size_t i = 0; i < result.run->calls.size(); ++i) {
        const recording::CallView view = recording::buildCallView(*result.run, i);
        if (view.conversationOnRecord)
            (void)json::stringify(view.asSent);
    }
    return 0;
}
