#include "clip.h"

#include "jswhitespace.h"

namespace tf::findings {

void appendDecimal(std::u16string &out, std::size_t n)
{
    char16_t digits[24];
    std::size_t len = 0;
    do {
        digits[len++] = char16_t(u'0' + n % 10);
        n /= 10;
    } while (n != 0);
    while (len > 0)
        out += digits[--len];
}

void appendClipNote(std::u16string &out, std::size_t clippedUnits)
{
    out += u" \u2026[clipped ";
    appendDecimal(out, clippedUnits);
    out += u" chars]";
}

std::size_t clipInto(std::u16string_view text, const SpanOrigin *origins, std::size_t max, std::u16string &out,
                     std::vector<SpanOrigin> *outOrigins)
{
    const bool track = origins && outOrigins;
    const std::size_t start = out.size();
    // Step 1, the fold: `text.replace(/\s*[\r\n]+\s*/g, " ")` is exactly "each maximal \s run holding CR or LF
    // becomes one space"; a run without either is kept unit for unit (U+2028/U+2029 never start a fold).
    for (std::size_t i = 0; i < text.size();) {
        if (!isJsWhitespace(text[i])) {
            std::size_t end = i + 1;
            while (end < text.size() && !isJsWhitespace(text[end]))
                ++end;
            out.append(text.substr(i, end - i));
            if (track)
                outOrigins->insert(outOrigins->end(), origins + i, origins + end);
            i = end;
            continue;
        }
        std::size_t end = i;
        bool folds = false;
        bool library = false;
        while (end < text.size() && isJsWhitespace(text[end])) {
            folds = folds || isFoldTrigger(text[end]);
            library = library || (track && origins[end] == SpanOrigin::Library);
            ++end;
        }
        if (folds) {
            out += u' ';
            if (track)
                outOrigins->push_back(library ? SpanOrigin::Library : origins[i]);
        } else {
            out.append(text.substr(i, end - i));
            if (track)
                outOrigins->insert(outOrigins->end(), origins + i, origins + end);
        }
        i = end;
    }
    // Step 2, the cut, at a unit index: a surrogate pair may be split and its dropped half counts in N (§8.2).
    const std::size_t folded = out.size() - start;
    if (folded <= max)
        return 0;
    const std::size_t clipped = folded - max;
    out.resize(start + max);
    if (track)
        outOrigins->resize(start + max);
    const std::size_t noteStart = out.size();
    appendClipNote(out, clipped);
    if (track)
        outOrigins->insert(outOrigins->end(), out.size() - noteStart, SpanOrigin::Overflow);
    return clipped;
}

std::u16string clipText(std::u16string_view text, std::size_t max, std::size_t *clippedUnits)
{
    std::u16string out;
    out.reserve(text.size());
    const std::size_t n = clipInto(text, nullptr, max, out, nullptr);
    if (clippedUnits)
        *clippedUnits = n;
    return out;
}

} // namespace tf::findings
