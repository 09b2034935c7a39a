#include "subflowscan.h"

#include "commitlogfold.h"
#include "numberconv.h"

#include <algorithm>
#include <charconv>

namespace tf::recording::detail {

std::vector<SubflowExecution> subflowExecutions(const json::Value &subflowResults)
{
    std::vector<SubflowExecution> out;
    for (const json::Member *m = subflowResults.memberBegin(); m != subflowResults.memberEnd(); ++m) {
        const std::string_view key = m->key;
        const std::size_t hash = key.rfind('#');
        if (hash == std::string_view::npos)
            continue;
        SubflowExecution e;
        e.key = key;
        e.mount = key.substr(0, hash);
        const char *first = key.data() + hash + 1;
        const char *last = key.data() + key.size();
        if (std::from_chars(first, last, e.n).ptr != last)
            continue;
        e.tree = m->value.findObject("treeContext");
        out.push_back(std::move(e));
    }
    std::stable_sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.n < b.n; });
    return out;
}

bool mountIs(std::string_view mount, std::string_view stageId)
{
    const std::size_t slash = mount.rfind('/');
    return (slash == std::string_view::npos ? mount : mount.substr(slash + 1)) == stageId;
}

FoldedSubflow foldSubflow(const SubflowExecution &execution)
{
    FoldedSubflow out;
    if (!execution.tree)
        return out;
    CommitLogFold fold(execution.tree->findObject("initialState"));
    if (const json::Value *history = execution.tree->findArray("history")) {
        for (std::size_t i = 0; i < history->size(); ++i) {
            fold.apply(history->at(i));
            if (i == 0) {
                out.inputState = fold.state();
                if (const json::Value *it = out.inputState.findNumber("iteration"))
                    out.iteration = toInt(it->asNumber());
            }
        }
    }
    out.finalState = fold.state();
    return out;
}

namespace {

void findBranch(const json::Value &node, std::optional<std::string> &out, int depth)
{
    if (out || depth > 64)
        return;
    if (node.isObject()) {
        if (const json::Value *messages = node.findArray("flowMessages")) {
            for (const json::Value &m : *messages) {
                const json::Value *type = m.findString("type");
                const json::Value *description = m.findString("description");
                if (!type || type->asString() != "branch" || !description)
                    continue;
                const std::string_view d = description->asString();
                if (d.find("'apply-markers'") != std::string_view::npos)
                    out = "apply-markers";
                else if (d.find("'no-markers'") != std::string_view::npos)
                    out = "no-markers";
                if (out)
                    return;
            }
        }
        for (const json::Member *m = node.memberBegin(); m != node.memberEnd(); ++m)
            findBranch(m->value, out, depth + 1);
    } else if (node.isArray()) {
        for (const json::Value &item : node)
            findBranch(item, out, depth + 1);
    }
}

} // namespace

std::optional<std::string> cacheGateBranch(const json::Value &treeContext)
{
    std::optional<std::string> out;
    if (const json::Value *stages = treeContext.find("stageContexts"))
        findBranch(*stages, out, 0);
    return out;
}

} // namespace tf::recording::detail
