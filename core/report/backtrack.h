#pragma once

#include "core/findings/findingspiece.h"
#include "core/json/value.h"
#include "core/recording/run.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tf::report {

// Where one use of a fact value in the answer came from: the fact line the model was served (as in the piece), the
// standing row that declared it, the tool result it judged, and the call at which that result entered the context.
struct ValueSource
{
    std::size_t standingRowIndex = 0; // in the final ledger
    json::Value standingRow;
    std::string toolCallId; // the judged result's id (WTF-8)
    std::optional<std::string> toolName;
    std::string subject;          // subjectOf(a): "port/fc1/7 · state"
    findings::PieceLine factLine; // the fact line as the piece writes it
    bool factLineInPiece = true;  // false: past the 64-line cap, composed here by the same grammar
    bool conflicted = false;      // the assertion's key is in conflict in the final fold

    // The result message from the final call's history (committed, before collapse); nullopt: not in the history.
    std::optional<json::Value> resultMessage;
    std::optional<std::string> resultContent; // its content when it is a string
    bool valueInResult = false;               // the value's text occurs in the result's content

    // The first call whose served context held this result (by the served ids, §4.2), and how it was served then.
    std::optional<std::size_t> enteredOrdinal;
    int enteredEpoch = 0;
    std::string enteredStageId;
    std::optional<std::size_t> enteredMessage; // the result's position in that call's messages as sent
    bool enteredAsTicket = false;              // collapsed to a ticket at that call
    bool ticketAtAnswer = false;               // the answering call was served its collapse ticket, not its content
};

struct BacktrackValue
{
    std::string value; // the text matched in the answer: a string value, or a number rendered as JavaScript does
    std::size_t answerOffset = 0;     // byte offset of its first occurrence in the answer
    std::vector<ValueSource> sources; // every current fact assertion with this value, in fold order
};

struct ContingentUse
{
    std::size_t rowIndex = 0;
    std::string value;
    bool inAnswer = false; // the value's text occurs in the answer
    struct Carrier
    {
        std::string toolCallId;
        std::string standing;
        std::optional<std::size_t> enteredOrdinal;
        int enteredEpoch = 0;
        std::optional<std::size_t> enteredMessage;
    };
    std::vector<Carrier> carriers;
};

struct Backtrack
{
    std::optional<std::string> answer; // WTF-8; nullopt: no final answer on record
    bool ledgerOnRecord = false;
    std::size_t factValuesConsidered = 0;       // string and number values of the final fold's fact assertions
    std::vector<BacktrackValue> values;         // in order of first occurrence in the answer
    std::vector<ContingentUse> contingent;      // contingent rows declared on the answer, in ledger order
    std::vector<std::string> undeclaredAtFinal; // results served to the final call that the model never declared
    std::optional<std::size_t> finalOrdinal;    // the call whose output is the answer (the last ended turn's last call)
    bool finalHistoryOnRecord = false;          // that call's conversation is on record (resultMessage can be absent)
    // Every conflict the final fold holds ("kind/id · predicate"), in fold order: disagreements no later standing
    // resolved by the time the answer was given.
    std::vector<std::string> conflictsAtFinal;
    // One paragraph that says, explicitly, what the answer rests on: fact values, or none; contingent values;
    // undeclared results. Plain text (WTF-8), for the report and the CLI.
    std::vector<std::string> statements;
    // Caveats on single sources (a value in conflict, a value its result does not hold, a result not in the history).
    std::vector<std::string> details;
};

// Traces the run's final answer (Run::finalAnswer) through the final ledger (Run::finalLedger, else the ledger at
// the last call).
Backtrack backtrackAnswer(const recording::Run &run);
// The same for any answer text, e.g. a response the reviewer points at.
Backtrack backtrackAnswer(const recording::Run &run, std::optional<std::string_view> answer);

// Where `value` occurs in `text` as a whole token: not inside a longer word or number (an ASCII letter or digit on
// the far side of either edge that is itself a letter or digit). npos when it does not.
std::size_t findWholeValue(std::string_view text, std::string_view value);

} // namespace tf::report
