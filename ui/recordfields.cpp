#include "recordfields.h"

#include "qtstrings.h"

#include "core/json/writer.h"

#include <QCoreApplication>

namespace tf::ui {

namespace {

class FieldText
{
    Q_DECLARE_TR_FUNCTIONS(tf::ui::LedgerModel)

public:
    static QString with(const QString &id) { return tr("with %1").arg(id); }
    static QString settles(const QString &s) { return tr("settles: %1").arg(s); }
    static QString tested(const QString &s) { return tr("tests: %1").arg(s); }
    static QString predicts(const QString &s) { return tr("predicts: %1").arg(s); }
    static QString undefinedValue() { return QStringLiteral("undefined"); }
    static QString notChecked(const QString &s) { return tr("not checked: %1").arg(s); }
    static QString cannotCover(const QString &s) { return tr("cannot cover: %1").arg(s); }
    static QString tryInstead(const QString &s) { return tr("try instead: %1").arg(s); }
    static QString witnesses(const QString &s) { return tr("witnesses: %1").arg(s); }
    static QString confidence(const QString &s) { return tr("confidence %1").arg(s); }
    static QString from(const QString &s) { return tr("from %1").arg(s); }
    static QString basis() { return tr("basis"); }
    static QString expects(const QString &basis, const QString &e) { return tr("%1, expects %2").arg(basis, e); }
    static QString contingent() { return tr("contingent"); }
    static QString conflict() { return tr("conflict"); }
    static QString judged(const QString &s) { return tr("judge: %1").arg(s); }
    static QString judgeError() { return tr("judge error"); }
    static QString unsettled() { return tr("unsettled"); }
    static QString ignoredKind(const QString &k) { return tr("“%1” (ignored)").arg(k); }
};

QString str(const json::Value &v, std::string_view key)
{
    const json::Value *s = v.findString(key);
    return s ? toQString(s->asString()) : QString();
}

QString assertionText(const json::Value &a)
{
    QString subject;
    if (const json::Value *s = a.findObject("subject"))
        subject = str(*s, "kind") + QLatin1Char('/') + str(*s, "id");
    const json::Value *value = a.find("value");
    QString out = subject + QStringLiteral(" · ") + str(a, "predicate") + QStringLiteral(" = ") +
                  (value ? compactJson(*value) : FieldText::undefinedValue());
    if (const json::Value *stratum = a.findString("stratum"); stratum && stratum->asString() == "quoted")
        out += QStringLiteral(" (quoted)");
    return out;
}

QString coverage(const json::Value *items)
{
    QStringList out;
    if (items && items->isArray())
        for (const json::Value &i : *items) {
            QString what = str(i, "what");
            if (const QString why = str(i, "why"); !why.isEmpty())
                what += QStringLiteral(" — ") + why;
            out << what;
        }
    return out.join(QStringLiteral("; "));
}

} // namespace

QString compactJson(const json::Value &value)
{
    return toQString(json::stringify(value));
}

LedgerRowFields ledgerRowFields(const json::Value &row)
{
    LedgerRowFields f;
    if (!row.isObject()) {
        f.detail = compactJson(row);
        return f;
    }
    f.kind = str(row, "kind");
    f.resultId = str(row, "toolCallId");
    f.tool = str(row, "toolName");
    if (const json::Value *it = row.findNumber("iteration"))
        f.iteration = it->asNumber();
    if (const json::Value *on = row.find("declaredOn")) {
        if (on->isString())
            f.declaredOn = toQString(on->asString());
        else if (on->isObject())
            f.declaredOn = FieldText::with(str(*on, "toolCallId"));
    }
    if (const json::Value *u = row.find("unknownId"); u && u->isBool() && u->asBool())
        f.unknownId = true;

    QStringList detail;
    const std::string_view kind = row.findString("kind") ? row.findString("kind")->asString() : std::string_view{};
    if (kind == "standing") {
        f.standing = str(row, "standing");
        if (const QString line = str(row, "line"); !line.isEmpty())
            detail << line;
        if (const json::Value *as = row.findArray("assertions"))
            for (const json::Value &a : *as)
                detail << assertionText(a);
        if (const QString s = str(row, "settles"); !s.isEmpty())
            detail << FieldText::settles(s);
    } else if (kind == "basis") {
        f.standing = FieldText::basis();
        QString basis = str(row, "basis");
        if (const QString expect = str(row, "expect"); !expect.isEmpty())
            basis = FieldText::expects(basis, expect);
        if (const QString p = str(row, "proposition"); !p.isEmpty())
            detail << FieldText::tested(p);
        detail << basis;
        if (const QString p = str(row, "predicts"); !p.isEmpty())
            detail << FieldText::predicts(p);
    } else if (kind == "contingent") {
        f.standing = FieldText::contingent();
        detail << str(row, "value");
        QStringList carriers, ids;
        if (const json::Value *cs = row.findArray("carriers"))
            for (const json::Value &c : *cs) {
                carriers << str(c, "toolCallId") + QStringLiteral(" (") + str(c, "standing") + QLatin1Char(')');
                ids << str(c, "toolCallId");
            }
        if (!carriers.isEmpty())
            detail << FieldText::from(carriers.join(QStringLiteral(", ")));
        if (f.resultId.isEmpty())
            f.resultId = ids.join(QStringLiteral(", "));
    } else if (kind == "conflict") {
        f.standing = FieldText::conflict();
        // The key is kind NUL id NUL predicate NUL epoch (spec/findings.md §2.1); shown as an assertion's subject.
        const QStringList parts = str(row, "key").split(QChar(0));
        QString key = parts.value(0) + QLatin1Char('/') + parts.value(1) + QStringLiteral(" · ") + parts.value(2);
        if (!parts.value(3).isEmpty())
            key += QStringLiteral(" · epoch ") + parts.value(3);
        if (parts.size() != 4)
            key = parts.join(QStringLiteral(" · "));
        detail << key;
        QStringList ws, ids;
        if (const json::Value *w = row.findArray("witnesses"))
            for (const json::Value &x : *w) {
                ws << str(x, "toolCallId");
                ids << str(x, "toolCallId");
            }
        if (!ws.isEmpty())
            detail << FieldText::witnesses(ws.join(QStringLiteral(", ")));
        if (f.resultId.isEmpty())
            f.resultId = ids.join(QStringLiteral(", "));
    } else if (kind == "judgment") {
        f.standing = FieldText::judged(str(row, "standing"));
        if (const json::Value *c = row.findNumber("confidence"))
            detail << FieldText::confidence(compactJson(*c));
        if (const QString against = str(row, "against"); !against.isEmpty())
            detail << against;
    } else if (kind == "judgment-error") {
        f.standing = FieldText::judgeError();
        detail << str(row, "message");
    } else if (kind == "unsettled-by-absence") {
        f.standing = FieldText::unsettled();
        if (const QString s = coverage(row.find("notChecked")); !s.isEmpty())
            detail << FieldText::notChecked(s);
        if (const QString s = coverage(row.find("cannotCover")); !s.isEmpty())
            detail << FieldText::cannotCover(s);
        if (const QString s = str(row, "tryInstead"); !s.isEmpty())
            detail << FieldText::tryInstead(s);
    } else {
        f.standing = FieldText::ignoredKind(f.kind);
        detail << compactJson(row);
    }
    f.detail = detail.join(QStringLiteral("; "));
    return f;
}

MessageFields messageFields(const json::Value &message, MessageContent content)
{
    MessageFields f;
    if (!message.isObject()) {
        f.content = compactJson(message);
        return f;
    }
    f.role = str(message, "role");
    f.toolCallId = str(message, "toolCallId");
    f.toolName = str(message, "toolName");
    if (const json::Value *c = message.find("content")) {
        f.contentIsText = c->isString();
        std::string scratch;
        if (content == MessageContent::Include)
            f.content = c->isString() ? toQString(c->stringView(scratch)) : toQString(json::prettyPrint(*c));
    }
    if (const json::Value *calls = message.findArray("toolCalls")) {
        for (const json::Value &c : *calls)
            f.toolCalls << str(c, "name") + QLatin1Char('(') + str(c, "id") + QLatin1Char(')');
        f.toolCallsJson = toQString(json::prettyPrint(*calls));
    }
    return f;
}

} // namespace tf::ui
