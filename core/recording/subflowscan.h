#pragma once

#include "core/json/value.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tf::recording::detail {

// One execution of a subflow mount, keyed "<mount>#<n>" in subflowResults (spec/recording.md §3.6).
struct SubflowExecution
{
    std::string key;
    std::string mount;                 // the part before '#', e.g. "sf-cache"
    long long n = 0;                   // the execution index after '#'
    const json::Value *tree = nullptr; // the subflow's treeContext (object) or nullptr
};

// Only "#"-keys count: a key without '#' aliases the latest execution of its mount.
std::vector<SubflowExecution> subflowExecutions(const json::Value &subflowResults);
bool mountIs(std::string_view mount, std::string_view stageId); // last '/'-segment equals stageId

// The state after folding a subflow's own log (from the tree's initialState, else {}), and after its first bundle
// (the input mapping, which seeds `iteration`).
struct FoldedSubflow
{
    json::Value finalState = json::Value::object();
    json::Value inputState = json::Value::object();
    std::optional<int> iteration;
};
FoldedSubflow foldSubflow(const SubflowExecution &execution);

// "apply-markers" / "no-markers" from the branch flowMessages of an sf-cache tree.
std::optional<std::string> cacheGateBranch(const json::Value &treeContext);

} // namespace tf::recording::detail
