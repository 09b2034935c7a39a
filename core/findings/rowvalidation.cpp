#include "ledgerfold.h"

#include "jsstring.h"

namespace tf::findings {

namespace {

// "a number", "an object", "null": a type named for a sentence.
std::string aType(json::Type t)
{
    if (t == json::Type::Null)
        return "null";
    const std::string name = json::typeName(t);
    return (name[0] == 'a' || name[0] == 'o' ? "an " : "a ") + name;
}

// "an \"assertions\" array", "a \"carriers\" array".
std::string anArray(std::string_view key)
{
    const bool vowel = !key.empty() && std::string_view("aeiou").find(key[0]) != std::string_view::npos;
    return std::string(vowel ? "an \"" : "a \"") + std::string(key) + "\" array";
}

// Collects the type breaks of one row. The checks follow what the readers of spec/findings.md touch (§1.8) and
// the types §1.2 to §1.7 give; a field the library writes as a string and a reader interpolates must be a string
// (§9.4), a field a reader iterates must be an array.
class RowChecker
{
public:
    RowChecker(std::vector<RowIssue> &issues, std::size_t index, const json::Value &row, RowKind kind)
        : m_issues(issues)
        , m_index(index)
        , m_row(row)
        , m_kind(rowKindName(kind))
    {
    }

    void report(const std::string &what) { m_issues.push_back(RowIssue{m_index, m_kind + " row " + what}); }

    void requireString(const json::Value *obj, std::string_view key, const std::string &where = {})
    {
        const json::Value *v = member(obj, key);
        if (!v)
            report(where + "without a string \"" + std::string(key) + "\"");
        else if (!v->isString())
            report(where + "with " + aType(v->type()) + " \"" + std::string(key) + "\", not a string");
    }

    void optionalString(const json::Value *obj, std::string_view key, const std::string &where = {})
    {
        if (const json::Value *v = member(obj, key); v && !v->isString())
            report(where + "with " + aType(v->type()) + " \"" + std::string(key) + "\", not a string");
    }

    const json::Value *requireArray(std::string_view key)
    {
        const json::Value *v = m_row.find(key);
        if (!v)
            report("without " + anArray(key));
        else if (!v->isArray())
            report("with " + aType(v->type()) + " \"" + std::string(key) + "\", not an array");
        return v && v->isArray() ? v : nullptr;
    }

    const json::Value *optionalArray(std::string_view key)
    {
        const json::Value *v = m_row.find(key);
        if (v && !v->isArray())
            report("with " + aType(v->type()) + " \"" + std::string(key) + "\", not an array");
        return v && v->isArray() ? v : nullptr;
    }

    bool requireObject(const json::Value &v, const std::string &where)
    {
        if (v.isObject())
            return true;
        report("with " + where + " " + aType(v.type()) + ", not an object");
        return false;
    }

    const json::Value &row() const { return m_row; }

private:
    std::vector<RowIssue> &m_issues;
    std::size_t m_index;
    const json::Value &m_row;
    std::string m_kind;
};

std::string nth(std::string_view what, std::size_t i)
{
    return std::string(what) + " " + std::to_string(i);
}

void checkStanding(RowChecker &c)
{
    c.requireString(&c.row(), "toolCallId");
    c.requireString(&c.row(), "standing");
    for (const char *key : {"toolName", "ref", "line", "settles"})
        c.optionalString(&c.row(), key);
    const json::Value *assertions = c.requireArray("assertions");
    if (!assertions)
        return;
    for (std::size_t i = 0; i < assertions->size(); ++i) {
        const json::Value &a = assertions->at(i);
        const std::string where = nth("assertion", i);
        if (!c.requireObject(a, where))
            continue;
        const json::Value *subject = a.find("subject");
        if (!subject || !subject->isObject()) {
            c.report("with " + where + " lacking a \"subject\" object");
        } else {
            c.requireString(subject, "kind", "with " + where + " subject ");
            c.requireString(subject, "id", "with " + where + " subject ");
        }
        c.requireString(&a, "predicate", "with " + where + " ");
        if (const json::Value *epoch = a.find("epoch"); epoch && !epoch->isNumber())
            c.report("with " + where + " carrying " + aType(epoch->type()) + " \"epoch\", not a number");
    }
}

void checkContingent(RowChecker &c)
{
    const json::Value *declaredOn = c.row().find("declaredOn");
    if (!isString(declaredOn, "answer") && !(declaredOn && declaredOn->isObject()))
        c.report("whose \"declaredOn\" is neither \"answer\" nor an object");
    else if (declaredOn->isObject())
        c.requireString(declaredOn, "toolCallId", "with a \"declaredOn\" ");
    c.requireString(&c.row(), "value");
    const json::Value *carriers = c.requireArray("carriers");
    if (!carriers)
        return;
    for (std::size_t i = 0; i < carriers->size(); ++i) {
        const json::Value &carrier = carriers->at(i);
        const std::string where = nth("carrier", i);
        if (!c.requireObject(carrier, where))
            continue;
        c.requireString(&carrier, "toolCallId", "with " + where + " ");
        c.requireString(&carrier, "standing", "with " + where + " ");
    }
}

void checkUnsettled(RowChecker &c)
{
    c.requireString(&c.row(), "toolCallId");
    c.optionalString(&c.row(), "tryInstead");
    for (const char *key : {"notChecked", "cannotCover"}) {
        const json::Value *items = c.optionalArray(key);
        if (!items)
            continue;
        for (std::size_t i = 0; i < items->size(); ++i) {
            const json::Value &item = items->at(i);
            const std::string where = std::string(key) + " item " + std::to_string(i);
            if (!c.requireObject(item, where))
                continue;
            c.requireString(&item, "what", "with " + where + " ");
            c.optionalString(&item, "why", "with " + where + " ");
        }
    }
}

} // namespace

std::vector<RowIssue> validateRows(const json::Value &rows)
{
    std::vector<RowIssue> issues;
    if (!rows.isArray()) {
        issues.push_back(RowIssue{kLedgerIssue, "the ledger is " + aType(rows.type()) + ", not an array"});
        return issues;
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const json::Value &row = rows.at(i);
        if (!row.isObject()) {
            issues.push_back(RowIssue{i, "row is " + aType(row.type()) + ", not an object"});
            continue;
        }
        const RowKind kind = rowKindOf(row);
        RowChecker c(issues, i, row, kind);
        switch (kind) {
        case RowKind::Standing:
            checkStanding(c);
            break;
        case RowKind::Basis:
            c.requireString(&row, "toolCallId");
            c.optionalString(&row, "proposition");
            break;
        case RowKind::Judgment:
            c.requireString(&row, "toolCallId");
            break;
        case RowKind::Contingent:
            checkContingent(c);
            break;
        case RowKind::UnsettledByAbsence:
            checkUnsettled(c);
            break;
        case RowKind::Conflict:
            c.requireString(&row, "key");
            break;
        case RowKind::JudgmentError:
        case RowKind::Unknown:
            break; // no reader of this document touches their fields
        }
    }
    return issues;
}

} // namespace tf::findings
