#include "callfingerprint.h"

#include "ledgerdiff.h"

#include "core/json/writer.h"
#include "core/recording/callview.h"

#include <algorithm>
#include <functional>
#include <map>
#include <mutex>
#include <string_view>
#include <thread>

namespace tf::compare {

namespace {

std::uint64_t digestOf(std::string_view bytes)
{
    return std::hash<std::string_view>{}(bytes);
}

CallFingerprint fingerprintOf(const recording::CallView &view, ServedPartReader &reader)
{
    CallFingerprint f;
    f.turn = view.turn;
    f.signature = callSignature(view);
    f.served = reader.read(view);
    if (view.response)
        f.responseText = digestOf(view.response->text);
    f.toolCalls = toolCallsDigest(view);
    f.toolResults = toolResultDigests(view);
    if (view.ledgerOnRecord) {
        std::string keys;
        for (const findings::LedgerRowView &row : ledgerRowsAt(view)) {
            keys += ledgerRowKey(row);
            keys += '\x1E';
        }
        f.ledger = digestOf(keys);
    }
    f.verdict = view.cache.verdict;
    return f;
}

} // namespace

std::vector<ToolResultDigest> toolResultDigests(const recording::CallView &view)
{
    std::vector<ToolResultDigest> out;
    for (const recording::ToolRun &t : view.toolRuns) {
        ToolResultDigest d;
        d.name = t.name;
        d.args = json::stringify(t.args);
        if (t.result)
            d.result = digestOf(*t.result);
        d.error = t.error;
        out.push_back(std::move(d));
    }
    return out;
}

std::uint64_t toolCallsDigest(const recording::CallView &view)
{
    std::string calls;
    if (view.response)
        for (const recording::ToolCallRequest &c : view.response->toolCalls) {
            calls += c.name;
            calls += '\x1F';
            calls += json::stringify(c.args);
            calls += '\x1E';
        }
    return digestOf(calls);
}

std::vector<std::pair<std::size_t, std::size_t>> matchToolRuns(const std::vector<ToolResultDigest> &a,
                                                               const std::vector<ToolResultDigest> &b)
{
    std::vector<std::pair<std::size_t, std::size_t>> out;
    std::vector<bool> used(b.size(), false);
    for (std::size_t i = 0; i < a.size(); ++i)
        for (std::size_t j = 0; j < b.size(); ++j)
            if (!used[j] && b[j].name == a[i].name && b[j].args == a[i].args) {
                used[j] = true;
                out.emplace_back(i, j);
                break;
            }
    return out;
}

bool sameResult(const ToolResultDigest &a, const ToolResultDigest &b)
{
    return a.result == b.result && a.error == b.error;
}

std::vector<CallFingerprint> fingerprintCalls(const recording::Run &run, std::size_t workers)
{
    std::vector<CallFingerprint> out(run.calls.size());
    if (workers == 0)
        workers = recording::wholeRunWorkers();
    // One reader per thread: its memo is not shared between threads.
    std::mutex mutex;
    std::map<std::thread::id, ServedPartReader> readers;
    recording::visitCallViews(
        run, workers, [&](std::size_t i, const recording::CallView &view, const recording::CallView *) {
            ServedPartReader *reader = nullptr;
            {
                const std::lock_guard lock(mutex);
                reader =
                    &readers.try_emplace(std::this_thread::get_id(), ServedPartReader::Keep::DigestsOnly).first->second;
            }
            out[i] = fingerprintOf(view, *reader);
            return true;
        });
    return out;
}

} // namespace tf::compare
