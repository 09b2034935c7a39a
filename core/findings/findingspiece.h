#pragma once

#include "ledgerfold.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tf::findings {

enum class AnswerAsk
{
    None,
    QuoteFacts
};

// §3.1: two revisions of CONTEXT_FIELD_MEANINGS. The vectors and the samples use Short.
enum class HeaderTable
{
    Short,
    Long
};
const std::u16string &pieceHeader(HeaderTable table);

// Where a run of a line's text came from, so a view can tell the model's words from the library's.
// Every field interpolated from a row or from `served` is Model, including a toolName, a ref and a carrier's
// standing: it is quoted data, not the library's wording. Counts, nouns, "+K more" and "answer" are Library. When the
// newline fold (§3.2) merges a run that holds both, the one space left is Library (see clip.h).
enum class SpanOrigin
{
    Library,  // wording the library writes ("facts (declared by the model):", " ← ", "tool:" ...)
    Model,    // text the model declared (values, lines, settles, ids, propositions)
    Overflow, // " …[clipped N chars]" appended by a clip
};

struct PieceSpan
{
    std::size_t begin = 0; // UTF-16 offsets within the line's text, [begin, end)
    std::size_t end = 0;
    SpanOrigin origin = SpanOrigin::Library;
};

enum class LineKind
{
    Header,
    Heading,
    Content,
    More,
    CountLine,
    Ask
};

struct PieceLine
{
    LineKind kind = LineKind::Content;
    std::u16string text;          // exactly the bytes in the piece (after fold and clip)
    std::vector<PieceSpan> spans; // cover text completely, in order
    std::size_t clippedUnits = 0; // N of "…[clipped N chars]" when the whole line was clipped (0: not clipped);
                                  // on a count line, the sum of the N of its clipped ids
    std::size_t clipCap = 0;      // the cap that clipped it (240 for lines; 64 for count-line ids)
    std::size_t hiddenLines = 0;  // for LineKind::More: K of "+K more (cap 64)"; for a count line: its "+K more"
    // Ledger rows this line quotes, ascending: the standing row, the basis row of a tested suffix, every witness
    // row of a conflict, the contingent or unsettled row. A More line lists the rows of the lines it hides; a noise
    // count line the rows of all its ids. Empty for headings, the header and the ask.
    std::vector<std::size_t> rowIndices;
};

enum class SectionKind
{
    Header,
    Facts,
    Limitations,
    EvidenceRefs,
    NextSteps,
    Contingent,
    Unsettled,
    Noise,
    Undeclared,
    Ask
};
const char *sectionKindName(SectionKind kind);

struct PieceSection
{
    SectionKind kind = SectionKind::Header;
    std::vector<PieceLine> lines;      // heading (if any) first; joined with "\n" in the text
    std::size_t totalContentLines = 0; // before the 64-line cap (or the id count on count lines)
};

// The piece and its structure come from one composition: text == join("\n\n", join("\n", section lines)).
struct FindingsPiece
{
    std::u16string text;
    std::vector<PieceSection> sections;
    std::size_t lengthU16() const { return text.size(); }
    std::size_t sizeUtf8() const; // WHATWG encoder bytes (a lone surrogate counts as EF BF BD)
    bool hasLoneSurrogate() const;
};

// findingsLedgerPiece (§3). `rows` is nullptr when the ledger is absent. `served` holds WTF-8 ids in order.
// Returns nullopt exactly where upstream returns undefined.
std::optional<FindingsPiece> composeFindingsPiece(const json::Value *rows, const std::vector<std::string> &served,
                                                  AnswerAsk ask, HeaderTable table = HeaderTable::Short);
// The same with the rows already folded (`fold` is foldLedger(*rows)).
std::optional<FindingsPiece> composeFindingsPiece(const json::Value *rows, const LedgerFold &fold,
                                                  const std::vector<std::string> &served, AnswerAsk ask,
                                                  HeaderTable table = HeaderTable::Short);

// clip(text, max) of §3.2: the newline fold, then the cut at a UTF-16 index. Sets clippedUnits to L - max or 0.
std::u16string clipText(std::u16string_view text, std::size_t max, std::size_t *clippedUnits = nullptr);

// The invariants that tie the structure to the text: text is the join of the lines; each line's spans are
// non-empty, in order and cover it exactly; an Overflow span is exactly a clip note; clippedUnits and hiddenLines
// agree with the words in the line. Returns an empty string when all hold, otherwise what broke.
std::string checkPieceStructure(const FindingsPiece &piece);

} // namespace tf::findings
