#include "callinternals.h"
#include "numberconv.h"
#include "redaction.h"

#include "core/json/writer.h"
#include "core/receipt/messagedigest.h"
#include "core/receipt/partnames.h"
#include "core/receipt/receipthash.h"
#include "core/receipt/receiptnames.h"
#include "core/text/utf.h"

#include <algorithm>
#include <array>

namespace tf::recording::detail {

namespace {

// spec/recording.md §6.6, one call. Collects the §5.8 gaps first, because they decide pairing and excuses.
class ReceiptVerifier
{
public:
    ReceiptVerifier(const Run &run, CallView &view)
        : m_run(run)
        , m_view(view)
    {
    }
    void run();

private:
    void collectGaps();
    bool excused(const std::string &field) const
    {
        return std::any_of(m_view.gaps.begin(), m_view.gaps.end(),
                           [&](const Gap &g) { return g.kind == Gap::Kind::Excuse && g.covers(field); });
    }
    void add(std::string part, Badge badge, std::string reason)
    {
        m_view.checks.push_back({std::move(part), badge, std::move(reason)});
    }
    // What a rebuilt part that contradicts its receipt gets: Damaged, unless it was rebuilt from a placeholder the
    // run's redaction policy put there (§4 of spec/upstream-since-9.113.md): the receipt hashed the original.
    Badge mismatch(bool fromPlaceholder) const { return fromPlaceholder ? Badge::Redacted : Badge::Damaged; }
    static std::string mismatchReason(bool fromPlaceholder, const std::string &problem)
    {
        return fromPlaceholder ? "rebuilt from a value the redaction policy kept out, which the receipt hashed as it "
                                 "was (" +
                                     problem + ")"
                               : problem;
    }
    // Which rebuilt parts hold a placeholder; always false for a run without the redaction recorder row.
    bool placeholderPiece(const SystemPieceView &p) const
    {
        return m_run.servedUnderRedaction &&
               (p.text == "REDACTED" || p.text == "[REDACTED]" || (p.source == "findings" && m_placeholderLedger));
    }
    bool placeholderSystem() const
    {
        return std::any_of(m_view.systemPieces.begin(), m_view.systemPieces.end(),
                           [&](const SystemPieceView &p) { return placeholderPiece(p); });
    }
    bool placeholderMessage(std::size_t i) const
    {
        return m_run.servedUnderRedaction && holdsRedactionPlaceholder(m_view.asSent.at(i));
    }
    bool placeholderSchema(const ToolView &t) const
    {
        return m_run.servedUnderRedaction && t.schema && holdsRedactionPlaceholder(*t.schema);
    }
    bool placeholderAnywhere() const;
    // Facts of as-sent message i; memoised per run when it is a message as the file holds it (not collapsed or
    // stripped: those copies have no source).
    // The messages and the measurement both ask for every message: looked up once per verification.
    const MessageFactsCache::Facts &messageFacts(std::size_t i, bool withHash)
    {
        m_facts.resize(m_view.asSent.size());
        std::optional<MessageFactsCache::Facts> &f = m_facts[i][withHash ? 1 : 0];
        if (!f)
            f = m_run.messageFacts->get(m_view.asSent.at(i), m_run.source ? m_run.source->bytes() : std::string_view(),
                                        withHash ? std::string_view(m_salt) : std::string_view(),
                                        m_run.stringEnds.get());
        return *f;
    }
    // Hash comparison; nullopt when the receipt carries placeholders.
    std::optional<bool> hashMatches(std::string_view content, const json::Value *stored) const
    {
        if (m_placeholder || !stored || !stored->isString())
            return std::nullopt;
        return receipt::receiptHash(m_salt, content) == stored->asString();
    }
    void unwitnessedRows(Badge badge, const std::string &reason);
    void verifySystem(const json::Value &receipt);
    void verifyMessages(const json::Value &receipt);
    void verifyTools(const json::Value &receipt);
    void verifyMeasurement(const json::Value &receipt);

    const Run &m_run;
    CallView &m_view;
    const json::Value *m_receipt = nullptr;
    bool m_placeholder = false;
    bool m_placeholderLedger = false; // the findings piece was composed from a ledger holding a placeholder
    std::string m_salt;
    std::vector<std::array<std::optional<MessageFactsCache::Facts>, 2>> m_facts; // by message, without/with hash
};

void ReceiptVerifier::collectGaps()
{
    const CallRecord &rec = *m_view.record;
    if (rec.basis == FoldBasis::LogOnly || rec.basis == FoldBasis::SubflowLogs)
        m_view.gaps.push_back(noFoldBaseGap());
    if (!m_view.conversationOnRecord)
        m_view.gaps.push_back(noConversationGap());
    if (rec.basis == FoldBasis::EventsOnly && m_run.hasSnapshot && !m_run.snapshotRunId.empty() &&
        rec.runId != m_run.snapshotRunId)
        m_view.gaps.push_back(earlierRunGap());
    else if (rec.basis == FoldBasis::EventsOnly || rec.basis == FoldBasis::SubflowLogs)
        m_view.gaps.push_back(noRunLogGap());
    if (!m_view.receiptAfter) {
        m_view.gaps.push_back(noReceiptGap("no-receipt-committed"));
    } else if (!usableReceipt(m_view)) {
        m_view.gaps.push_back(noReceiptGap("receipt-shape-rejected"));
    }
    const json::Value *receipt = usableReceipt(m_view);
    const json::Value *cache = receipt ? receipt->findObject("cache") : nullptr;
    const json::Value *strategy = cache ? cache->find("strategy") : nullptr;
    if (!(strategy && strategy->isNull()))
        m_view.gaps.push_back(cacheTransformGap());
    if (receipt)
        m_view.gaps.push_back(providerDefaultsGap());
    if (m_view.forcedTool)
        m_view.gaps.push_back(forcedToolSchemaGap());
}

void ReceiptVerifier::unwitnessedRows(Badge badge, const std::string &reason)
{
    add(std::string(receipt::kSystemTextPart), m_view.systemOnRecord ? badge : Badge::NotOnRecord,
        m_view.systemOnRecord ? reason : "the system text is not on record: " + m_view.systemNote);
    for (std::size_t i = 0; i < m_view.systemPieces.size(); ++i)
        add(receipt::systemPiecePart(i), badge, reason);
    if (m_view.conversationOnRecord)
        for (std::size_t i = 0; i < m_view.asSent.size(); ++i)
            add(receipt::messagePart(i), badge, reason);
    add(std::string(receipt::kToolNamesPart), m_view.toolsOnRecord ? badge : Badge::NotOnRecord, reason);
    for (const ToolView &t : m_view.tools)
        add(receipt::toolSchemaPart(t.name), t.schema ? badge : Badge::NotOnRecord,
            t.schema ? reason : "the schema is not on record");
}

void ReceiptVerifier::verifySystem(const json::Value &receipt)
{
    const json::Value *system = receipt.findObject("system");
    const json::Value *pieces = system ? system->findArray("pieces") : nullptr;
    // System text: chars (structure) and hash.
    if (!m_view.systemOnRecord) {
        add(std::string(receipt::kSystemTextPart), Badge::NotOnRecord,
            "the system text is not on record: " + m_view.systemNote);
    } else {
        std::string problem;
        const json::Value *chars = system ? system->findNumber("chars") : nullptr;
        const std::size_t lengthU16 = text::lengthU16(m_view.systemText);
        if (!chars)
            problem = "the receipt has no system.chars";
        else if (toCount(chars->asNumber()) != lengthU16)
            problem = "rebuilt " + std::to_string(lengthU16) + " units, receipt says " + json::stringify(*chars);
        const auto hash = hashMatches(m_view.systemText, system ? system->find("hash") : nullptr);
        if (problem.empty() && hash == false)
            problem = "the hash of the rebuilt text differs from system.hash";
        if (!problem.empty() && excused("system.hash"))
            add(std::string(receipt::kSystemTextPart), Badge::Reconstructed,
                problem + " (excused: the rebuild may be short)");
        else if (!problem.empty())
            add(std::string(receipt::kSystemTextPart), mismatch(placeholderSystem()),
                mismatchReason(placeholderSystem(), problem));
        else if (!hash)
            add(std::string(receipt::kSystemTextPart), Badge::Reconstructed,
                "length matches system.chars; hashes are placeholders");
        else
            add(std::string(receipt::kSystemTextPart), Badge::Verified, "hash and length match the receipt");
    }
    // Pieces: by index, or by (slot, source) when the rebuild may be short.
    const bool byKind = excused("system.pieces");
    std::vector<bool> used(pieces ? pieces->size() : 0, false);
    for (std::size_t i = 0; i < m_view.systemPieces.size(); ++i) {
        const SystemPieceView &p = m_view.systemPieces[i];
        const json::Value *paired = nullptr;
        if (pieces) {
            if (!byKind) {
                if (i < pieces->size()) {
                    paired = &pieces->at(i);
                    used[i] = true;
                }
            } else {
                for (std::size_t j = 0; j < pieces->size(); ++j) {
                    const json::Value &r = pieces->at(j);
                    const json::Value *slot = r.findString("slot");
                    const json::Value *source = r.findString("source");
                    if (!used[j] && slot && source && slot->asString() == p.slot && source->asString() == p.source) {
                        paired = &r;
                        used[j] = true;
                        break;
                    }
                }
            }
        }
        const std::string part = receipt::systemPiecePart(i);
        if (!paired) {
            add(part, Badge::Damaged, "the receipt has no piece to pair with this " + p.source + " piece");
            continue;
        }
        const json::Value *slot = paired->findString("slot");
        const json::Value *source = paired->findString("source");
        if (!slot || !source || slot->asString() != p.slot || source->asString() != p.source) {
            add(part, Badge::Damaged,
                "the receipt lists another piece here (" + std::string(source ? source->asString() : "?") + ")");
            continue;
        }
        const auto hash = hashMatches(p.text, paired->find("hash"));
        if (hash == false)
            add(part, mismatch(placeholderPiece(p)),
                mismatchReason(placeholderPiece(p),
                               "the hash of the rebuilt " + p.source + " piece differs from the receipt"));
        else if (!hash)
            add(part, Badge::Reconstructed, "slot and source match; hashes are placeholders");
        else
            add(part, Badge::Verified, "hash matches the receipt");
    }
    for (std::size_t j = 0; j < used.size(); ++j) {
        if (used[j])
            continue;
        const json::Value *source = pieces->at(j).findString("source");
        const std::string what = "on receipt only: a " + std::string(source ? source->asString() : "?") +
                                 " piece the rebuild does not produce";
        add("receipt.system.pieces" + std::string("[") + std::to_string(j) + "]",
            byKind ? Badge::NotOnRecord : Badge::Damaged, what);
    }
}

void ReceiptVerifier::verifyMessages(const json::Value &receipt)
{
    if (!m_view.conversationOnRecord)
        return;
    const json::Value *messages = receipt.findObject("messages");
    const json::Value *entries = messages ? messages->findArray("entries") : nullptr;
    const json::Value *requestOnly = messages ? messages->findArray("requestOnly") : nullptr;
    const std::size_t requestOnlyCount = requestOnly ? requestOnly->size() : 0;
    const bool mayBeShort = excused("messages.entries");
    if (const json::Value *count = messages ? messages->findNumber("count") : nullptr) {
        const std::size_t rebuilt = m_view.asSent.size() + requestOnlyCount;
        if (toCount(count->asNumber()) != rebuilt)
            add("messages.count", excused("messages.count") ? Badge::Reconstructed : Badge::Damaged,
                "rebuilt " + std::to_string(rebuilt) + " (with request-only lines), receipt says " +
                    json::stringify(*count));
    }
    const std::size_t entryCount = entries ? entries->size() : 0;
    std::vector<bool> used(entryCount, false);
    std::vector<std::optional<std::size_t>> pairing(m_view.asSent.size());
    const auto roleOf = [](const json::Value &v) {
        const json::Value *role = v.findString("role");
        return role ? role->asString() : std::string_view();
    };
    if (!mayBeShort) {
        for (std::size_t i = 0; i < pairing.size() && i < entryCount; ++i) {
            pairing[i] = i;
            used[i] = true;
        }
    } else {
        // The rebuild may be a suffix of what went out: pair by key first, then by suffix offset with equal role.
        for (std::size_t i = 0; i < pairing.size(); ++i) {
            const json::Value *id = m_view.asSent.at(i).findString("toolCallId");
            if (!id)
                continue;
            for (std::size_t j = 0; j < entryCount; ++j) {
                const json::Value *key = entries->at(j).findString("key");
                if (!used[j] && key && key->asString() == id->asString()) {
                    pairing[i] = j;
                    used[j] = true;
                    break;
                }
            }
        }
        const std::ptrdiff_t offset = std::ptrdiff_t(entryCount) - std::ptrdiff_t(pairing.size());
        for (std::size_t i = 0; i < pairing.size(); ++i) {
            const std::ptrdiff_t j = std::ptrdiff_t(i) + offset;
            if (pairing[i] || j < 0 || std::size_t(j) >= entryCount || used[std::size_t(j)])
                continue;
            if (roleOf(entries->at(std::size_t(j))) == roleOf(m_view.asSent.at(i))) {
                pairing[i] = std::size_t(j);
                used[std::size_t(j)] = true;
            }
        }
    }
    for (std::size_t i = 0; i < pairing.size(); ++i) {
        const json::Value &m = m_view.asSent.at(i);
        const std::string part = receipt::messagePart(i);
        if (!pairing[i]) {
            add(part, Badge::Damaged, "the receipt has no entry to pair with this message");
            continue;
        }
        const json::Value &entry = entries->at(*pairing[i]);
        if (roleOf(entry) != roleOf(m)) {
            add(part, Badge::Damaged, "the receipt entry has role " + std::string(roleOf(entry)));
            continue;
        }
        const json::Value *key = entry.findString("key");
        const json::Value *id = m.find("toolCallId");
        const bool keyOk = id ? (key && id->isString() && key->asString() == id->asString()) : !key;
        if (!keyOk) {
            add(part, Badge::Damaged, "the receipt entry's key does not match the message's toolCallId");
            continue;
        }
        const json::Value *stored = entry.find("hash");
        std::optional<bool> hash;
        if (!m_placeholder && stored && stored->isString())
            hash = messageFacts(i, true).hash == stored->asString();
        if (hash == false)
            add(part, mismatch(placeholderMessage(i)),
                mismatchReason(placeholderMessage(i), "the message differs from what the receipt hashed"));
        else if (!hash)
            add(part, Badge::Reconstructed, "role and key match; hashes are placeholders");
        else
            add(part, Badge::Verified, "hash matches the receipt");
    }
    for (std::size_t j = 0; j < entryCount; ++j)
        if (!used[j])
            add("receipt.messages.entries[" + std::to_string(j) + "]", mayBeShort ? Badge::NotOnRecord : Badge::Damaged,
                "on receipt only: a message the rebuild does not produce");
    for (std::size_t j = 0; j < requestOnlyCount; ++j) {
        const json::Value *reason = requestOnly->at(j).findString("reason");
        const std::string mechanism =
            !reason ? "no reason"
            : receipt::isKnownRequestOnlyReason(reason->asString())
                ? std::string(reason->asString())
                : std::string(reason->asString()) + ", a mechanism this version does not know";
        add("messages.requestOnly[" + std::to_string(j) + "]", Badge::NotOnRecord,
            "a line composed for this request only (" + mechanism + "); its text is not on record");
    }
}

void ReceiptVerifier::verifyTools(const json::Value &receipt)
{
    const json::Value *tools = receipt.findObject("tools");
    const json::Value *names = tools ? tools->findArray("names") : nullptr;
    const json::Value *hashes = tools ? tools->findObject("schemaHashes") : nullptr;
    std::vector<std::string> receiptNames;
    if (names)
        for (const json::Value &n : *names)
            receiptNames.emplace_back(n.asString());
    const std::vector<std::string> rebuilt = toolNames(m_view);
    std::string problem;
    for (const std::string &n : rebuilt)
        if (std::find(receiptNames.begin(), receiptNames.end(), n) == receiptNames.end())
            problem = "the receipt does not list " + n;
    if (problem.empty() && !excused("tools.names"))
        for (const std::string &n : receiptNames)
            if (std::find(rebuilt.begin(), rebuilt.end(), n) == rebuilt.end())
                problem = "the rebuild does not offer " + n;
    if (problem.empty() && !excused("tools.names") && rebuilt != receiptNames)
        problem = "the names are in another order";
    if (!problem.empty())
        add(std::string(receipt::kToolNamesPart), Badge::Damaged, problem);
    else
        add(std::string(receipt::kToolNamesPart), Badge::Reconstructed,
            "names agree with the receipt (names are never hashed)");
    for (const ToolView &t : m_view.tools) {
        const std::string part = receipt::toolSchemaPart(t.name);
        if (!t.schema) {
            add(part, Badge::NotOnRecord,
                t.name == m_view.forcedTool ? "the forced tool's schema is not on record"
                                            : "the schema is not on record");
            continue;
        }
        const json::Value *stored = hashes ? hashes->find(t.name) : nullptr;
        if (!stored) {
            add(part, Badge::Damaged, "the receipt has no schema hash for " + t.name);
            continue;
        }
        const auto hash = hashMatches(json::sortedKeyJson(*t.schema), stored);
        if (hash == false)
            add(part, mismatch(placeholderSchema(t)),
                mismatchReason(placeholderSchema(t), "the schema differs from what the receipt hashed"));
        else if (!hash)
            add(part, Badge::Reconstructed, "a schema hash is on record; hashes are placeholders");
        else
            add(part, Badge::Verified, "hash matches the receipt");
    }
}

void ReceiptVerifier::verifyMeasurement(const json::Value &receipt)
{
    const json::Value *measurement = receipt.findObject("requestMeasurement");
    if (!measurement) {
        add("requestMeasurement", Badge::NotOnRecord, "the receipt carries no request measurement");
        return;
    }
    const json::Value *status = measurement->findString("status");
    const json::Value *slots = measurement->findObject("slots");
    if (!status || status->asString() != "measured" || !slots || !m_view.systemOnRecord ||
        !m_view.conversationOnRecord) {
        add("requestMeasurement", Badge::NotOnRecord, "the measurement is unavailable or cannot be recomputed");
        return;
    }
    // jsonChars / jsonBytes of the JSON text of each slot, as the prepared request serialised it.
    const auto measure = [](const std::string &jsonText) {
        return std::pair<std::size_t, std::size_t>(text::lengthU16(jsonText), jsonText.size());
    };
    // The messages array's JSON size from each message's (memoised) size: brackets plus a comma between items.
    const auto measureMessages = [&] {
        const std::size_t count = m_view.asSent.size();
        std::pair<std::size_t, std::size_t> total{2 + (count ? count - 1 : 0), 2 + (count ? count - 1 : 0)};
        for (std::size_t i = 0; i < count; ++i) {
            const auto f = messageFacts(i, !m_placeholder);
            total.first += f.jsonChars;
            total.second += f.jsonBytes;
        }
        return total;
    };
    json::Value schemas = json::Value::array();
    for (const ToolView &t : m_view.tools)
        if (t.schema)
            schemas.push_back(*t.schema);
    // The system text quoted is measured without being written (tens of kilobytes a call, with its findings piece).
    const json::JsStringSize system = json::jsStringSize(m_view.systemText);
    const std::pair<std::string, std::pair<std::size_t, std::size_t>> rebuilt[] = {
        {"systemPrompt", {system.utf16Units, system.utf8Bytes}},
        {"messages", measureMessages()},
        {"tools", measure(json::stringify(schemas))},
    };
    std::string problem;
    for (const auto &[slot, figures] : rebuilt) {
        const json::Value *stored = slots->findObject(slot);
        const json::Value *chars = stored ? stored->findNumber("jsonChars") : nullptr;
        const json::Value *bytes = stored ? stored->findNumber("jsonBytes") : nullptr;
        if (!chars || !bytes)
            continue;
        if (toCount(chars->asNumber()) != figures.first || toCount(bytes->asNumber()) != figures.second)
            problem += (problem.empty() ? "" : "; ") + slot + " rebuilt " + std::to_string(figures.first) + "/" +
                       std::to_string(figures.second) + ", receipt " + json::stringify(*chars) + "/" +
                       json::stringify(*bytes);
    }
    if (problem.empty())
        add("requestMeasurement", Badge::Reconstructed, "slot sizes (units/bytes) match the rebuild");
    else if (excused("system.hash"))
        add("requestMeasurement", Badge::Reconstructed, "slot sizes differ: " + problem);
    else
        add("requestMeasurement", mismatch(placeholderAnywhere()),
            mismatchReason(placeholderAnywhere(), "slot sizes differ: " + problem));
}

bool ReceiptVerifier::placeholderAnywhere() const
{
    if (!m_run.servedUnderRedaction)
        return false;
    if (placeholderSystem())
        return true;
    for (std::size_t i = 0; m_view.conversationOnRecord && i < m_view.asSent.size(); ++i)
        if (placeholderMessage(i))
            return true;
    return std::any_of(m_view.tools.begin(), m_view.tools.end(),
                       [&](const ToolView &t) { return placeholderSchema(t); });
}

void ReceiptVerifier::run()
{
    collectGaps();
    m_placeholderLedger = m_run.servedUnderRedaction && m_view.piece && holdsRedactionPlaceholder(m_view.ledger);
    if (!m_view.receiptAfter) {
        m_view.receiptState = CallView::ReceiptState::None;
        unwitnessedRows(Badge::Reconstructed, "rebuilt from the record; no receipt was committed for this call");
        for (const char *field : {"basis", "params", "cache", "omittedForAttention", "requestMeasurement"})
            add(field, Badge::NotOnRecord, "no receipt is on record");
        return;
    }
    m_receipt = usableReceipt(m_view);
    if (!m_receipt) {
        m_view.receiptState = CallView::ReceiptState::Rejected;
        unwitnessedRows(Badge::Damaged, "the receipt key holds something that is not a receipt");
        m_view.damaged = true;
        return;
    }
    const json::Value *basis = m_receipt->findObject("basis");
    const json::Value *salt = basis ? basis->findString("runId") : nullptr;
    m_salt = salt ? salt->decodedString() : std::string();
    // Fixtures normalise volatile values and digests; never hash against them (§6.6 step 2).
    m_placeholder = !salt || salt->asString() == "<volatile>";
    const auto checkShape = [&](const json::Value *h) {
        if (h && !(h->isString() && receipt::isReceiptHashShaped(h->asString())))
            m_placeholder = true;
    };
    if (const json::Value *system = m_receipt->findObject("system")) {
        checkShape(system->find("hash"));
        if (const json::Value *pieces = system->findArray("pieces"))
            for (const json::Value &p : *pieces)
                checkShape(p.find("hash"));
    }
    if (const json::Value *messages = m_receipt->findObject("messages"))
        if (const json::Value *entries = messages->findArray("entries"))
            for (const json::Value &e : *entries)
                checkShape(e.find("hash"));
    m_view.receiptState = m_placeholder ? CallView::ReceiptState::Placeholder : CallView::ReceiptState::Hashed;
    if (m_placeholder)
        m_view.notes.push_back("receipt hashes are normalised in this file");

    const json::Value *epoch = basis->findNumber("epoch");
    if (toInt(epoch->asNumber()) != m_view.epoch)
        add("basis.epoch", excused("epoch") ? Badge::Reconstructed : Badge::Damaged,
            "the receipt names epoch " + json::stringify(*epoch) + " for call " + std::to_string(m_view.epoch));
    verifySystem(*m_receipt);
    verifyMessages(*m_receipt);
    verifyTools(*m_receipt);
    verifyMeasurement(*m_receipt);
    if (!m_receipt->contains("cache"))
        add("cache", Badge::NotOnRecord, "an older receipt without cache facts: cannot say");
    if (auto check = checkTransformHash(m_view, *m_receipt, m_salt, m_placeholder, placeholderAnywhere()))
        m_view.checks.push_back(std::move(*check));
}

} // namespace

const json::Value *usableReceipt(const CallView &view)
{
    if (!view.receiptAfter)
        return nullptr;
    const json::Value &r = *view.receiptAfter;
    const json::Value *basis = r.findObject("basis");
    if (!r.isObject() || !basis || !basis->findNumber("epoch"))
        return nullptr;
    return &r;
}

std::vector<std::string> toolNames(const CallView &view)
{
    std::vector<std::string> out;
    for (const ToolView &t : view.tools)
        out.push_back(t.name);
    return out;
}

void verifyReceipt(const Run &run, CallView &view)
{
    ReceiptVerifier(run, view).run();
    view.damaged = std::any_of(view.checks.begin(), view.checks.end(),
                               [](const PartCheck &c) { return c.badge == Badge::Damaged; });
}

} // namespace tf::recording::detail
