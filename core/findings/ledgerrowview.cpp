#include "ledgerrowview.h"

#include "core/json/jsnumber.h"
#include "core/json/writer.h"
#include "core/text/linediff.h"

#include <algorithm>

namespace tf::findings {

namespace {

std::string str(const json::Value &v, std::string_view key)
{
    const json::Value *s = v.findString(key);
    return s ? s->decodedString() : std::string();
}

std::string joined(const std::vector<std::string> &parts, std::string_view sep)
{
    std::string out;
    for (const std::string &p : parts)
        out += (out.empty() ? "" : std::string(sep)) + p;
    return out;
}

std::string assertionText(const json::Value &a)
{
    std::string subject;
    if (const json::Value *s = a.findObject("subject"))
        subject = str(*s, "kind") + "/" + str(*s, "id");
    const json::Value *value = a.find("value");
    std::string out =
        subject + " \u00B7 " + str(a, "predicate") + " = " + (value ? json::stringify(*value) : "undefined");
    if (const json::Value *stratum = a.findString("stratum"); stratum && stratum->asString() == "quoted")
        out += " (quoted)";
    return out;
}

std::string coverage(const json::Value *items)
{
    std::vector<std::string> out;
    if (items && items->isArray())
        for (const json::Value &i : *items) {
            std::string what = str(i, "what");
            if (const std::string why = str(i, "why"); !why.empty())
                what += " \u2014 " + why;
            out.push_back(what);
        }
    return joined(out, "; ");
}

// The ids a list of {toolCallId, ...} objects names, and the same with a suffix per item.
std::vector<std::string> ids(const json::Value *list)
{
    std::vector<std::string> out;
    if (list && list->isArray())
        for (const json::Value &x : *list)
            out.push_back(str(x, "toolCallId"));
    return out;
}

void fill(LedgerRowView &f, const json::Value &row)
{
    f.kindName = str(row, "kind");
    f.resultId = str(row, "toolCallId");
    f.tool = str(row, "toolName");
    if (const json::Value *it = row.findNumber("iteration"))
        f.iteration = it->asNumber();
    if (const json::Value *on = row.find("declaredOn")) {
        if (on->isString())
            f.declaredOn = on->decodedString();
        else if (on->isObject())
            f.declaredOn = "with " + str(*on, "toolCallId");
    }
    if (const json::Value *u = row.find("unknownId"); u && u->isBool() && u->asBool())
        f.unknownId = true;
    std::vector<std::string> &detail = f.detail;
    switch (f.kind) {
    case RowKind::Standing:
        f.standing = str(row, "standing");
        if (std::string line = str(row, "line"); !line.empty())
            detail.push_back(std::move(line));
        if (const json::Value *as = row.findArray("assertions"))
            for (const json::Value &a : *as)
                detail.push_back(assertionText(a));
        if (const std::string s = str(row, "settles"); !s.empty())
            detail.push_back("settles: " + s);
        break;
    case RowKind::Basis: {
        f.standing = "basis";
        std::string basis = str(row, "basis");
        if (const std::string expect = str(row, "expect"); !expect.empty())
            basis += ", expects " + expect;
        if (const std::string p = str(row, "proposition"); !p.empty())
            detail.push_back("tests: " + p);
        detail.push_back(basis);
        if (const std::string p = str(row, "predicts"); !p.empty())
            detail.push_back("predicts: " + p);
        break;
    }
    case RowKind::Contingent: {
        f.standing = "contingent";
        detail.push_back(str(row, "value"));
        std::vector<std::string> carriers;
        const json::Value *cs = row.findArray("carriers");
        if (cs)
            for (const json::Value &c : *cs)
                carriers.push_back(str(c, "toolCallId") + " (" + str(c, "standing") + ")");
        if (!carriers.empty())
            detail.push_back("from " + joined(carriers, ", "));
        if (f.resultId.empty())
            f.resultId = joined(ids(cs), ", ");
        break;
    }
    case RowKind::Conflict: {
        f.standing = "conflict";
        // The key is kind NUL id NUL predicate NUL epoch (spec/findings.md §2.1), shown as an assertion's subject.
        const std::vector<std::string> parts = text::split(str(row, "key"), '\0');
        std::string shown = parts.size() == 4 ? parts[0] + "/" + parts[1] + " \u00B7 " + parts[2] +
                                                    (parts[3].empty() ? "" : " \u00B7 epoch " + parts[3])
                                              : joined(parts, " \u00B7 ");
        detail.push_back(std::move(shown));
        const std::vector<std::string> witnesses = ids(row.findArray("witnesses"));
        if (!witnesses.empty())
            detail.push_back("witnesses: " + joined(witnesses, ", "));
        if (f.resultId.empty())
            f.resultId = joined(witnesses, ", ");
        break;
    }
    case RowKind::Judgment:
        f.standing = "judge: " + str(row, "standing");
        if (const json::Value *c = row.findNumber("confidence"))
            detail.push_back("confidence " + json::stringify(*c));
        if (std::string against = str(row, "against"); !against.empty())
            detail.push_back(std::move(against));
        break;
    case RowKind::JudgmentError:
        f.standing = "judge error";
        detail.push_back(str(row, "message"));
        break;
    case RowKind::UnsettledByAbsence:
        f.standing = "unsettled";
        if (const std::string s = coverage(row.find("notChecked")); !s.empty())
            detail.push_back("not checked: " + s);
        if (const std::string s = coverage(row.find("cannotCover")); !s.empty())
            detail.push_back("cannot cover: " + s);
        if (const std::string s = str(row, "tryInstead"); !s.empty())
            detail.push_back("try instead: " + s);
        break;
    case RowKind::Unknown:
        // A kind this version does not fold (newer releases add argument, period, clock, ...): listed with every
        // field it carries, never folded into the piece.
        f.standing = "\u201C" + f.kindName +
                     (isNewerRowKind(f.kindName) ? "\u201D (newer kind, not folded)" : "\u201D (ignored)");
        for (const json::Member *m = row.memberBegin(); m != row.memberEnd(); ++m) {
            const std::string_view key = m->key;
            if (key == "kind" || key == "toolCallId" || key == "toolName" || key == "iteration" || key == "declaredOn")
                continue;
            detail.push_back(std::string(key) + ": " +
                             (m->value.isString() ? m->value.decodedString() : json::stringify(m->value)));
        }
        break;
    }
}

} // namespace

std::string LedgerRowView::detailText() const
{
    return joined(detail, "; ");
}

std::string LedgerRowView::iterationText() const
{
    return iteration ? json::jsNumberToString(*iteration) : std::string();
}

std::vector<unsigned> ledgerFoldMarks(const json::Value &ledger, const LedgerFold &fold,
                                      const std::vector<RowIssue> &issues)
{
    std::vector<unsigned> out;
    if (!ledger.isArray())
        return out;
    // Each row's marks from the fold's lists, by row index (a 3,000-row ledger: a flag per row, not a hash set).
    const std::size_t rows = ledger.size();
    enum : unsigned char
    {
        Current = 1,
        InConflict = 2,
        Unsettled = 4,
        Malformed = 8
    };
    std::vector<unsigned char> flags(rows, 0);
    const auto flag = [&flags, rows](std::size_t row, unsigned char f) {
        if (row < rows)
            flags[row] |= f;
    };
    for (const auto &e : fold.standingOf.entries())
        flag(e.rowIndex, Current);
    for (const Conflict &c : fold.conflicts)
        for (const AssertionRef &w : c.witnesses)
            flag(w.rowIndex, InConflict);
    for (const UnsettledEntry &u : fold.unsettled)
        flag(u.rowIndex, Unsettled);
    for (const RowIssue &i : issues)
        if (i.index != kLedgerIssue)
            flag(i.index, Malformed);
    out.resize(rows);
    for (std::size_t i = 0; i < rows; ++i) {
        const RowKind kind = rowKindOf(ledger.at(i));
        unsigned &m = out[i];
        if (kind == RowKind::Standing && !(flags[i] & Current))
            m |= MarkSuperseded;
        if (kind == RowKind::Conflict || (flags[i] & InConflict))
            m |= MarkConflict;
        if (kind == RowKind::Contingent)
            m |= MarkContingent;
        if (kind == RowKind::UnsettledByAbsence && (flags[i] & Unsettled))
            m |= MarkUnsettled;
        if (kind == RowKind::Unknown)
            m |= MarkUnknownKind;
        if (flags[i] & Malformed)
            m |= MarkMalformed;
    }
    return out;
}

LedgerMarkCounts countLedgerMarks(const std::vector<unsigned> &marks)
{
    LedgerMarkCounts c;
    for (const unsigned m : marks)
        for (unsigned b = 0; b < kLedgerMarkCount; ++b)
            c.byBit[b] += (m >> b) & 1u;
    return c;
}

std::size_t LedgerMarkCounts::of(LedgerMark mark) const
{
    for (unsigned b = 0; b < kLedgerMarkCount; ++b)
        if (mark == 1u << b)
            return byBit[b];
    return 0;
}

std::vector<LedgerRowView> blankLedgerRowViews(const json::Value &ledger)
{
    return std::vector<LedgerRowView>(ledger.isArray() ? ledger.size() : 0);
}

void fillLedgerRowViews(const json::Value &ledger, std::vector<LedgerRowView> &views, std::size_t from, std::size_t to)
{
    to = std::min({to, views.size(), ledger.size()});
    for (std::size_t i = from; i < to; ++i) {
        const json::Value &row = ledger.at(i);
        LedgerRowView &v = views[i];
        v.index = i;
        v.kind = rowKindOf(row);
        if (row.isObject())
            fill(v, row);
        else
            v.detail.push_back(json::stringify(row));
    }
}

void markLedgerRowViews(std::vector<LedgerRowView> &views, const json::Value &ledger, const LedgerFold &fold,
                        const std::vector<RowIssue> &issues, std::size_t rowsAtPrevious)
{
    const std::vector<unsigned> marks = ledgerFoldMarks(ledger, fold, issues);
    const std::size_t rows = std::min(views.size(), marks.size());
    for (std::size_t i = 0; i < rows; ++i) {
        views[i].marks = marks[i];
        // At the first call every row is new: rowsAtPrevious is 0.
        if (i >= rowsAtPrevious)
            views[i].marks |= MarkNew;
    }
    for (const RowIssue &i : issues)
        if (i.index != kLedgerIssue && i.index < rows) {
            std::string &s = views[i.index].issue;
            s += (s.empty() ? "" : "; ") + i.reason;
        }
}

std::vector<LedgerRowView> ledgerRowViews(const json::Value &ledger, const LedgerFold &fold,
                                          const std::vector<RowIssue> &issues, std::size_t rowsAtPrevious)
{
    std::vector<LedgerRowView> out = blankLedgerRowViews(ledger);
    fillLedgerRowViews(ledger, out, 0, out.size());
    markLedgerRowViews(out, ledger, fold, issues, rowsAtPrevious);
    return out;
}

std::vector<std::string> ledgerMarkNames(unsigned marks)
{
    std::vector<std::string> out;
    for (const auto &[mark, name] :
         {std::pair{MarkNew, "new"}, std::pair{MarkConflict, "conflict"}, std::pair{MarkContingent, "contingent"},
          std::pair{MarkUnsettled, "unsettled"}, std::pair{MarkSuperseded, "superseded"},
          std::pair{MarkMalformed, "malformed"}, std::pair{MarkUnknownKind, "not folded"}})
        if (marks & mark)
            out.emplace_back(name);
    return out;
}

std::vector<std::string> ledgerMarkExplanations(unsigned marks, const std::string &issue)
{
    std::vector<std::string> why;
    if (marks & MarkNew)
        why.emplace_back("Filed at this call (since the previous call).");
    if (marks & MarkSuperseded)
        why.emplace_back("Superseded: a later standing on the same result replaced it.");
    if (marks & MarkConflict)
        why.emplace_back("Conflict: its assertion disagrees with another current fact.");
    if (marks & MarkContingent)
        why.emplace_back("Contingent: a value used that came only from results the model set aside.");
    if (marks & MarkUnsettled)
        why.emplace_back("Unsettled by absence: the ruled-out standing rests only on an absence.");
    if (marks & MarkUnknownKind)
        why.emplace_back("A kind this version does not fold: listed with its fields, kept out of the piece.");
    if (marks & MarkMalformed)
        why.push_back("Malformed: " + issue);
    return why;
}

} // namespace tf::findings
