#include "findingsconformance.h"
#include "vectorfile.h"

#include "core/findings/collapse.h"
#include "core/findings/findingspiece.h"
#include "core/findings/jsstring.h"
#include "core/findings/ledgerfold.h"
#include "core/io/mappedfile.h"
#include "core/json/parser.h"
#include "core/json/writer.h"
#include "core/text/utf.h"

#include <optional>

namespace tf::conformance {

namespace {

using findings::isString;
using findings::isTrue;

// How many units of context a failure shows on each side of the first difference.
constexpr std::size_t kWindow = 40;

struct Mismatch
{
    std::string field;
    std::u16string expected;
    std::u16string got;
    std::string note;  // set instead of a text diff when the two sides are not texts of one kind
    bool json = false; // both sides are JSON.stringify output: already escaped, so shown as they are
};

std::optional<Mismatch> compareText(std::string field, std::u16string expected, std::u16string got)
{
    if (expected == got)
        return std::nullopt;
    return Mismatch{std::move(field), std::move(expected), std::move(got), {}, false};
}

std::optional<Mismatch> compareJson(std::string field, const std::string &expected, const std::string &got)
{
    auto m = compareText(std::move(field), text::toUtf16(expected), text::toUtf16(got));
    if (m)
        m->json = true;
    return m;
}

std::optional<Mismatch> noteMismatch(std::string field, std::string note)
{
    return Mismatch{std::move(field), {}, {}, std::move(note), false};
}

std::string jsonStrings(const std::vector<std::string> &ids)
{
    std::string out = "[";
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (i)
            out += ',';
        json::appendJsString(out, ids[i]);
    }
    return out + "]";
}

std::string jsonIndices(const std::vector<std::size_t> &indices)
{
    std::string out = "[";
    for (std::size_t i = 0; i < indices.size(); ++i)
        out += (i ? "," : "") + std::to_string(indices[i]);
    return out + "]";
}

std::string stringifyOrAbsent(const json::Value *v)
{
    return v ? json::stringify(*v) : std::string("(absent)");
}

// `rows: null` (or no key) is the absent ledger; anything else is passed on as the ledger, whatever its type.
const json::Value *rowsOf(const json::Value &c)
{
    const json::Value *rows = c.find("rows");
    return rows && !rows->isNull() ? rows : nullptr;
}

std::optional<Mismatch> runPiece(const json::Value &c)
{
    std::vector<std::string> served;
    if (const json::Value *list = c.findArray("served"))
        for (const json::Value &id : *list)
            served.push_back(findings::stringOf(&id));
    const auto ask =
        isString(c.find("answerAsk"), "quote-facts") ? findings::AnswerAsk::QuoteFacts : findings::AnswerAsk::None;
    const std::optional<findings::FindingsPiece> piece = findings::composeFindingsPiece(rowsOf(c), served, ask);

    const json::Value *expected = c.find("piece");
    if (!expected || !expected->isString()) {
        if (piece)
            return noteMismatch("piece", "expected no piece (null), got a piece of " +
                                             std::to_string(piece->lengthU16()) + " units");
        return std::nullopt;
    }
    if (!piece)
        return noteMismatch("piece", "expected a piece of " + std::to_string(text::lengthU16(expected->asString())) +
                                         " units, got no piece (null)");
    if (auto m = compareText("piece", text::toUtf16(expected->asString()), piece->text))
        return m;
    if (const json::Value *length = c.findNumber("pieceLength");
        length && length->asNumber() != double(piece->lengthU16()))
        return noteMismatch("pieceLength",
                            "expected " + json::stringify(*length) + ", got " + std::to_string(piece->lengthU16()));
    if (isTrue(c.find("loneSurrogate")) != piece->hasLoneSurrogate())
        return noteMismatch("loneSurrogate", std::string("expected ") +
                                                 (isTrue(c.find("loneSurrogate")) ? "true" : "absent") + ", got " +
                                                 (piece->hasLoneSurrogate() ? "a lone surrogate" : "none"));
    // Not part of the vector: the structure must be the very composition the text came from.
    if (std::string problem = findings::checkPieceStructure(*piece); !problem.empty())
        return noteMismatch("structure", problem);
    return std::nullopt;
}

std::optional<Mismatch> runCollapse(const json::Value &c)
{
    static const json::Value kNoMessages = json::Value::array();
    const json::Value *messagesPtr = c.findArray("messages");
    const json::Value &messages = messagesPtr ? *messagesPtr : kNoMessages;
    const auto mode =
        isString(c.find("mode"), "ledger-only") ? findings::ServeMode::LedgerOnly : findings::ServeMode::LedgerAndFacts;
    const findings::CollapseResult result = findings::collapseJudged(messages, rowsOf(c), mode);

    const json::Value *expected = c.find("expected");
    if (!expected || !expected->isArray() || expected->size() != result.messages.size())
        return compareJson("expected", stringifyOrAbsent(expected), json::stringify(result.messages));
    for (std::size_t i = 0; i < expected->size(); ++i)
        if (auto m = compareJson("expected[" + std::to_string(i) + "]", json::stringify(expected->at(i)),
                                 json::stringify(result.messages.at(i))))
            return m;

    // Identity is what the flags claim; check the claims against the nodes themselves.
    const bool same = result.messages.identity() == messages.identity();
    if (same != result.sameArray)
        return noteMismatch("sameArray", "the result's sameArray flag disagrees with the array's identity");
    if (const json::Value *want = c.find("sameArray"); !want || !want->isBool() || want->asBool() != same)
        return noteMismatch("sameArray", "expected " + stringifyOrAbsent(want) + ", got " + (same ? "true" : "false"));
    std::vector<std::size_t> changed;
    for (std::size_t i = 0; i < messages.size(); ++i)
        if (result.messages.at(i).identity() != messages.at(i).identity())
            changed.push_back(i);
    if (changed != result.changed)
        return compareJson("changed (reported vs identity)", jsonIndices(changed), jsonIndices(result.changed));
    return compareJson("changed", stringifyOrAbsent(c.find("changed")), jsonIndices(changed));
}

std::optional<Mismatch> runServedIds(const json::Value &c)
{
    static const json::Value kNoMessages = json::Value::array();
    const json::Value *messages = c.findArray("messages");
    return compareJson("expected", stringifyOrAbsent(c.find("expected")),
                       jsonStrings(findings::servedToolCallIds(messages ? *messages : kNoMessages)));
}

std::optional<Mismatch> runOfferedIds(const json::Value &c)
{
    static const json::Value kNoMessages = json::Value::array();
    const json::Value *messages = c.findArray("messages");
    return compareJson("expected", stringifyOrAbsent(c.find("expected")),
                       jsonStrings(findings::offeredResultIds(messages ? *messages : kNoMessages, rowsOf(c))));
}

std::optional<Mismatch> runConflictKeys(const json::Value &c)
{
    static const json::Value kNoRows = json::Value::array();
    const json::Value *rows = rowsOf(c);
    std::vector<std::string> keys;
    for (const findings::Conflict &conflict : findings::foldLedger(rows ? *rows : kNoRows).conflicts)
        keys.push_back(conflict.key);
    return compareJson("expected", stringifyOrAbsent(c.find("expected")), jsonStrings(keys));
}

// A short window of `text` around `offset`, escaped with the JSON string escaper so that NULs, control characters
// and lone surrogates are visible (JSON text is escaped already and is shown as it is).
std::string window(const std::u16string &text, std::size_t offset, bool isJson)
{
    const std::size_t begin = offset > kWindow ? offset - kWindow : 0;
    const std::size_t end = std::min(text.size(), offset + kWindow);
    std::string out = begin > 0 ? "..." : "";
    const std::string part = text::toWtf8(std::u16string_view(text).substr(begin, end - begin));
    out += isJson ? text::toUtf8Lossy(part) : json::jsQuoted(part);
    if (end < text.size())
        out += "...";
    return out;
}

void printFailure(std::ostream &out, std::size_t lineNo, std::string_view name, std::string_view kind,
                  const Mismatch &m)
{
    out << "FAIL " << name << " (" << kind << ", line " << lineNo << "): " << m.field;
    if (!m.note.empty()) {
        out << ": " << m.note << '\n';
        return;
    }
    std::size_t at = 0;
    while (at < m.expected.size() && at < m.got.size() && m.expected[at] == m.got[at])
        ++at;
    out << " differs at UTF-16 offset " << at << '\n';
    out << "  expected (" << m.expected.size() << " units): " << window(m.expected, at, m.json) << '\n';
    out << "  got      (" << m.got.size() << " units): " << window(m.got, at, m.json) << '\n';
}

} // namespace

Summary runFindingsVectors(const std::string &path, std::ostream &out)
{
    return runVectorFile(path, out, [&](const json::Value &c, std::string_view, std::size_t lineNo) {
        const std::string name = findings::stringOf(c.find("name"));
        const std::string kind = findings::stringOf(c.find("kind"));
        std::optional<Mismatch> mismatch;
        if (kind == "piece")
            mismatch = runPiece(c);
        else if (kind == "collapse")
            mismatch = runCollapse(c);
        else if (kind == "served-ids")
            mismatch = runServedIds(c);
        else if (kind == "offered-ids")
            mismatch = runOfferedIds(c);
        else if (kind == "conflict-keys")
            mismatch = runConflictKeys(c);
        else
            mismatch = noteMismatch("kind", "unknown case kind");

        if (mismatch)
            printFailure(out, lineNo, name, kind, *mismatch);
        return !mismatch;
    });
}

} // namespace tf::conformance
