#pragma once

#include "findingspiece.h"

#include <array>
#include <string>
#include <string_view>

// Every fixed string of the findings piece, in one place (spec/findings.md §3.1, §3.3, §3.6 to §3.8).
namespace tf::findings {

// §1.1 FINDINGS_PIECE_LIMITS.
inline constexpr std::size_t kBucketLines = 64;
inline constexpr std::size_t kListedIds = 32;
inline constexpr std::size_t kLineChars = 240;
inline constexpr std::size_t kIdChars = 64;
inline constexpr std::size_t kPieceChars = 114688; // stated, never enforced (§3.3)

// §3.1: the header is six lines; lines 2 to 5 quote CONTEXT_FIELD_MEANINGS, of which two revisions exist.
const std::array<std::u16string, 6> &pieceHeaderLines(HeaderTable table);

// §3.3, §3.6, §3.7 headings.
inline constexpr std::u16string_view kFactsHeading = u"facts (declared by the model):";
inline constexpr std::u16string_view kLimitationsHeading = u"limitations (declared by the model):";
inline constexpr std::u16string_view kEvidenceRefsHeading = u"evidenceRefs (declared by the model):";
inline constexpr std::u16string_view kNextStepsHeading = u"nextSteps (declared by the model):";
inline constexpr std::u16string_view kContingentHeading = u"contingent (read off the record):";
inline constexpr std::u16string_view kUnsettledHeading = u"unsettled by absence (read off the record):";
// §3.5 count-line labels and notes.
inline constexpr std::u16string_view kNoiseLabel = u"noise (declared by the model)";
inline constexpr std::u16string_view kUndeclaredLabel = u"undeclared";
inline constexpr std::u16string_view kUndeclaredNote = u", served in full below";

// §3.8 FINDINGS_ANSWER_ASK: five lines, 503 units, never clipped.
const std::array<std::u16string_view, 5> &answerAskLines();

} // namespace tf::findings
