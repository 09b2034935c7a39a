#include "ledgerdiff.h"

#include "core/findings/ledgerfold.h"

#include <map>

namespace tf::compare {

std::vector<findings::LedgerRowView> ledgerRowsAt(const recording::CallView &view)
{
    if (!view.ledgerOnRecord)
        return {};
    const findings::LedgerFold fold = findings::foldLedger(view.ledger);
    return findings::ledgerRowViews(view.ledger, fold, view.ledgerIssues, view.ledgerRowsAtPrevious);
}

std::string ledgerRowKey(const findings::LedgerRowView &row)
{
    std::string key = row.kindName;
    for (const std::string *field : {&row.tool, &row.standing}) {
        key += '\x1F';
        key += *field;
    }
    key += '\x1F';
    key += row.detailText();
    return key;
}

std::string ledgerRowLine(const findings::LedgerRowView &row)
{
    std::string line = row.kindName;
    if (!row.tool.empty())
        line += " " + row.tool;
    if (!row.standing.empty())
        line += " (" + row.standing + ")";
    const std::string detail = row.detailText();
    if (!detail.empty())
        line += ": " + detail;
    return line;
}

LedgerDifference diffLedgers(const std::vector<findings::LedgerRowView> &a,
                             const std::vector<findings::LedgerRowView> &b)
{
    // Each row of one side cancels one row of the other with the same key; what is left differs.
    std::map<std::string, int> balance;
    for (const findings::LedgerRowView &row : a)
        ++balance[ledgerRowKey(row)];
    for (const findings::LedgerRowView &row : b)
        --balance[ledgerRowKey(row)];
    LedgerDifference out;
    std::map<std::string, int> leftA = balance, leftB = balance;
    for (const findings::LedgerRowView &row : a)
        if (int &n = leftA[ledgerRowKey(row)]; n > 0) {
            out.onlyInA.push_back(row);
            --n;
        }
    for (const findings::LedgerRowView &row : b)
        if (int &n = leftB[ledgerRowKey(row)]; n < 0) {
            out.onlyInB.push_back(row);
            ++n;
        }
    return out;
}

} // namespace tf::compare
