#include "diffreport.h"

#include "inspectreport.h"

#include "core/text/utf.h"

#include <algorithm>
#include <sstream>

namespace tf::report {

namespace {

using json::Value;

Value callNumber(const std::optional<std::size_t> &ordinal)
{
    return ordinal ? Value::number(double(*ordinal + 1)) : Value::null();
}

Value optString(const std::optional<std::string> &s)
{
    return s ? Value::string(*s) : Value::null();
}

Value runJson(const recording::Run &run)
{
    Value o = Value::object();
    o.set("file", Value::string(run.path));
    o.set("calls", Value::number(double(run.calls.size())));
    return o;
}

std::string callLabel(const std::optional<std::size_t> &ordinal)
{
    return ordinal ? std::to_string(*ordinal + 1) : std::string("-");
}

// The text around UTF-16 unit `at`, on one printable line.
std::string around(std::string_view wtf8, std::size_t at)
{
    return text::printableLine(text::aroundUnit(wtf8, at, 30, 50), 90);
}

std::string listed(const std::vector<std::string> &names, std::size_t from, std::size_t most)
{
    std::string out;
    for (std::size_t i = from; i < names.size() && i < from + most; ++i)
        out += (out.empty() ? "" : ", ") + text::printableLine(names[i], 80);
    if (names.size() > from + most)
        out += ", +" + std::to_string(names.size() - from - most) + " more";
    return out;
}

std::string rowLine(const findings::LedgerRowView &row)
{
    return text::printableLine(compare::ledgerRowLine(row), 110);
}

std::string pairLines(const compare::PairDiff &pair)
{
    std::ostringstream out;
    if (!pair.notCompared.empty())
        out << "on record in one run only (not compared): " << listed(pair.notCompared, 0, 8) << '\n';
    if (pair.served.size() > 1) {
        std::vector<std::string> names;
        for (const compare::PartDifference &d : pair.served)
            names.push_back(d.name);
        out << "then served differently: " << listed(names, 1, 12) << '\n';
    }
    if (pair.responseOnRecordA != pair.responseOnRecordB)
        out << "response: on record in " << (pair.responseOnRecordA ? "A" : "B") << " only\n";
    else if (pair.responseTextOffset)
        out << "response text differs at UTF-16 offset " << *pair.responseTextOffset
            << "\n  A: " << around(pair.responseTextA, *pair.responseTextOffset)
            << "\n  B: " << around(pair.responseTextB, *pair.responseTextOffset) << '\n';
    else
        out << "response text: same\n";
    if (!pair.toolCallsSame)
        out << "tool calls: A " << (pair.toolCallsA.empty() ? "none" : listed(pair.toolCallsA, 0, 4)) << "; B "
            << (pair.toolCallsB.empty() ? "none" : listed(pair.toolCallsB, 0, 4)) << '\n';
    for (const compare::ToolResultDifference &r : pair.toolResults) {
        out << "tool result " << text::printableLine(r.name, 40) << ' ' << text::printableLine(r.args, 60);
        if (r.utf16Offset)
            out << " differs at UTF-16 offset " << *r.utf16Offset << "\n  A: " << around(*r.a, *r.utf16Offset)
                << "\n  B: " << around(*r.b, *r.utf16Offset) << '\n';
        else
            out << ": on record in " << (r.a ? "A" : r.b ? "B" : "neither") << " only\n";
    }
    for (const auto &[side, rows] : {std::pair{"A", &pair.ledger.onlyInA}, std::pair{"B", &pair.ledger.onlyInB}})
        for (std::size_t i = 0; i < rows->size() && i < 8; ++i)
            out << "ledger row only in " << side << ": " << rowLine((*rows)[i]) << '\n';
    const text::DiffStats piece = text::diffStats(pair.pieceLines);
    if (pair.pieceOnRecordA != pair.pieceOnRecordB)
        out << "findings piece: in " << (pair.pieceOnRecordA ? "A" : "B") << " only\n";
    else if (piece.added || piece.removed) {
        out << "findings piece: " << piece.removed << " line(s) only in A, " << piece.added << " only in B\n";
        std::size_t shown = 0;
        for (const text::DiffLine &l : pair.pieceLines)
            if (l.op != text::DiffLine::Op::Same && shown++ < 8)
                out << "  " << (l.op == text::DiffLine::Op::Removed ? "A " : "B ") << text::printableLine(l.text)
                    << '\n';
    }
    if (pair.verdictA != pair.verdictB)
        out << "cache verdict: A " << recording::cacheVerdictId(pair.verdictA) << ", B "
            << recording::cacheVerdictId(pair.verdictB) << '\n';
    return out.str();
}

} // namespace

std::string pairText(const compare::PairDiff &pair)
{
    return pairLines(pair);
}

json::Value diffJson(const recording::Run &a, const recording::Run &b, const compare::RunDiff &diff)
{
    Value doc = Value::object();
    doc.set("schema", Value::number(1));
    doc.set("a", runJson(a));
    doc.set("b", runJson(b));
    Value aligned = Value::array();
    for (const compare::AlignedCall &c : diff.aligned) {
        Value o = Value::object();
        o.set("a", callNumber(c.a));
        o.set("b", callNumber(c.b));
        o.set("same", Value::boolean(c.same));
        Value parts = Value::array();
        for (const std::string &p : c.parts)
            parts.push_back(Value::string(p));
        o.set("parts", parts);
        aligned.push_back(o);
    }
    doc.set("aligned", aligned);
    if (diff.firstDivergence) {
        const compare::Divergence &d = *diff.firstDivergence;
        Value o = Value::object();
        o.set("a", callNumber(d.a));
        o.set("b", callNumber(d.b));
        o.set("part", optString(d.part));
        o.set("utf16Offset", d.utf16Offset ? Value::number(double(*d.utf16Offset)) : Value::null());
        doc.set("firstDivergence", o);
    } else {
        doc.set("firstDivergence", Value::null());
    }
    Value answers = Value::object();
    answers.set("same", Value::boolean(diff.answersSame));
    answers.set("a", optString(diff.answerA));
    answers.set("b", optString(diff.answerB));
    doc.set("answers", answers);
    Value outcomes = Value::object();
    outcomes.set("a", outcomeJson(diff.outcomeA));
    outcomes.set("b", outcomeJson(diff.outcomeB));
    doc.set("outcomes", outcomes);
    return doc;
}

std::string diffText(const recording::Run &a, const recording::Run &b, const compare::RunDiff &diff)
{
    std::ostringstream out;
    out << "A: " << text::printableLine(a.path, 200) << " (" << diff.callsA << " calls)\n";
    out << "B: " << text::printableLine(b.path, 200) << " (" << diff.callsB << " calls)\n";
    const std::size_t same = std::size_t(
        std::count_if(diff.aligned.begin(), diff.aligned.end(), [](const compare::AlignedCall &c) { return c.same; }));
    const std::size_t gaps = std::size_t(std::count_if(diff.aligned.begin(), diff.aligned.end(),
                                                       [](const compare::AlignedCall &c) { return !c.a || !c.b; }));
    const std::size_t differently = std::size_t(std::count_if(
        diff.aligned.begin(), diff.aligned.end(), [](const compare::AlignedCall &c) { return c.servedParts > 0; }));
    out << "aligned: " << diff.aligned.size() << " rows, " << same << " served the same, " << differently
        << " served differently, " << gaps << " in one run only";
    if (const std::size_t unproven = diff.aligned.size() - same - differently - gaps)
        out << ", " << unproven << " not comparable (parts on record in one run only)";
    out << '\n';

    if (!diff.firstDivergence) {
        out << "first divergence: none (every aligned call was served the same bytes)\n";
    } else {
        const compare::Divergence &d = *diff.firstDivergence;
        out << "first divergence: A call " << callLabel(d.a) << ", B call " << callLabel(d.b);
        if (!d.a || !d.b) {
            out << ": a call only " << (d.a ? "A" : "B") << " made\n";
        } else if (d.part) {
            out << ": " << text::printableLine(*d.part, 80);
            if (d.utf16Offset)
                out << " at UTF-16 offset " << *d.utf16Offset;
            out << '\n';
            if (diff.firstDivergencePair && d.utf16Offset) {
                out << "  A: "
                    << (diff.firstDivergencePair->firstPartA.empty()
                            ? std::string("(not sent)")
                            : around(diff.firstDivergencePair->firstPartA, *d.utf16Offset))
                    << "\n  B: "
                    << (diff.firstDivergencePair->firstPartB.empty()
                            ? std::string("(not sent)")
                            : around(diff.firstDivergencePair->firstPartB, *d.utf16Offset))
                    << '\n';
            }
        } else {
            out << '\n';
        }
        if (diff.firstDivergencePair) {
            out << "  at this pair:\n";
            for (const std::string &line : text::split(pairText(*diff.firstDivergencePair), '\n'))
                if (!line.empty())
                    out << "    " << line << '\n';
        }
    }

    out << "alignment (A call, B call, what differs):\n";
    for (const compare::AlignedCall &c : diff.aligned) {
        out << "  " << callLabel(c.a) << '\t' << callLabel(c.b) << '\t';
        if (!c.a || !c.b)
            out << "only in " << (c.a ? "A" : "B");
        else if (c.parts.empty() && c.notCompared.empty())
            out << "same";
        else if (!c.parts.empty())
            out << (c.same ? "served the same; differs: " : "differs: ") << listed(c.parts, 0, 6);
        if (!c.notCompared.empty())
            out << (c.parts.empty() ? "" : "; ") << "on record in one run only: " << listed(c.notCompared, 0, 4);
        out << '\n';
    }

    if (diff.answersSame) {
        out << "answers: the same" << (diff.answerA ? "" : " (neither on record)") << '\n';
    } else if (!diff.answerA || !diff.answerB) {
        out << "answers: differ (on record in " << (diff.answerA ? "A" : "B") << " only)\n";
    } else {
        // Words as git --word-diff writes them: [-only in A-] {+only in B+}.
        std::string words;
        for (const text::DiffLine &w : diff.answerWords) {
            if (!words.empty())
                words += ' ';
            words += w.op == text::DiffLine::Op::Removed ? "[-" + w.text + "-]"
                     : w.op == text::DiffLine::Op::Added ? "{+" + w.text + "+}"
                                                         : w.text;
        }
        out << "answers: differ, A to B word by word:\n  " << text::printableLine(words, 2000) << '\n';
    }
    out << "outcomes: A " << outcomeText(diff.outcomeA) << "; B " << outcomeText(diff.outcomeB) << '\n';
    out << (diff.same() ? "the runs were served the same and answered the same\n" : "the runs differ\n");
    return out.str();
}

} // namespace tf::report
