// Fuzz target: the findings row reader and piece composition. The input is one JSON value: a rows array, or an
// object {rows, served?, messages?} as in the conformance vectors. It runs validateRows, foldLedger,
// composeFindingsPiece under both answer asks (checking the piece's structure against its text), collapseJudged in
// both serve modes and offeredResultIds, over the given messages and over synthetic messages: one tool result per
// row's toolCallId and per served id.

#include "fuzz_common.h"

#include "core/findings/collapse.h"
#include "core/findings/findingspiece.h"
#include "core/findings/ledgerfold.h"
#include "core/json/writer.h"

using namespace tf;

namespace {

json::Value syntheticMessages(const json::Value &rows, const std::vector<std::string> &served)
{
    json::Value messages = json::Value::array();
    json::Value user = json::Value::object();
    user.set("role", json::Value::string("user"));
    user.set("content", json::Value::string("question"));
    messages.push_back(user);
    auto addResult = [&](const json::Value &id) {
        json::Value m = json::Value::object();
        m.set("role", json::Value::string("tool"));
        m.set("toolCallId", id);
        m.set("content", json::Value::string("result <b>bold</b>"));
        messages.push_back(std::move(m));
    };
    for (const json::Value &row : rows)
        if (const json::Value *id = row.find("toolCallId"))
            addResult(*id);
    for (const std::string &id : served)
        addResult(json::Value::string(id));
    return messages;
}

void checkPiece(const std::optional<findings::FindingsPiece> &piece)
{
    if (!piece)
        return;
    const std::string broken = findings::checkPieceStructure(*piece);
    if (!broken.empty())
        std::fprintf(stderr, "piece structure: %s\n", broken.c_str());
    TF_FUZZ_CHECK(broken.empty());
    TF_FUZZ_CHECK(piece->sizeUtf8() >= piece->lengthU16() / 2);
}

void checkCollapse(const json::Value &messages, const json::Value *rows, findings::ServeMode mode)
{
    const findings::CollapseResult result = findings::collapseJudged(messages, rows, mode);
    TF_FUZZ_CHECK(result.changed.size() == result.collapsed.size());
    TF_FUZZ_CHECK(result.sameArray == result.changed.empty());
    TF_FUZZ_CHECK(result.messages.size() == messages.size());
    for (const findings::CollapsedMessage &c : result.collapsed)
        TF_FUZZ_CHECK(c.index < messages.size() && result.messages.at(c.index).findString("content"));
    // Collapsing twice is a no-op (§5: a ticket already in place is left alone).
    if (!result.sameArray) {
        const findings::CollapseResult again = findings::collapseJudged(result.messages, rows, mode);
        TF_FUZZ_CHECK(again.sameArray);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    fuzz::Document doc;
    fuzz::parseDocument(fuzz::asText(data, size), doc);
    if (!doc.ok)
        return 0;
    const json::Value *rows = nullptr;
    const json::Value *messages = nullptr;
    std::vector<std::string> served;
    if (doc.root.isArray()) {
        rows = &doc.root;
    } else if (doc.root.isObject()) {
        rows = doc.root.find("rows"); // any type: a non-array ledger is reported, never read
        messages = doc.root.findArray("messages");
        if (const json::Value *ids = doc.root.findArray("served"))
            for (const json::Value &id : *ids)
                if (id.isString())
                    served.emplace_back(id.asString());
    }
    if (!rows)
        return 0;

    const std::vector<findings::RowIssue> issues = findings::validateRows(*rows);
    if (!rows->isArray())
        TF_FUZZ_CHECK(!issues.empty());
    for (const findings::RowIssue &issue : issues)
        TF_FUZZ_CHECK(!issue.reason.empty() && (issue.index == findings::kLedgerIssue || issue.index < rows->size()));

    const findings::LedgerFold fold = findings::foldLedger(*rows);
    for (const findings::InsertionOrderedMap::Entry &e : fold.standingOf.entries())
        TF_FUZZ_CHECK(e.row && e.rowIndex < rows->size());
    (void)findings::undeclaredIds(served, fold);

    checkPiece(findings::composeFindingsPiece(rows, served, findings::AnswerAsk::None));
    checkPiece(findings::composeFindingsPiece(rows, served, findings::AnswerAsk::QuoteFacts));
    checkPiece(
        findings::composeFindingsPiece(rows, served, findings::AnswerAsk::QuoteFacts, findings::HeaderTable::Long));
    TF_FUZZ_CHECK(!findings::composeFindingsPiece(nullptr, served, findings::AnswerAsk::None));

    const json::Value synthetic = syntheticMessages(*rows, served);
    for (const json::Value *m : {messages, &synthetic}) {
        if (!m)
            continue;
        checkCollapse(*m, rows, findings::ServeMode::LedgerAndFacts);
        checkCollapse(*m, rows, findings::ServeMode::LedgerOnly);
        (void)findings::offeredResultIds(*m, rows);
        (void)findings::servedToolCallIds(*m);
    }
    return 0;
}
