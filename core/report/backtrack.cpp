#include "backtrack.h"

#include "core/findings/collapse.h"
#include "core/findings/ledgerfold.h"
#include "core/findings/linecomposer.h"
#include "core/json/jsnumber.h"
#include "core/json/writer.h"
#include "core/recording/callinternals.h"
#include "core/recording/resultentry.h"

#include <algorithm>
#include <map>
#include <set>

namespace tf::report {

namespace {

using json::Value;

bool isAsciiAlnum(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// The text of a fact value as it would be copied into an answer: a string as itself, a number as JavaScript writes
// it, a known Claim as its inner value. Other values (booleans, null, arrays, objects) are not traced: their text is
// too short or too structured to be found in prose.
std::optional<std::string> valueText(const Value *v)
{
    if (!v)
        return std::nullopt;
    if (v->isObject()) {
        const Value *kind = v->findString("kind");
        const Value *inner = v->find("value");
        if (kind && kind->asString() == "known" && inner)
            v = inner;
        else
            return std::nullopt;
    }
    if (v->isString()) {
        const std::string_view s = v->asString();
        if (s.find_first_not_of(" \t\r\n") == std::string_view::npos)
            return std::nullopt;
        return std::string(s);
    }
    if (v->isNumber())
        return json::jsNumberToString(v->asNumber());
    return std::nullopt;
}

std::string stringMember(const Value &o, std::string_view key)
{
    const Value *v = o.isObject() ? o.findString(key) : nullptr;
    return v ? v->decodedString() : std::string();
}

// The fact line for an assertion the piece does not show (past the 64-line cap): the same grammar (§3.4) composed by
// the piece's own line composer, so it reads exactly as the piece would have written it.
findings::PieceLine composeFactLine(const Value &assertion, const Value &row, std::size_t rowIndex)
{
    const Value *subject = assertion.findObject("subject");
    findings::LineComposer line;
    line.model(subject ? subject->find("kind") : nullptr)
        .library(u"/")
        .model(subject ? subject->find("id") : nullptr)
        .library(u" \u00B7 ")
        .model(assertion.find("predicate"))
        .library(u" = ")
        .rendered(assertion.find("value"))
        .library(u" \u2190 tool:")
        .model(row.find("toolCallId"));
    if (row.contains("ref"))
        line.library(u" | artifact:").model(row.find("ref"));
    if (const Value *unknown = row.find("unknownId"); unknown && unknown->isBool() && unknown->asBool())
        line.library(u" (unknown id)");
    line.row(rowIndex);
    return std::move(line).clipLine();
}

std::string subjectText(const Value &assertion)
{
    const Value *subject = assertion.findObject("subject");
    const auto part = [](const Value *v) {
        if (!v)
            return std::string("undefined");
        return v->isString() ? v->decodedString() : json::stringify(*v);
    };
    return part(subject ? subject->find("kind") : nullptr) + "/" + part(subject ? subject->find("id") : nullptr) +
           " \u00B7 " + part(assertion.find("predicate"));
}

std::string quoted(std::string_view s)
{
    return "\u201C" + std::string(s) + "\u201D";
}

std::string toolList(const std::vector<std::string> &ids)
{
    std::string out;
    for (const std::string &id : ids)
        out += (out.empty() ? "" : ", ") + std::string("tool:") + id;
    return out;
}

} // namespace

std::size_t findWholeValue(std::string_view text, std::string_view value)
{
    if (value.empty())
        return std::string_view::npos;
    std::size_t from = 0;
    while (true) {
        const std::size_t at = text.find(value, from);
        if (at == std::string_view::npos)
            return at;
        const bool leftOk = !isAsciiAlnum(value.front()) || at == 0 || !isAsciiAlnum(text[at - 1]);
        const std::size_t end = at + value.size();
        const bool rightOk = !isAsciiAlnum(value.back()) || end >= text.size() || !isAsciiAlnum(text[end]);
        if (leftOk && rightOk)
            return at;
        from = at + 1;
    }
}

Backtrack backtrackAnswer(const recording::Run &run)
{
    if (run.finalAnswer)
        return backtrackAnswer(run, std::string_view(*run.finalAnswer));
    return backtrackAnswer(run, std::nullopt);
}

Backtrack backtrackAnswer(const recording::Run &run, std::optional<std::string_view> answer)
{
    Backtrack out;
    if (answer)
        out.answer = std::string(*answer);

    // The answering call's served context: its history holds every result the answer could have drawn on. The answer
    // is the last ended turn's (spec/runs.md §4), so it is that turn's last call, not the run's: a later turn may
    // have failed before it answered.
    recording::CallView finalView;
    if (!run.calls.empty()) {
        out.finalOrdinal = run.calls.size() - 1;
        for (auto t = run.turns.rbegin(); t != run.turns.rend(); ++t)
            if (t->ended && !t->calls.empty()) {
                out.finalOrdinal = t->calls.back();
                break;
            }
        recording::detail::rebuildServed(run, *out.finalOrdinal, finalView);
    }
    Value ledger = Value::array();
    if (std::optional<Value> finalLedger = run.finalLedger()) {
        ledger = std::move(*finalLedger);
        out.ledgerOnRecord = true;
    } else if (finalView.ledgerOnRecord) {
        ledger = finalView.ledger;
        out.ledgerOnRecord = true;
    }
    const findings::LedgerFold fold = findings::foldLedger(ledger);
    // "Undeclared" is a findings notion (as in the call views): a run that is not armed declares nothing.
    if (finalView.conversationOnRecord && run.constants.armed)
        out.undeclaredAtFinal = findings::undeclaredIds(finalView.servedIds, fold);

    const findings::AnswerAsk ask = run.constants.findingsAnswerAsk == std::optional<std::string>("quote-facts")
                                        ? findings::AnswerAsk::QuoteFacts
                                        : findings::AnswerAsk::None;
    const std::optional<findings::FindingsPiece> piece =
        out.ledgerOnRecord ? findings::composeFindingsPiece(&ledger, finalView.servedIds, ask) : std::nullopt;
    std::set<std::string> conflictKeys;
    for (const findings::Conflict &c : fold.conflicts) {
        conflictKeys.insert(c.key);
        if (!c.assertions.empty())
            out.conflictsAtFinal.push_back(subjectText(*c.assertions.front()));
    }
    out.finalHistoryOnRecord = finalView.conversationOnRecord;

    // Fact lines by standing row, in the piece's order: the j-th line naming a row is that row's j-th assertion.
    std::map<std::size_t, std::vector<const findings::PieceLine *>> factLines;
    if (piece)
        for (const findings::PieceSection &section : piece->sections)
            if (section.kind == findings::SectionKind::Facts)
                for (const findings::PieceLine &line : section.lines)
                    if (line.kind == findings::LineKind::Content && line.rowIndices.size() == 1)
                        factLines[line.rowIndices.front()].push_back(&line);

    std::set<std::string> wantedIds;
    const std::string_view answerText = answer.value_or(std::string_view{});
    for (const findings::AssertionRef &ref : fold.asserted) {
        const std::optional<std::string> text = valueText(ref.assertion->find("value"));
        if (!text)
            continue;
        ++out.factValuesConsidered;
        if (!answer)
            continue;
        const std::size_t at = findWholeValue(answerText, *text);
        if (at == std::string_view::npos)
            continue;
        auto it = std::find_if(out.values.begin(), out.values.end(),
                               [&](const BacktrackValue &v) { return v.value == *text; });
        if (it == out.values.end()) {
            out.values.push_back({*text, at, {}});
            it = out.values.end() - 1;
        }
        ValueSource source;
        source.standingRowIndex = ref.rowIndex;
        source.standingRow = *ref.row;
        source.toolCallId = stringMember(*ref.row, "toolCallId");
        if (const Value *name = ref.row->findString("toolName"))
            source.toolName = name->decodedString();
        source.subject = subjectText(*ref.assertion);
        source.conflicted = conflictKeys.count(ref.key) > 0;
        // Which assertion of its row this is, to pick the row's matching fact line.
        std::size_t position = 0;
        if (const Value *assertions = ref.row->findArray("assertions"))
            for (std::size_t j = 0; j < assertions->size(); ++j)
                if (&assertions->at(j) == ref.assertion)
                    position = j;
        const auto lines = factLines.find(ref.rowIndex);
        if (lines != factLines.end() && position < lines->second.size()) {
            source.factLine = *lines->second[position];
        } else {
            source.factLine = composeFactLine(*ref.assertion, *ref.row, ref.rowIndex);
            source.factLineInPiece = false;
        }
        source.ticketAtAnswer =
            std::any_of(finalView.collapsed.begin(), finalView.collapsed.end(),
                        [&](const findings::CollapsedMessage &c) { return c.toolCallId == source.toolCallId; });
        if (finalView.conversationOnRecord)
            for (const Value &m : finalView.committed)
                if (findings::isResultMessage(m) && stringMember(m, "toolCallId") == source.toolCallId) {
                    source.resultMessage = m;
                    if (const Value *content = m.findString("content")) {
                        source.resultContent = content->decodedString();
                        source.valueInResult = source.resultContent->find(*text) != std::string::npos;
                    }
                    break;
                }
        wantedIds.insert(source.toolCallId);
        it->sources.push_back(std::move(source));
    }
    std::sort(out.values.begin(), out.values.end(),
              [](const BacktrackValue &a, const BacktrackValue &b) { return a.answerOffset < b.answerOffset; });

    // Contingent rows filed on the answer: values the model used that only set-aside results carried (§1.6).
    for (std::size_t i = 0; i < ledger.size(); ++i) {
        const Value &row = ledger.at(i);
        if (findings::rowKindOf(row) != findings::RowKind::Contingent)
            continue;
        const Value *declaredOn = row.find("declaredOn");
        if (!declaredOn || !declaredOn->isString() || declaredOn->asString() != "answer")
            continue;
        ContingentUse use;
        use.rowIndex = i;
        use.value = stringMember(row, "value");
        use.inAnswer = answer && !use.value.empty() && answerText.find(use.value) != std::string_view::npos;
        if (const Value *carriers = row.findArray("carriers"))
            for (const Value &c : *carriers) {
                ContingentUse::Carrier carrier;
                carrier.toolCallId = stringMember(c, "toolCallId");
                carrier.standing = stringMember(c, "standing");
                wantedIds.insert(carrier.toolCallId);
                use.carriers.push_back(std::move(carrier));
            }
        out.contingent.push_back(std::move(use));
    }

    // The first call whose served ids hold each result of interest.
    const auto entered = recording::whereResultsEntered(run, wantedIds);
    for (BacktrackValue &v : out.values)
        for (ValueSource &s : v.sources)
            if (auto it = entered.find(s.toolCallId); it != entered.end()) {
                s.enteredOrdinal = it->second.ordinal;
                s.enteredEpoch = run.calls[it->second.ordinal].epoch;
                s.enteredStageId = run.calls[it->second.ordinal].callRuntimeStageId;
                s.enteredAsTicket = it->second.asTicket;
                s.enteredMessage = it->second.messageIndex;
            }
    for (ContingentUse &use : out.contingent)
        for (ContingentUse::Carrier &c : use.carriers)
            if (auto it = entered.find(c.toolCallId); it != entered.end()) {
                c.enteredOrdinal = it->second.ordinal;
                c.enteredEpoch = run.calls[it->second.ordinal].epoch;
                c.enteredMessage = it->second.messageIndex;
            }

    // What the answer rests on, said in words.
    if (!answer) {
        out.statements.push_back("The run has no final answer on record, so there is nothing to trace.");
        return out;
    }
    if (!out.ledgerOnRecord) {
        out.statements.push_back(run.constants.armed
                                     ? "No findings ledger is on record, so no value of the answer can be traced to a "
                                       "declared fact."
                                     : "Findings are not armed on this run, so the answer declares no facts to trace.");
    } else if (out.values.empty()) {
        out.statements.push_back(
            "The answer uses no fact value: none of the " + std::to_string(out.factValuesConsidered) +
            " string or number values asserted by the final ledger's fact standings occurs in the answer text.");
    } else {
        std::size_t sources = 0;
        for (const BacktrackValue &v : out.values)
            sources += v.sources.size();
        out.statements.push_back("The answer uses " + std::to_string(out.values.size()) + " fact value" +
                                 (out.values.size() == 1 ? "" : "s") + ", declared by " + std::to_string(sources) +
                                 " fact assertion" + (sources == 1 ? "" : "s") + " of the final ledger.");
        for (const BacktrackValue &v : out.values)
            for (const ValueSource &s : v.sources) {
                if (s.conflicted)
                    out.details.push_back("The value " + quoted(v.value) + " (" + s.subject +
                                          ") is in conflict: another fact result asserts a different value for "
                                          "the same subject and predicate.");
                if (s.resultContent && !s.valueInResult)
                    out.details.push_back("The value " + quoted(v.value) +
                                          " does not occur in the content of "
                                          "tool:" +
                                          s.toolCallId + ", the result its fact standing judged.");
                if (!s.resultMessage)
                    out.details.push_back("The result tool:" + s.toolCallId + " behind " + quoted(v.value) +
                                          " is not in the final call's history.");
            }
    }
    for (const ContingentUse &use : out.contingent) {
        std::string carriers;
        for (const ContingentUse::Carrier &c : use.carriers)
            carriers += (carriers.empty() ? "" : ", ") + std::string("tool:") + c.toolCallId + " (" + c.standing + ")";
        out.statements.push_back("The answer used " + quoted(use.value) +
                                 " only from results the model had set aside (a contingent row): " +
                                 (carriers.empty() ? std::string("no carrier named") : carriers) + "." +
                                 (use.inAnswer ? "" : " The value's text does not occur in the answer as written."));
    }
    if (!out.undeclaredAtFinal.empty())
        out.statements.push_back(std::to_string(out.undeclaredAtFinal.size()) + " result" +
                                 (out.undeclaredAtFinal.size() == 1 ? " was" : "s were") +
                                 " served to the final call in full and never declared (" +
                                 toolList(out.undeclaredAtFinal) +
                                 "); the answer may draw on them without any fact line behind it.");
    return out;
}

} // namespace tf::report
