#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace tf::ui {

// A line diff (longest common subsequence, Myers' O(ND) algorithm), for the "Since previous call" pane.
struct DiffLine
{
    enum class Op
    {
        Same,
        Added,
        Removed,
    };
    Op op = Op::Same;
    int oldLine = -1; // 0-based line in the old text, -1 for Added
    int newLine = -1; // 0-based line in the new text, -1 for Removed
    QString text;
};

QList<DiffLine> diffLines(const QStringList &before, const QStringList &after);

struct DiffStats
{
    int added = 0;
    int removed = 0;
    int same = 0;
};
DiffStats diffStats(const QList<DiffLine> &diff);

} // namespace tf::ui
