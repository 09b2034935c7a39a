#include "sha256.h"

#include <algorithm>
#include <cstring>

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

} // namespace

void Sha256::reset()
{
    m_state = kInitial;
    m_blockFill = 0;
    m_totalBytes = 0;
}

// FIPS 180-4 §6.2.2, one 512-bit block.
void Sha256::compress(const std::uint8_t *block)
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
    while (size >= m_block.size()) {
        compress(p);
        p += m_block.size();
        size -= m_block.size();
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
