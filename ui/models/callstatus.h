#pragma once

#include "ui/widgets/glyphs.h"

#include "core/findings/ledgerfold.h"
#include "core/recording/callview.h"

#include <QCoreApplication>
#include <QString>

#include <optional>

// How the panes name and mark a call's states. The facts come from the core (CallSummary, CallView); this file only
// decides how they are shown and which calls the "next miss" and "next damaged" jumps stop at.
namespace tf::ui {

// The cache status icon of the calls list: could the cached prefix be reused (spec/recording.md §7.3)?
enum class CacheStatus
{
    Reusable,
    Rewritten,
    Unknown,
};
CacheStatus cacheStatusOf(std::optional<bool> prefixReusable);

// A cache miss, for the strip chart marks and the "next cache miss" jump: when the provider reported cache usage,
// a call that read nothing from the cache; otherwise a call whose prefix was rewritten.
bool isCacheMiss(const recording::CallSummary &call);

// One badge for a whole call: damaged when any part is; verified when every hashed part matched; reconstructed when
// the rebuild could not be checked against real hashes; not on record when nothing was.
recording::Badge callBadge(const recording::CallSummary &call);

Glyph glyphFor(CacheStatus status);
Glyph glyphFor(recording::Badge badge);

class StatusText
{
    Q_DECLARE_TR_FUNCTIONS(tf::ui::StatusText)

public:
    static QString cacheStatus(CacheStatus status);
    static QString cacheStatusExplained(CacheStatus status);
    static QString badge(recording::Badge badge);
    static QString verdict(recording::CacheVerdict verdict);
    static QString verdictShort(recording::CacheVerdict verdict);
    static QString gapKind(recording::Gap::Kind kind);
    static QString receiptState(recording::CallView::ReceiptState state);
    static QString shape(recording::RecordingShape shape);
    static QString foldBasis(recording::FoldBasis basis);
    static QString notOnRecord();
    static QString verificationCounts(const recording::CallSummary &call);
};

} // namespace tf::ui
