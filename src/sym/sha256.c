/* SPDX-License-Identifier: Apache-2.0 */
/* SHA-256, FIPS 180-4 clause 6.2: for HMAC-SHA256 in PBKDF2 (the PRF of
 * OpenSSL's encrypted key files). No branch or index depends on the data. */
#include "sym.h"

static inline uint32_t rotr32(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

/* K (clause 4.2.2): the first 32 bits of the fractional parts of the cube
 * roots of the first 64 primes. */
static const uint32_t K256[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u,
};

static void compress(uint32_t h[8], const unsigned char *p)
{
    uint32_t w[64], a, b, c, d, e, f, g, hh;
    for (int t = 0; t < 16; t++)
        w[t] = fs2_load32_be(p + 4 * t);
    for (int t = 16; t < 64; t++) {
        uint32_t s0 = rotr32(w[t - 15], 7) ^ rotr32(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = rotr32(w[t - 2], 17) ^ rotr32(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < 64; t++) {
        uint32_t t1 = hh + (rotr32(e, 6) ^ rotr32(e, 11) ^ rotr32(e, 25)) + ((e & f) ^ (~e & g)) + K256[t] + w[t];
        uint32_t t2 = (rotr32(a, 2) ^ rotr32(a, 13) ^ rotr32(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
    fs2_wipe(w, sizeof w);
}

void fs2_sha256_init(fs2_sha256_ctx *c)
{
    /* H(0) (clause 5.3.3) */
    static const uint32_t iv[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                   0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
    memcpy(c->h, iv, sizeof iv);
    c->nbytes = 0;
    memset(c->buf, 0, sizeof c->buf);
    c->buflen = 0;
}

void fs2_sha256_update(fs2_sha256_ctx *c, const void *data, size_t len)
{
    const unsigned char *p = data;
    c->nbytes += len;
    if (c->buflen) {
        size_t k = 64 - c->buflen < len ? 64 - c->buflen : len;
        memcpy(c->buf + c->buflen, p, k);
        c->buflen += (uint32_t)k;
        p += k;
        len -= k;
        if (c->buflen < 64)
            return;
        compress(c->h, c->buf);
        c->buflen = 0;
    }
    for (; len >= 64; p += 64, len -= 64)
        compress(c->h, p);
    memcpy(c->buf, p, len);
    c->buflen = (uint32_t)len;
}

void fs2_sha256_final(unsigned char out[32], fs2_sha256_ctx *c)
{
    uint64_t bits = c->nbytes * 8;
    /* Padding (clause 5.1.1): 0x80, zeros, the 64-bit length. */
    c->buf[c->buflen++] = 0x80;
    if (c->buflen > 56) {
        memset(c->buf + c->buflen, 0, 64 - c->buflen);
        compress(c->h, c->buf);
        c->buflen = 0;
    }
    memset(c->buf + c->buflen, 0, 56 - c->buflen);
    fs2_store64_be(c->buf + 56, bits);
    compress(c->h, c->buf);
    for (int i = 0; i < 8; i++)
        fs2_store32_be(out + 4 * i, c->h[i]);
    fs2_wipe(c, sizeof *c);
}

void fs2_sha256(unsigned char out[32], const void *data, size_t len)
{
    fs2_sha256_ctx c;
    fs2_sha256_init(&c);
    fs2_sha256_update(&c, data, len);
    fs2_sha256_final(out, &c);
}
