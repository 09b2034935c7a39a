#include "redaction.h"

namespace tf::recording {

bool listsRedactionRecorder(const json::Value &recorders)
{
    if (!recorders.isArray())
        return false;
    for (const json::Value &row : recorders)
        if (const json::Value *id = row.findString("id"); id && id->stringEquals(kRedactionRecorderId))
            return true;
    return false;
}

bool isRedactionPlaceholder(const json::Value &v)
{
    return v.isString() && (v.stringEquals("REDACTED") || v.stringEquals("[REDACTED]"));
}

bool holdsRedactionPlaceholder(const json::Value &v)
{
    if (v.isArray()) {
        for (const json::Value &item : v)
            if (holdsRedactionPlaceholder(item))
                return true;
        return false;
    }
    if (v.isObject()) {
        for (const json::Member *m = v.memberBegin(); m != v.memberEnd(); ++m)
            if (holdsRedactionPlaceholder(m->value))
                return true;
        return false;
    }
    return isRedactionPlaceholder(v);
}

Gap redactedRunGap()
{
    return {"redacted-run",
            Gap::Kind::Note,
            {},
            "",
            "This run was served under a redaction policy: a value that reads exactly REDACTED or [REDACTED] was "
            "kept out on purpose. The receipts hashed the original values, so a part rebuilt from a placeholder is "
            "shown as redacted, not verified and not damaged."};
}

} // namespace tf::recording
