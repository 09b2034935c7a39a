// Fuzz target: the commit-log fold. The input is one JSON value: an array of rows (folded from {}), or an object
// {initialState?, commitLog} as in the conformance vectors. Every row is applied; after each, the paths the row's
// trace names are read back and the state is written out, as the per-call views do.

#include "fuzz_common.h"

#include "core/json/writer.h"
#include "core/recording/commitlogfold.h"

using namespace tf;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    fuzz::Document doc;
    fuzz::parseDocument(fuzz::asText(data, size), doc);
    if (!doc.ok)
        return 0;
    const json::Value *rows = nullptr;
    const json::Value *initial = nullptr;
    if (doc.root.isArray()) {
        rows = &doc.root;
    } else if (doc.root.isObject()) {
        rows = doc.root.findArray("commitLog");
        initial = doc.root.find("initialState");
    }
    if (!rows)
        return 0;

    recording::CommitLogFold fold(initial);
    std::vector<json::Value> snapshots; // copies must never see later rows
    std::vector<std::string> written;
    for (const json::Value &row : *rows) {
        const bool bundle = recording::isCommitBundle(row);
        const bool applied = fold.apply(row);
        TF_FUZZ_CHECK(bundle == applied);
        TF_FUZZ_CHECK(fold.state().isObject());
        if (!applied)
            continue;
        for (const json::Value &entry : *row.find("trace")) {
            if (const json::Value *path = entry.findString("path")) {
                const auto segments = recording::splitStatePath(path->asString());
                TF_FUZZ_CHECK(!segments.empty());
                (void)recording::readStatePath(fold.state(), segments);
            }
        }
        if (snapshots.size() < 8) {
            snapshots.push_back(fold.state());
            written.push_back(json::stringify(fold.state()));
        }
    }
    // Copy-on-write: a snapshot taken after row k still reads as it did then.
    for (std::size_t i = 0; i < snapshots.size(); ++i)
        TF_FUZZ_CHECK(json::stringify(snapshots[i]) == written[i]);
    (void)json::sortedKeyJson(fold.state());
    (void)fold.unknownVerbCount();
    return 0;
}
