#include "callalignment.h"

#include "core/text/linediff.h"

#include <algorithm>

namespace tf::compare {

namespace {

// The calls of one turn: indices into the run's calls and their signatures.
struct TurnCalls
{
    std::vector<std::size_t> calls;
    std::vector<std::string> signatures;
};

std::vector<TurnCalls> byTurn(const std::vector<AlignmentKey> &keys)
{
    std::vector<TurnCalls> turns;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (turns.size() <= keys[i].turn)
            turns.resize(keys[i].turn + 1);
        turns[keys[i].turn].calls.push_back(i);
        turns[keys[i].turn].signatures.push_back(keys[i].signature);
    }
    return turns;
}

void alignTurn(const TurnCalls &a, const TurnCalls &b, std::vector<AlignedPair> &out)
{
    const std::vector<text::DiffLine> diff = text::diffLines(a.signatures, b.signatures);
    std::vector<std::size_t> onlyA, onlyB;
    const auto flush = [&] {
        if (onlyA.size() == onlyB.size()) {
            for (std::size_t k = 0; k < onlyA.size(); ++k)
                out.push_back({a.calls[onlyA[k]], b.calls[onlyB[k]]});
        } else {
            for (std::size_t i : onlyA)
                out.push_back({a.calls[i], std::nullopt});
            for (std::size_t j : onlyB)
                out.push_back({std::nullopt, b.calls[j]});
        }
        onlyA.clear();
        onlyB.clear();
    };
    for (const text::DiffLine &line : diff) {
        switch (line.op) {
        case text::DiffLine::Op::Same:
            flush();
            out.push_back({a.calls[std::size_t(line.oldLine)], b.calls[std::size_t(line.newLine)]});
            break;
        case text::DiffLine::Op::Removed:
            onlyA.push_back(std::size_t(line.oldLine));
            break;
        case text::DiffLine::Op::Added:
            onlyB.push_back(std::size_t(line.newLine));
            break;
        }
    }
    flush();
}

} // namespace

std::vector<AlignedPair> alignCalls(const std::vector<AlignmentKey> &a, const std::vector<AlignmentKey> &b)
{
    const std::vector<TurnCalls> turnsA = byTurn(a), turnsB = byTurn(b);
    std::vector<AlignedPair> out;
    out.reserve(std::max(a.size(), b.size()));
    const TurnCalls none;
    for (std::size_t t = 0; t < std::max(turnsA.size(), turnsB.size()); ++t)
        alignTurn(t < turnsA.size() ? turnsA[t] : none, t < turnsB.size() ? turnsB[t] : none, out);
    return out;
}

} // namespace tf::compare
