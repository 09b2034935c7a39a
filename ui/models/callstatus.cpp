#include "ui/models/callstatus.h"

#include "ui/services/qtstrings.h"

namespace tf::ui {

using recording::Badge;
using recording::CacheVerdict;

CacheStatus cacheStatusOf(std::optional<bool> prefixReusable)
{
    if (!prefixReusable)
        return CacheStatus::Unknown;
    return *prefixReusable ? CacheStatus::Reusable : CacheStatus::Rewritten;
}

bool isCacheMiss(const recording::CallSummary &call)
{
    switch (call.verdict) {
    case CacheVerdict::Miss:
    case CacheVerdict::WriteOnly:
        return true;
    case CacheVerdict::Hit:
        return false;
    case CacheVerdict::Unmeasured:
        return call.prefixReusable == false;
    }
    return false;
}

Badge callBadge(const recording::CallSummary &call)
{
    if (call.damaged || call.damagedParts > 0)
        return Badge::Damaged;
    if (call.verified > 0)
        return Badge::Verified;
    if (call.reconstructed > 0)
        return Badge::Reconstructed;
    return Badge::NotOnRecord;
}

Glyph glyphFor(CacheStatus status)
{
    switch (status) {
    case CacheStatus::Reusable:
        return Glyph::CacheReusable;
    case CacheStatus::Rewritten:
        return Glyph::CacheRewritten;
    case CacheStatus::Unknown:
        return Glyph::CacheUnknown;
    }
    return Glyph::CacheUnknown;
}

Glyph glyphFor(Badge badge)
{
    switch (badge) {
    case Badge::Verified:
        return Glyph::Verified;
    case Badge::Reconstructed:
        return Glyph::Reconstructed;
    case Badge::Damaged:
        return Glyph::Damaged;
    case Badge::NotOnRecord:
    case Badge::Redacted: // kept out on purpose: as little on record as a part that never was
        return Glyph::NotOnRecord;
    }
    return Glyph::NotOnRecord;
}

QString StatusText::cacheStatus(CacheStatus status)
{
    switch (status) {
    case CacheStatus::Reusable:
        return tr("reusable");
    case CacheStatus::Rewritten:
        return tr("rewritten");
    case CacheStatus::Unknown:
        return tr("unknown");
    }
    return {};
}

QString StatusText::cacheStatusExplained(CacheStatus status)
{
    switch (status) {
    case CacheStatus::Reusable:
        return tr("Prefix reusable: tools and system block unchanged since the previous call");
    case CacheStatus::Rewritten:
        return tr("Prefix rewritten: the tools or the system block changed since the previous call");
    case CacheStatus::Unknown:
        return tr("Unknown: the first call, or the prefix of one of the two calls is not on record");
    }
    return {};
}

QString StatusText::badge(Badge badge)
{
    switch (badge) {
    case Badge::Verified:
        return tr("verified");
    case Badge::Reconstructed:
        return tr("reconstructed");
    case Badge::Damaged:
        return tr("damaged");
    case Badge::NotOnRecord:
        return tr("not on record");
    case Badge::Redacted:
        return tr("redacted");
    }
    return {};
}

QString StatusText::verdict(CacheVerdict verdict)
{
    switch (verdict) {
    case CacheVerdict::Hit:
        return tr("hit");
    case CacheVerdict::WriteOnly:
        return tr("write only (nothing read)");
    case CacheVerdict::Miss:
        return tr("miss");
    case CacheVerdict::Unmeasured:
        return tr("unmeasured (no usage reported)");
    }
    return {};
}

QString StatusText::verdictShort(CacheVerdict verdict)
{
    switch (verdict) {
    case CacheVerdict::Hit:
        return tr("hit");
    case CacheVerdict::WriteOnly:
        return tr("write only");
    case CacheVerdict::Miss:
        return tr("miss");
    case CacheVerdict::Unmeasured:
        return tr("unmeasured");
    }
    return {};
}

QString StatusText::gapKind(recording::Gap::Kind kind)
{
    switch (kind) {
    case recording::Gap::Kind::Excuse:
        return tr("excuse");
    case recording::Gap::Kind::Missing:
        return tr("missing");
    case recording::Gap::Kind::Caveat:
        return tr("caveat");
    case recording::Gap::Kind::Note:
        return tr("note");
    }
    return {};
}

QString StatusText::receiptState(recording::CallView::ReceiptState state)
{
    using S = recording::CallView::ReceiptState;
    switch (state) {
    case S::None:
        return tr("no receipt committed for this call");
    case S::Rejected:
        return tr("receipt present but its shape was rejected");
    case S::Placeholder:
        return tr("receipt with placeholder hashes: parts are rebuilt, not verified");
    case S::Hashed:
        return tr("receipt with hashes: each part is checked against them");
    }
    return {};
}

QString StatusText::shape(recording::RecordingShape shape)
{
    return toQString(std::string_view(recording::shapeDescription(shape)));
}

QString StatusText::foldBasis(recording::FoldBasis basis)
{
    return toQString(std::string_view(recording::foldBasisName(basis)));
}

QString StatusText::notOnRecord()
{
    return tr("not on record");
}

QString StatusText::verificationCounts(const recording::CallSummary &call)
{
    QStringList parts;
    if (call.verified)
        parts << tr("%n verified", nullptr, int(call.verified));
    if (call.reconstructed)
        parts << tr("%n reconstructed", nullptr, int(call.reconstructed));
    if (call.damagedParts)
        parts << tr("%n damaged", nullptr, int(call.damagedParts));
    if (call.notOnRecord)
        parts << tr("%n not on record", nullptr, int(call.notOnRecord));
    return parts.isEmpty() ? tr("no parts checked") : parts.join(QStringLiteral(" · "));
}

} // namespace tf::ui
