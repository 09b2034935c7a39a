// Differential fuzzing of the core's JSON reader against nlohmann_json (tests/fuzz/jsonoracle.h): any input on
// which they disagree, beyond the documented differences, is a finding.

#include "fuzz_common.h"
#include "jsonoracle.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const tf::fuzz::oracle::Verdict verdict = tf::fuzz::oracle::compare(tf::fuzz::asText(data, size));
    if (!verdict.agree)
        std::fprintf(stderr, "core and nlohmann disagree: %s\n", verdict.detail.c_str());
    TF_FUZZ_CHECK(verdict.agree);
    return 0;
}
