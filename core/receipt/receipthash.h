#pragma once

#include "core/crypto/sha256.h"

#include <string>
#include <string_view>

// The receipt hash of spec/recording.md §6.2 and spec/findings.md §6.3:
//
//     receiptHash(salt, content) = first 16 lowercase hex of SHA-256(UTF-8(salt + U+001F + content))
//
// where UTF-8 is the WHATWG TextEncoder (a lone surrogate becomes U+FFFD, bytes EF BF BD). The salt is the run id
// of the receipt being checked (`receipt.basis.runId`), so hashes compare only within one run.
namespace tf::receipt {

// Hex characters a receipt hash keeps.
inline constexpr std::size_t kReceiptHashLength = 16;
// U+001F, between the salt and the content (and between a chain's link and its next part, chain-v1).
inline constexpr std::string_view kUnitSeparator = "\x1F";

// Content in WTF-8 (the core's string form). The bytes go to the hasher as they are, without a concatenated copy;
// only the 3-byte form of a surrogate is rewritten on the way (EF BF BD for a lone one). A high half directly
// followed by a low half is hashed as the pair's 4-byte form, so this overload and the UTF-16 one agree on every
// input that maps to the same code units.
std::string receiptHash(std::string_view saltWtf8, std::string_view contentWtf8);
// Content in UTF-16 code units (a piece built as std::u16string), encoded in small chunks as it is hashed.
std::string receiptHash(std::string_view saltWtf8, std::u16string_view content);

// Feeds the WHATWG UTF-8 form of WTF-8 or UTF-16 text to a hasher. Exposed so a caller that assembles a digest
// input from parts (a joined system prompt, say) can hash it without joining it first.
void updateUtf8Lossy(crypto::Sha256 &hasher, std::string_view wtf8);
void updateUtf8Lossy(crypto::Sha256 &hasher, std::u16string_view utf16);

// The first 16 lowercase hex characters of a finished digest.
std::string truncatedHex(const crypto::Sha256::Digest &digest);

// True for exactly 16 characters of 0-9a-f. Fixtures normalise receipt hashes to placeholders such as `<digest>`;
// a receipt whose hash fails this test is not compared (spec/recording.md §6.6, step 2).
bool isReceiptHashShaped(std::string_view s);

} // namespace tf::receipt
