#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tf::crypto {

// SHA-256 as FIPS 180-4 defines it. Written here rather than taken from a library so the core stays free of
// third-party dependencies; receipts (spec/recording.md §6.2) need nothing more than this one function.
//
// Incremental: update() any number of times, then finish(). finish() leaves the hasher reset, ready for the next
// message, so one instance can hash many rows in turn.
class Sha256
{
public:
    using Digest = std::array<std::uint8_t, 32>;

    Sha256() { reset(); }

    void reset();
    void update(const void *data, std::size_t size);
    void update(std::string_view bytes) { update(bytes.data(), bytes.size()); }
    Digest finish();

    // One-shot conveniences.
    static Digest digest(std::string_view bytes);
    static std::string hexDigest(std::string_view bytes) { return hex(digest(bytes)); }

    // Lowercase hex of arbitrary bytes, two characters per byte.
    static std::string hex(std::string_view bytes);
    static std::string hex(const Digest &digest);

private:
    void compress(const std::uint8_t *blocks, std::size_t count = 1);
    void compressPortable(const std::uint8_t *block);

    std::array<std::uint32_t, 8> m_state{};
    std::array<std::uint8_t, 64> m_block{};
    std::size_t m_blockFill = 0;
    std::uint64_t m_totalBytes = 0;
};

namespace detail {
// Whether the x86 SHA extensions may be used where the CPU has them (the default). Returns the previous setting;
// tests turn them off to check the portable rounds against the same inputs.
bool setShaExtensionsAllowed(bool allowed);
bool shaExtensionsAvailable();
} // namespace detail

} // namespace tf::crypto
