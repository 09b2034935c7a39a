#include "commitlogconformance.h"
#include "vectorfile.h"

#include "core/io/mappedfile.h"
#include "core/json/parser.h"
#include "core/json/writer.h"
#include "core/recording/commitlogfold.h"
#include "core/recording/statejournal.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace tf::conformance {

namespace {

// Long values are cut for the report: the path already says where to look.
constexpr std::size_t kShownBytes = 200;

struct Difference
{
    std::string path;
    std::string expected;
    std::string got;
};

std::string shown(const json::Value *v)
{
    if (!v)
        return "(absent)";
    std::string s = json::stringify(*v);
    if (s.size() <= kShownBytes)
        return s;
    std::size_t cut = kShownBytes;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) // keep whole UTF-8 sequences
        --cut;
    return s.substr(0, cut) + "… (" + std::to_string(s.size()) + " bytes)";
}

std::string joined(const std::string &path, std::string_view step)
{
    return path.empty() ? std::string(step) : path + "/" + std::string(step);
}

// The first place where the two values differ under deepEqual's rules, walking `expected` in its own order.
std::optional<Difference> firstDifference(const json::Value *expected, const json::Value *got, const std::string &path)
{
    const auto here = [&] { return Difference{path.empty() ? "(root)" : path, shown(expected), shown(got)}; };
    if (!expected || !got)
        return expected == got ? std::nullopt : std::optional<Difference>(here());
    if (expected->type() != got->type())
        return here();
    if (expected->isArray()) {
        const std::size_t common = std::min(expected->size(), got->size());
        for (std::size_t i = 0; i < common; ++i)
            if (auto d = firstDifference(&expected->at(i), &got->at(i), joined(path, std::to_string(i))))
                return d;
        if (expected->size() != got->size()) {
            const std::string at = joined(path, std::to_string(common));
            return Difference{at, shown(common < expected->size() ? &expected->at(common) : nullptr),
                              shown(common < got->size() ? &got->at(common) : nullptr)};
        }
        return std::nullopt;
    }
    if (expected->isObject()) {
        for (const json::Member *m = expected->memberBegin(); m != expected->memberEnd(); ++m)
            if (auto d = firstDifference(&m->value, got->find(m->key), joined(path, m->key)))
                return d;
        for (const json::Member *m = got->memberBegin(); m != got->memberEnd(); ++m)
            if (!expected->find(m->key))
                return Difference{joined(path, m->key), shown(nullptr), shown(&m->value)};
        return std::nullopt;
    }
    return json::deepEqual(*expected, *got) ? std::nullopt : std::optional<Difference>(here());
}

std::string indexList(const std::vector<std::size_t> &indices)
{
    std::string out = "[";
    for (std::size_t i = 0; i < indices.size(); ++i)
        out += (i ? "," : "") + std::to_string(indices[i]);
    return out + "]";
}

std::string keyList(const json::Value &object)
{
    std::string out = "[";
    for (const json::Member *m = object.memberBegin(); m != object.memberEnd(); ++m)
        out += (m == object.memberBegin() ? "" : ",") + json::jsQuoted(m->key);
    return out + "]";
}

// Runs one case; returns the failure text, or nothing when it passes. The fold must give every expected state, and
// so must the StateJournal's rebuild of each row (what the loader serves per call), in the fold's member order.
std::optional<std::string> runCase(const json::Value &c, std::string_view text)
{
    const json::Value *log = c.findArray("commitLog");
    const json::Value *states = c.findArray("states");
    if (!log || !states)
        return std::string("the case has no commitLog or states array");
    if (log->size() != states->size())
        return "commitLog has " + std::to_string(log->size()) + " rows but states has " +
               std::to_string(states->size());

    std::vector<std::size_t> expectedSkipped;
    if (const json::Value *skipped = c.find("skipped")) {
        if (!skipped->isArray())
            return std::string("skipped is not an array");
        for (const json::Value &i : *skipped) {
            if (!i.isNumber() || i.asNumber() < 0)
                return std::string("skipped holds a value that is not an index");
            expectedSkipped.push_back(std::size_t(i.asNumber()));
        }
    }

    const json::Value *initial = c.find("initialState");
    const json::Value *initialState = initial && initial->isObject() ? initial : nullptr;
    recording::CommitLogFold fold(initialState);
    // Two journals: one whose rebuilds leave checkpoints as they go, one with every checkpoint made ahead (as a
    // window's loader does).
    recording::StateJournal journal(text, initialState), ahead(text, initialState);
    journal.setCheckpointInterval(2); // the vectors' chains are short: rebuilds start from checkpoints here too
    ahead.setCheckpointInterval(2);
    std::vector<std::size_t> skipped;
    std::vector<json::Value> folded; // the fold's own states, in its member order
    for (std::size_t i = 0; i < log->size(); ++i) {
        journal.apply(i, log->at(i));
        ahead.apply(i, log->at(i));
        if (!fold.apply(log->at(i)))
            skipped.push_back(i);
        if (auto d = firstDifference(&states->at(i), &fold.state(), {}))
            return "row " + std::to_string(i) + ": at " + d->path + "\n  expected: " + d->expected +
                   "\n  got:      " + d->got;
        folded.push_back(fold.state());
    }
    if (skipped != expectedSkipped)
        return "skipped rows: expected " + indexList(expectedSkipped) + ", got " + indexList(skipped);
    journal.finish();
    ahead.finish();
    ahead.buildCheckpoints();
    for (const auto &[rebuilder, how] : {std::pair{&journal, "rebuilt by the state journal"},
                                         std::pair{&ahead, "rebuilt from checkpoints made ahead"}}) {
        for (std::size_t i = 0; i < log->size(); ++i) {
            const json::Value rebuilt = rebuilder->stateBefore(i + 1);
            if (auto d = firstDifference(&states->at(i), &rebuilt, {}))
                return "row " + std::to_string(i) + " " + how + ": at " + d->path + "\n  expected: " + d->expected +
                       "\n  got:      " + d->got;
            if (keyList(rebuilt) != keyList(folded[i]))
                return "row " + std::to_string(i) + " " + how + ": member order " + keyList(rebuilt) + ", the fold's " +
                       keyList(folded[i]);
        }
    }
    // Cursors read on from where they are, or rebuild: in order (a whole-run pass) and stepping, jumping back and
    // jumping further than they read on (a window), they must give the rebuilt states.
    recording::StateJournal::Cursor inOrder(journal);
    recording::StateJournal::Cursor stepping(journal, 400); // bytes: some steps read on, others rebuild
    const std::size_t n = log->size();
    for (std::size_t i = 0; i <= n; ++i) {
        const std::size_t jump = (i * 7 + 3) % (n + 1);
        for (auto [cursor, row] : {std::pair{&inOrder, i}, std::pair{&stepping, i}, std::pair{&stepping, jump},
                                   std::pair{&stepping, std::min(jump + 1, n)}}) {
            const json::Value read = cursor->stateBefore(row);
            const json::Value rebuilt = journal.stateBefore(row);
            if (auto d = firstDifference(&rebuilt, &read, {}))
                return "state before row " + std::to_string(row) + " read by a journal cursor: at " + d->path +
                       "\n  rebuilt: " + d->expected + "\n  read:    " + d->got;
        }
    }
    return std::nullopt;
}

} // namespace

Summary runCommitLogVectors(const std::string &path, std::ostream &out)
{
    return runVectorFile(path, out, [&](const json::Value &c, std::string_view line, std::size_t lineNo) {
        const std::optional<std::string> failure = runCase(c, line);
        if (failure) {
            const json::Value *name = c.findString("name");
            out << "FAIL line " << lineNo << " " << (name ? std::string(name->asString()) : "(unnamed)") << ": "
                << *failure << '\n';
        }
        return !failure;
    });
}

} // namespace tf::conformance
