#include "inspectreport.h"

#include "hitrate.h"

#include "core/findings/ledgerrowview.h"
#include "core/json/jsnumber.h"
#include "core/json/writer.h"
#include "core/text/utf.h"

#include <algorithm>
#include <future>
#include <iterator>
#include <sstream>
#include <thread>

namespace tf::report {

namespace {

using json::Value;

Value str(std::string s)
{
    return Value::string(std::move(s));
}

Value optNumber(const std::optional<double> &d)
{
    return d ? Value::number(*d) : Value::null();
}

Value optBool(const std::optional<bool> &b)
{
    return b ? Value::boolean(*b) : Value::null();
}

Value optString(const std::optional<std::string> &s)
{
    return s ? str(*s) : Value::null();
}

// 1-based call numbers, as every surface shows them.
Value callNumber(const std::optional<std::size_t> &ordinal)
{
    return ordinal ? Value::number(double(*ordinal + 1)) : Value::null();
}

Value turnsJson(const recording::Run &run)
{
    Value out = Value::array();
    for (const recording::Turn &t : run.turns) {
        Value o = Value::object();
        o.set("turn", Value::number(double(t.number)));
        o.set("runId", t.runId.empty() ? Value::null() : str(t.runId));
        o.set("userPrompt", optString(t.userPrompt));
        o.set("finalAnswer", optString(t.finalAnswer));
        Value calls = Value::array();
        for (std::size_t c : t.calls)
            calls.push_back(Value::number(double(c + 1)));
        o.set("calls", calls);
        out.push_back(o);
    }
    return out;
}

Value limitsJson(const recording::Run &run)
{
    Value out = Value::array();
    for (const recording::RunLimit &l : run.limits) {
        Value o = Value::object();
        o.set("kind", str(l.kind));
        o.set("message", str(l.message));
        o.set("call", callNumber(l.call));
        out.push_back(o);
    }
    return out;
}

Value gapsJson(const std::vector<recording::Gap> &gaps)
{
    Value out = Value::array();
    for (const recording::Gap &g : gaps) {
        Value o = Value::object();
        o.set("gap", str(g.name));
        o.set("kind", str(recording::gapKindName(g.kind)));
        Value fields = Value::array();
        for (const std::string &f : g.fields)
            fields.push_back(str(f));
        o.set("fields", fields);
        if (!g.cause.empty())
            o.set("cause", str(g.cause));
        o.set("why", str(g.why));
        out.push_back(o);
    }
    return out;
}

std::string yesNoUnknown(const std::optional<bool> &b)
{
    return b ? (*b ? "yes" : "no") : "-";
}

std::string plainCount(const std::optional<double> &d)
{
    return d ? json::jsNumberToString(*d) : "-";
}

std::string verificationCell(const recording::CallSummary &c)
{
    std::string s;
    const auto part = [&](std::size_t n, const char *label) {
        if (!n)
            return;
        if (!s.empty())
            s += ' ';
        s += std::to_string(n) + label;
    };
    part(c.verified, "V");
    part(c.reconstructed, "R");
    part(c.damagedParts, "D");
    part(c.notOnRecord, "N");
    part(c.redacted, "X");
    return c.damaged ? "DAMAGED " + s : s;
}

// The response in a word: its stop reason (no model text: the table holds no untrusted text), or none on record.
std::string responseCell(const recording::CallSummary &c)
{
    if (!c.response)
        return "NONE";
    return c.response->stopReason ? text::printableLine(*c.response->stopReason, 16) : "?";
}

// Tools run for the response: how many, how many failed, how many never returned.
std::string toolsCell(const recording::CallSummary &c)
{
    const std::size_t asked = c.response ? c.response->toolCalls.size() : 0;
    if (c.toolResults.empty() && asked == 0)
        return "-";
    std::size_t errors = 0, open = 0;
    for (const auto &t : c.toolResults) {
        errors += t.error;
        open += !t.returned;
    }
    std::string s = std::to_string(c.toolResults.size());
    if (errors)
        s += " " + std::to_string(errors) + "E";
    if (open)
        s += " " + std::to_string(open) + "open";
    if (asked > c.toolResults.size())
        s += " " + std::to_string(asked - c.toolResults.size()) + "unrun";
    return s;
}

} // namespace

json::Value outcomeJson(const recording::RunOutcome &outcome)
{
    Value o = Value::object();
    o.set("status", str(recording::outcomeStatusId(outcome.status)));
    o.set("message", optString(outcome.message));
    o.set("call", callNumber(outcome.call));
    return o;
}

std::string outcomeText(const recording::RunOutcome &outcome)
{
    std::string out = recording::outcomeStatusId(outcome.status);
    if (outcome.call)
        out += " at call " + std::to_string(*outcome.call + 1);
    if (outcome.message)
        out += ": " + text::printableLine(*outcome.message);
    return out;
}

namespace {

// Everything but "calls", which comes last.
Value inspectHead(const recording::Run &run, std::span<const recording::CallSummary> calls)
{
    Value doc = Value::object();
    doc.set("schema", Value::number(1));
    doc.set("tracefold", str(TRACEFOLD_VERSION));
    doc.set("file", str(run.path));
    doc.set("format", str(recording::shapeId(run.shape)));
    doc.set("packed", Value::boolean(run.packedFile != nullptr)); // "format" is then the shape of its expansion
    doc.set("runId", run.runId.empty() ? Value::null() : str(run.runId));
    doc.set("model", run.model.empty() ? Value::null() : str(run.model));
    doc.set("provider", run.provider.empty() ? Value::null() : str(run.provider));
    doc.set("foldBasis", str(recording::foldBasisName(run.basis)));
    doc.set("reactMode", run.reactMode.empty() ? Value::null() : str(run.reactMode));
    doc.set("armed", Value::boolean(run.constants.armed));
    doc.set("redaction", Value::boolean(run.servedUnderRedaction)); // served under a redaction policy (§4)
    doc.set("events", Value::number(double(run.events.size())));
    doc.set("gaps", gapsJson(recording::distinctGaps(run.gaps, calls)));
    Value warnings = Value::array();
    for (const std::string &w : run.warnings)
        warnings.push_back(str(w));
    doc.set("warnings", warnings);
    const HitRate h = hitRate(calls);
    Value hr = Value::object();
    hr.set("rate", optNumber(h.rate));
    hr.set("measuredCalls", Value::number(double(h.measured)));
    hr.set("unmeasuredCalls", Value::number(double(h.unmeasured)));
    if (!h.rate)
        hr.set("reason", str(h.reason));
    doc.set("hitRate", hr);
    doc.set("finalAnswer", optString(run.finalAnswer));
    doc.set("turns", turnsJson(run));
    doc.set("outcome", outcomeJson(run.outcome));
    doc.set("limits", limitsJson(run));
    return doc;
}

Value inspectCall(const recording::CallSummary &c)
{
    Value o = Value::object();
    o.set("index", Value::number(double(c.ordinal + 1)));
    o.set("turn", Value::number(double(c.turn + 1)));
    o.set("runId", c.runId.empty() ? Value::null() : str(std::string(c.runId)));
    o.set("epoch", Value::number(c.epoch));
    o.set("callRuntimeStageId", str(c.callRuntimeStageId));
    o.set("messageCount", c.messageCount ? Value::number(double(*c.messageCount)) : Value::null());
    Value collapsed = Value::array();
    for (const std::string &id : c.collapsedIds)
        collapsed.push_back(str(id));
    o.set("collapsed", collapsed);
    if (c.pieceLengthU16) {
        Value piece = Value::object();
        piece.set("utf16Length", Value::number(double(*c.pieceLengthU16)));
        piece.set("utf8Bytes", Value::number(double(*c.pieceSizeUtf8)));
        piece.set("changedSincePrevious", Value::boolean(c.pieceChangedSincePrevious));
        piece.set("linesAdded", Value::number(double(c.pieceLinesAdded)));
        piece.set("linesRemoved", Value::number(double(c.pieceLinesRemoved)));
        o.set("piece", piece);
    } else {
        o.set("piece", Value::null());
    }
    o.set("ledgerRows", Value::number(double(c.ledgerRows)));
    o.set("ledgerChanged", Value::boolean(c.ledgerChanged));
    // How many rows carry each mark the Ledger pane shows, by the marks' own names (findings::ledgerMarkNames).
    Value marks = Value::object();
    marks.set("new", Value::number(double(c.ledgerRowsNew)));
    for (unsigned b = 0; b < findings::kLedgerMarkCount; ++b)
        if ((1u << b) != findings::MarkNew)
            marks.set(findings::ledgerMarkNames(1u << b).front(), Value::number(double(c.ledgerMarks.byBit[b])));
    o.set("ledgerMarks", marks);
    Value cache = Value::object();
    cache.set("prefixReusable", optBool(c.prefixReusable));
    cache.set("systemUnchanged", optBool(c.systemUnchanged));
    cache.set("cacheRead", optNumber(c.cacheRead));
    cache.set("cacheWrite", optNumber(c.cacheWrite));
    cache.set("input", optNumber(c.input));
    cache.set("output", optNumber(c.output));
    cache.set("verdict", str(recording::cacheVerdictId(c.verdict)));
    cache.set("transformHashScheme",
              c.transformHashScheme ? str(receipt::transformHashSchemeId(*c.transformHashScheme)) : Value::null());
    o.set("cache", cache);
    Value verification = Value::array();
    for (const recording::PartCheck &p : c.checks()) {
        Value v = Value::object();
        v.set("part", str(p.part));
        v.set("status", str(recording::badgeId(p.badge)));
        v.set("reason", str(p.reason));
        verification.push_back(v);
    }
    o.set("verification", verification);
    o.set("damaged", Value::boolean(c.damaged));
    if (c.response) {
        Value r = Value::object();
        r.set("text", str(c.response->text));
        r.set("stopReason", optString(c.response->stopReason));
        r.set("durationMs", optNumber(c.response->durationMs));
        Value usage = Value::object();
        usage.set("input", optNumber(c.input));
        usage.set("output", optNumber(c.output));
        usage.set("cacheRead", optNumber(c.cacheRead));
        usage.set("cacheWrite", optNumber(c.cacheWrite));
        r.set("usage", usage);
        Value toolCalls = Value::array();
        for (const auto &[id, name] : c.response->toolCalls) {
            Value t = Value::object();
            t.set("id", str(id));
            t.set("name", str(name));
            toolCalls.push_back(t);
        }
        r.set("toolCalls", toolCalls);
        o.set("response", r);
    } else {
        o.set("response", Value::null());
    }
    Value toolResults = Value::array();
    for (const recording::CallSummary::ToolResultBrief &t : c.toolResults) {
        Value v = Value::object();
        v.set("id", str(t.id));
        v.set("name", str(t.name));
        v.set("error", Value::boolean(t.error));
        v.set("durationMs", optNumber(t.durationMs));
        v.set("returned", Value::boolean(t.returned));
        toolResults.push_back(v);
    }
    o.set("toolResults", toolResults);
    Value gapNames = Value::array();
    for (const recording::Gap &g : c.gaps())
        gapNames.push_back(str(g.name));
    o.set("gaps", gapNames);
    return o;
}

} // namespace

Value inspectCallJson(const recording::CallSummary &call)
{
    return inspectCall(call);
}

std::string inspectCallLine(const recording::CallSummary &c)
{
    std::string line = "call " + std::to_string(c.ordinal + 1) + "  turn " + std::to_string(c.turn + 1) + "  epoch " +
                       std::to_string(c.epoch) + "  response " + responseCell(c) + "  tools " + toolsCell(c) +
                       "  messages " + (c.messageCount ? std::to_string(*c.messageCount) : "-") + "  prefix " +
                       yesNoUnknown(c.prefixReusable) + "  cacheRead " + plainCount(c.cacheRead) + "  " +
                       verificationCell(c);
    return line;
}

Value inspectJson(const recording::Run &run, std::span<const recording::CallSummary> calls)
{
    Value doc = inspectHead(run, calls);
    Value list = Value::array();
    for (const recording::CallSummary &c : calls)
        list.push_back(inspectCall(c));
    doc.set("calls", list);
    return doc;
}

std::vector<std::string> inspectJsonPieces(const recording::Run &run, std::span<const recording::CallSummary> calls,
                                           std::size_t workers)
{
    std::string head = json::prettyPrint(inspectHead(run, calls));
    head.resize(head.size() - 2); // "\n}": "calls" follows
    head += ",\n  \"calls\": ";
    if (calls.empty())
        return {head + "[]\n}\n"};
    head += '[';
    // Printing the calls came after the parallel index and took a seventh of inspect's CPU at 1,300 calls, on one
    // core: each core prints a run of calls of its own (a part is at least kCallsPerPart calls, so a small run is not
    // worth a thread).
    constexpr std::size_t kCallsPerPart = 64;
    if (workers == 0)
        workers = recording::wholeRunWorkers();
    const std::size_t parts = std::clamp<std::size_t>(calls.size() / kCallsPerPart, 1, workers);
    // A part is printed in chunks of about a megabyte, each reserved once: a part of tens of megabytes grown by
    // doubling was copied twice over and touched new pages at every step (c5000: 50,600 page faults, 37,600 so).
    constexpr std::size_t kChunkBytes = std::size_t(1) << 20;
    const auto print = [calls, parts](std::size_t part) {
        std::vector<std::string> chunks;
        for (std::size_t i = calls.size() * part / parts, end = calls.size() * (part + 1) / parts; i < end; ++i) {
            if (chunks.empty() || chunks.back().size() >= kChunkBytes) {
                chunks.emplace_back();
                chunks.back().reserve(kChunkBytes + kChunkBytes / 4);
            }
            std::string &text = chunks.back();
            text += i ? ",\n    " : "\n    ";
            json::appendPrettyPrint(text, inspectCall(calls[i]), 2, 2);
        }
        return chunks;
    };
    std::vector<std::future<std::vector<std::string>>> others;
    for (std::size_t part = 1; part < parts; ++part)
        others.push_back(std::async(std::launch::async, print, part));
    std::vector<std::string> pieces;
    const auto append = [&pieces](std::vector<std::string> chunks) {
        pieces.insert(pieces.end(), std::make_move_iterator(chunks.begin()), std::make_move_iterator(chunks.end()));
    };
    pieces.push_back(std::move(head));
    append(print(0));
    for (std::future<std::vector<std::string>> &f : others)
        append(f.get()); // rethrows what a part threw
    pieces.push_back("\n  ]\n}\n");
    return pieces;
}

std::string inspectJsonText(const recording::Run &run, std::span<const recording::CallSummary> calls,
                            std::size_t workers)
{
    const std::vector<std::string> pieces = inspectJsonPieces(run, calls, workers);
    std::size_t size = 0;
    for (const std::string &p : pieces)
        size += p.size();
    std::string doc;
    doc.reserve(size);
    for (const std::string &p : pieces)
        doc += p;
    return doc;
}

std::string inspectTable(const recording::Run &run, std::span<const recording::CallSummary> calls)
{
    std::ostringstream out;
    out << run.path << ": " << recording::shapeDescription(run.shape) << (run.packedFile ? ", packed" : "") << ", "
        << calls.size() << " call" << (calls.size() == 1 ? "" : "s") << ", run "
        << (run.runId.empty() ? "(not on record)" : run.runId) << ", fold " << recording::foldBasisName(run.basis)
        << '\n';
    struct Column
    {
        const char *title;
        std::vector<std::string> cells;
    };
    std::vector<Column> cols = {{"call", {}},        {"turn", {}},     {"epoch", {}},     {"response", {}},
                                {"tools", {}},       {"messages", {}}, {"collapsed", {}}, {"piece B", {}},
                                {"piece Δ", {}},     {"prefix", {}},   {"cacheRead", {}}, {"cacheWrite", {}},
                                {"verification", {}}};
    for (const recording::CallSummary &c : calls) {
        std::size_t k = 0;
        cols[k++].cells.push_back(std::to_string(c.ordinal + 1));
        cols[k++].cells.push_back(std::to_string(c.turn + 1));
        cols[k++].cells.push_back(std::to_string(c.epoch));
        cols[k++].cells.push_back(responseCell(c));
        cols[k++].cells.push_back(toolsCell(c));
        cols[k++].cells.push_back(c.messageCount ? std::to_string(*c.messageCount) : "-");
        cols[k++].cells.push_back(std::to_string(c.collapsedIds.size()));
        cols[k++].cells.push_back(c.pieceSizeUtf8 ? std::to_string(*c.pieceSizeUtf8) : "-");
        cols[k++].cells.push_back(c.pieceLengthU16 ? (c.pieceChangedSincePrevious ? "changed" : "same") : "-");
        cols[k++].cells.push_back(yesNoUnknown(c.prefixReusable));
        cols[k++].cells.push_back(plainCount(c.cacheRead));
        cols[k++].cells.push_back(plainCount(c.cacheWrite));
        cols[k++].cells.push_back(verificationCell(c));
    }
    std::vector<std::size_t> widths;
    for (const Column &col : cols) {
        // Titles may hold a non-ASCII Δ; count code points, not bytes, so the columns line up.
        std::size_t w = 0;
        for (unsigned char ch : std::string_view(col.title))
            w += (ch & 0xC0) != 0x80;
        for (const std::string &cell : col.cells)
            w = std::max(w, cell.size());
        widths.push_back(w);
    }
    const auto pad = [](std::string_view s, std::size_t width) {
        std::size_t n = 0;
        for (unsigned char ch : s)
            n += (ch & 0xC0) != 0x80;
        return std::string(s) + std::string(width > n ? width - n : 0, ' ');
    };
    for (std::size_t i = 0; i < cols.size(); ++i)
        out << pad(cols[i].title, widths[i]) << (i + 1 < cols.size() ? "  " : "\n");
    for (std::size_t r = 0; r < calls.size(); ++r)
        for (std::size_t i = 0; i < cols.size(); ++i)
            out << pad(cols[i].cells[r], widths[i]) << (i + 1 < cols.size() ? "  " : "\n");
    const HitRate h = hitRate(calls);
    out << "cache hit rate: ";
    if (h.rate)
        out << json::jsNumberToString(double(int(*h.rate * 1000 + 0.5)) / 10) << "%";
    else
        out << "unknown (" << h.reason << ")";
    out << " over " << h.measured << " measured, " << h.unmeasured << " unmeasured call"
        << (h.unmeasured == 1 ? "" : "s") << '\n';
    if (!run.gaps.empty()) {
        out << "gaps:";
        for (const recording::Gap &g : run.gaps)
            out << ' ' << g.name;
        out << '\n';
    }
    out << "turns: " << run.turns.size() << ", outcome: " << outcomeText(run.outcome) << '\n';
    for (const recording::RunLimit &l : run.limits) {
        out << "limit: " << l.kind;
        if (l.call)
            out << " at call " << *l.call + 1;
        out << " (" << text::printableLine(l.message) << ")\n";
    }
    out << "response: stop reason, NONE when not on record; tools: run, E failed, open never returned, unrun asked for "
           "and never run\n";
    out << "V verified, R reconstructed, D damaged, N not on record, X redacted\n";
    return out.str();
}

} // namespace tf::report
