#include "sha256.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define TF_SHA_X86 1
#endif

namespace tf::crypto {

namespace {

// FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
constexpr std::array<std::uint32_t, 64> kRound = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

// FIPS 180-4 §5.3.3: the first 32 bits of the fractional parts of the square roots of the first 8 primes.
constexpr std::array<std::uint32_t, 8> kInitial = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

constexpr std::uint32_t rotr(std::uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n));
}

// Big-endian loads and stores, written out so the result does not depend on the host's byte order.
std::uint32_t loadBe32(const std::uint8_t *p)
{
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | std::uint32_t(p[3]);
}

void storeBe32(std::uint8_t *p, std::uint32_t v)
{
    p[0] = std::uint8_t(v >> 24);
    p[1] = std::uint8_t(v >> 16);
    p[2] = std::uint8_t(v >> 8);
    p[3] = std::uint8_t(v);
}

#if defined(TF_SHA_X86)
bool cpuHasShaExtensions()
{
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return false;
    const bool ssse3 = c & (1u << 9), sse41 = c & (1u << 19);
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return false;
    return ssse3 && sse41 && (b & (1u << 29));
}

// The SHA-NI form of the same rounds (Intel's SHA extensions), which hash about five times faster than the
// portable code: verification hashes every message of a recording, so this is a large part of opening one.
// The state is kept as the instructions want it, ABEF and CDGH, and converted back once at the end.
__attribute__((target("sha,sse4.1,ssse3"))) void compressShaNi(std::uint32_t *state, const std::uint8_t *data,
                                                                std::size_t count)
{
    const __m128i byteSwap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i tmp = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i *>(state)), 0xB1); // CDAB
    __m128i state1 = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i *>(state + 4)), 0x1B); // EFGH
    __m128i state0 = _mm_alignr_epi8(tmp, state1, 8);    // ABEF
    state1 = _mm_blend_epi16(state1, tmp, 0xF0);         // CDGH
    for (; count > 0; --count, data += 64) {
        const __m128i abefSave = state0, cdghSave = state1;
        __m128i w[16];
        for (int i = 0; i < 16; ++i) {
            if (i < 4) {
                w[i] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i *>(data + 16 * i)), byteSwap);
            } else {
                // W[t] for four t at once: σ0 terms (msg1), the W[t-7] terms (alignr), then the σ1 terms (msg2).
                __m128i next = _mm_sha256msg1_epu32(w[i - 4], w[i - 3]);
                next = _mm_add_epi32(next, _mm_alignr_epi8(w[i - 1], w[i - 2], 4));
                w[i] = _mm_sha256msg2_epu32(next, w[i - 1]);
            }
            __m128i msg = _mm_add_epi32(w[i], _mm_loadu_si128(reinterpret_cast<const __m128i *>(&kRound[4 * i])));
            state1 = _mm_sha256rnds2_epu32(state1, state0, msg);
            msg = _mm_shuffle_epi32(msg, 0x0E);
            state0 = _mm_sha256rnds2_epu32(state0, state1, msg);
        }
        state0 = _mm_add_epi32(state0, abefSave);
        state1 = _mm_add_epi32(state1, cdghSave);
    }
    tmp = _mm_shuffle_epi32(state0, 0x1B);        // FEBA
    state1 = _mm_shuffle_epi32(state1, 0xB1);     // DCHG
    state0 = _mm_blend_epi16(tmp, state1, 0xF0);  // DCBA
    state1 = _mm_alignr_epi8(state1, tmp, 8);     // HGFE
    _mm_storeu_si128(reinterpret_cast<__m128i *>(state), state0);
    _mm_storeu_si128(reinterpret_cast<__m128i *>(state + 4), state1);
}

const bool g_shaExtensionsPresent = cpuHasShaExtensions();
#else
const bool g_shaExtensionsPresent = false;
#endif

std::atomic<bool> g_shaExtensionsAllowed{true};

} // namespace

namespace detail {

bool setShaExtensionsAllowed(bool allowed)
{
    return g_shaExtensionsAllowed.exchange(allowed);
}

bool shaExtensionsAvailable()
{
    return g_shaExtensionsPresent;
}

} // namespace detail

void Sha256::compress(const std::uint8_t *blocks, std::size_t count)
{
#if defined(TF_SHA_X86)
    if (g_shaExtensionsPresent && g_shaExtensionsAllowed.load(std::memory_order_relaxed)) {
        compressShaNi(m_state.data(), blocks, count);
        return;
    }
#endif
    for (std::size_t i = 0; i < count; ++i)
        compressPortable(blocks + 64 * i);
}

void Sha256::reset()
{
    m_state = kInitial;
    m_blockFill = 0;
    m_totalBytes = 0;
}

// FIPS 180-4 §6.2.2, one 512-bit block.
void Sha256::compressPortable(const std::uint8_t *block)
{
    std::array<std::uint32_t, 64> w;
    for (std::size_t t = 0; t < 16; ++t)
        w[t] = loadBe32(block + 4 * t);
    for (std::size_t t = 16; t < 64; ++t) {
        const std::uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
        const std::uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }

    std::uint32_t a = m_state[0], b = m_state[1], c = m_state[2], d = m_state[3];
    std::uint32_t e = m_state[4], f = m_state[5], g = m_state[6], h = m_state[7];
    for (std::size_t t = 0; t < 64; ++t) {
        const std::uint32_t bigSigma1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
        const std::uint32_t choose = (e & f) ^ (~e & g);
        const std::uint32_t t1 = h + bigSigma1 + choose + kRound[t] + w[t];
        const std::uint32_t bigSigma0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
        const std::uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
        const std::uint32_t t2 = bigSigma0 + majority;
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    m_state[0] += a;
    m_state[1] += b;
    m_state[2] += c;
    m_state[3] += d;
    m_state[4] += e;
    m_state[5] += f;
    m_state[6] += g;
    m_state[7] += h;
}

void Sha256::update(const void *data, std::size_t size)
{
    if (size == 0)
        return;
    const auto *p = static_cast<const std::uint8_t *>(data);
    m_totalBytes += size;

    // Top up a partly filled block first, then hash whole blocks straight from the input without copying.
    if (m_blockFill > 0) {
        const std::size_t take = std::min(size, m_block.size() - m_blockFill);
        std::memcpy(m_block.data() + m_blockFill, p, take);
        m_blockFill += take;
        p += take;
        size -= take;
        if (m_blockFill < m_block.size())
            return;
        compress(m_block.data());
        m_blockFill = 0;
    }
    if (const std::size_t whole = size / m_block.size()) {
        compress(p, whole);
        p += whole * m_block.size();
        size -= whole * m_block.size();
    }
    if (size > 0) {
        std::memcpy(m_block.data(), p, size);
        m_blockFill = size;
    }
}

Sha256::Digest Sha256::finish()
{
    // FIPS 180-4 §5.1.1: a 1 bit, zeros up to 56 bytes mod 64, then the message length in bits, big-endian.
    const std::uint64_t totalBits = m_totalBytes * 8;
    m_block[m_blockFill++] = 0x80;
    if (m_blockFill > 56) {
        std::memset(m_block.data() + m_blockFill, 0, m_block.size() - m_blockFill);
        compress(m_block.data());
        m_blockFill = 0;
    }
    std::memset(m_block.data() + m_blockFill, 0, 56 - m_blockFill);
    storeBe32(m_block.data() + 56, std::uint32_t(totalBits >> 32));
    storeBe32(m_block.data() + 60, std::uint32_t(totalBits));
    compress(m_block.data());

    Digest out;
    for (std::size_t i = 0; i < m_state.size(); ++i)
        storeBe32(out.data() + 4 * i, m_state[i]);
    reset();
    return out;
}

Sha256::Digest Sha256::digest(std::string_view bytes)
{
    Sha256 h;
    h.update(bytes);
    return h.finish();
}

std::string Sha256::hex(std::string_view bytes)
{
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (const char c : bytes) {
        const auto b = static_cast<unsigned char>(c);
        out.push_back(kDigits[b >> 4]);
        out.push_back(kDigits[b & 0x0F]);
    }
    return out;
}

std::string Sha256::hex(const Digest &digest)
{
    return hex(std::string_view(reinterpret_cast<const char *>(digest.data()), digest.size()));
}

} // namespace tf::crypto
