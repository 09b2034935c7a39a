#include "linediff.h"

#include <algorithm>
#include <vector>

namespace tf::text {

std::vector<DiffLine> diffLines(const std::vector<std::string> &before, const std::vector<std::string> &after)
{
    const int n = int(before.size()), m = int(after.size());
    // Common head and tail first: pieces usually differ in a few lines in the middle.
    int head = 0;
    while (head < n && head < m && before[std::size_t(head)] == after[std::size_t(head)])
        ++head;
    int tail = 0;
    while (tail < n - head && tail < m - head && before[std::size_t(n - 1 - tail)] == after[std::size_t(m - 1 - tail)])
        ++tail;

    const int a0 = head, a1 = n - tail, b0 = head, b1 = m - tail;
    const int N = a1 - a0, M = b1 - b0;
    const int max = N + M;

    // Myers: V[k] is the furthest x on diagonal k; keep a copy per d to walk back.
    std::vector<std::vector<int>> trace;
    // k runs over [-d-1, d+1] at step d (the reads of k±1), so the vector spans 2·max+3 diagonals.
    std::vector<int> v(std::size_t(2 * max + 3), 0);
    const int offset = max + 1;
    int found = -1;
    for (int d = 0; d <= max && found < 0; ++d) {
        for (int k = -d; k <= d; k += 2) {
            int x;
            if (k == -d || (k != d && v[std::size_t(offset + k - 1)] < v[std::size_t(offset + k + 1)]))
                x = v[std::size_t(offset + k + 1)];
            else
                x = v[std::size_t(offset + k - 1)] + 1;
            int y = x - k;
            while (x < N && y < M && before[std::size_t(a0 + x)] == after[std::size_t(b0 + y)]) {
                ++x;
                ++y;
            }
            v[std::size_t(offset + k)] = x;
            if (x >= N && y >= M) {
                found = d;
                break;
            }
        }
        trace.push_back(v);
    }

    std::vector<DiffLine> middle; // built backwards, reversed at the end
    int x = N, y = M;
    for (int d = found; d > 0; --d) {
        const std::vector<int> &pv = trace[std::size_t(d - 1)];
        const int k = x - y;
        int prevK;
        if (k == -d || (k != d && pv[std::size_t(offset + k - 1)] < pv[std::size_t(offset + k + 1)]))
            prevK = k + 1;
        else
            prevK = k - 1;
        const int prevX = pv[std::size_t(offset + prevK)];
        const int prevY = prevX - prevK;
        while (x > prevX && y > prevY) {
            --x;
            --y;
            middle.push_back({DiffLine::Op::Same, a0 + x, b0 + y, before[std::size_t(a0 + x)]});
        }
        if (x == prevX) {
            --y;
            middle.push_back({DiffLine::Op::Added, -1, b0 + y, after[std::size_t(b0 + y)]});
        } else {
            --x;
            middle.push_back({DiffLine::Op::Removed, a0 + x, -1, before[std::size_t(a0 + x)]});
        }
    }
    while (x > 0 && y > 0) {
        --x;
        --y;
        middle.push_back({DiffLine::Op::Same, a0 + x, b0 + y, before[std::size_t(a0 + x)]});
    }

    std::vector<DiffLine> out;
    out.reserve(std::size_t(head) + middle.size() + std::size_t(tail));
    for (int i = 0; i < head; ++i)
        out.push_back({DiffLine::Op::Same, i, i, before[std::size_t(i)]});
    out.insert(out.end(), middle.rbegin(), middle.rend());
    for (int i = 0; i < tail; ++i)
        out.push_back({DiffLine::Op::Same, a1 + i, b1 + i, before[std::size_t(a1 + i)]});
    return out;
}

std::vector<std::string> split(std::string_view text, char separator)
{
    std::vector<std::string> out;
    std::size_t from = 0;
    for (std::size_t at = text.find(separator); at != std::string_view::npos; at = text.find(separator, from)) {
        out.emplace_back(text.substr(from, at - from));
        from = at + 1;
    }
    out.emplace_back(text.substr(from));
    return out;
}

DiffStats diffStats(const std::vector<DiffLine> &diff)
{
    DiffStats s;
    for (const DiffLine &l : diff) {
        switch (l.op) {
        case DiffLine::Op::Same:
            ++s.same;
            break;
        case DiffLine::Op::Added:
            ++s.added;
            break;
        case DiffLine::Op::Removed:
            ++s.removed;
            break;
        }
    }
    return s;
}

std::vector<DiffRow> diffRows(const std::vector<DiffLine> &diff, std::size_t context,
                              const std::set<std::size_t> &unfolded)
{
    std::vector<DiffRow> rows;
    const std::size_t n = diff.size();
    for (std::size_t i = 0; i < n;) {
        if (diff[i].op != DiffLine::Op::Same) {
            rows.push_back({i, 1, false});
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < n && diff[end].op == DiffLine::Op::Same)
            ++end;
        // The run [i, end): its first `context` lines follow a change, its last `context` lines lead to one.
        const std::size_t shownBefore = i > 0 ? std::min(context, end - i) : 0;
        const std::size_t shownAfter = end < n ? std::min(context, end - i - shownBefore) : 0;
        const std::size_t hiddenFirst = i + shownBefore, hiddenEnd = end - shownAfter;
        const bool fold = hiddenEnd - hiddenFirst >= 2 && !unfolded.contains(hiddenFirst);
        for (std::size_t k = i; k < end;) {
            if (fold && k == hiddenFirst) {
                rows.push_back({k, hiddenEnd - hiddenFirst, true});
                k = hiddenEnd;
            } else {
                rows.push_back({k, 1, false});
                ++k;
            }
        }
        i = end;
    }
    return rows;
}

} // namespace tf::text
