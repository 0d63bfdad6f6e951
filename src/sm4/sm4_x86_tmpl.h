/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An SM4 table for x86-64 (src/sm4/sm4_ops.h), written once over a few
 * vector operations and included by each table's source (sm4_avx2.c,
 * sm4_avx512.c), which defines, before including it:
 *   FS2_V          the vector type: one 32-bit word of FS2_VN blocks
 *   FS2_VN         blocks per vector (8: YMM, 16: ZMM)
 *   FS2_VSETS      vector sets per pass, interleaved (round latency hides
 *                  behind the other sets' work)
 *   FS2_VT         the functions' target attribute
 *   FS2_VTABLE     the table's C name; FS2_VNAME its name string;
 *                  FS2_VNEEDS its cpu_needs
 *   FS2_GH_BLOCKS  the GHASH loop of ghash_x86_impl.h to use
 * and these static inline functions:
 *   v_set1(w)               w in every lane
 *   v_xor(a, b), v_xor4(a, b, c, d)
 *   v_tau(x)                tau (GB/T 32907 6.2) on every byte
 *   v_lin(x)                L (6.2) on every word
 *   v_load(x, in)           FS2_VN blocks from in, transposed: x[w] holds
 *                           word w (big-endian) of each, in the lane order
 *                           that v_ctr also uses
 *   v_store_xor(out, y, m)  the reverse of v_load for y[0..3], XORed with
 *                           the FS2_VN blocks at m (none if m is NULL)
 *   v_ctr(x, ctr, k)        counter blocks ctr + k .. ctr + k + FS2_VN - 1
 *                           (the last 32 bits, modulo 2^32), transposed
 *   x_tau(x)                tau on every byte of an XMM register (the
 *                           one-block path: CBC encryption, CBC-MAC)
 *
 * Shape: FS2_VN blocks a register set, the state transposed so that a
 * round is whole-register work: X0 ^= L(tau(X1 ^ X2 ^ X3 ^ rk_i)) on
 * FS2_VSETS sets at once, the round keys broadcast from the canonical key.
 * Counter blocks are made transposed (no transpose on the way in); CBC
 * decryption and XTS run a pass through a small stack buffer (the chain
 * and the tweaks); GCM does a pass's counter mode and its GHASH in one
 * loop. Chains of single blocks (CBC encryption, CBC-MAC) run one block
 * at a time, a word in an XMM register, the S-box by x_tau.
 *
 * Constant time: straight-line vector code; branches and memory indices
 * depend only on block counts (public).
 */

static inline uint64_t t_load64_le(const unsigned char *p)
{
    return (uint64_t)fs2_load32_le(p) | ((uint64_t)fs2_load32_le(p + 4) << 32);
}

static inline void t_store64_le(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* The 32 rounds (GB/T 32907 7.1) on S sets; then y = R(X) (X35 .. X32). */
static FS2_VT inline void t_rounds(const uint32_t rk[32], FS2_V (*x)[4], int S)
{
    for (int i = 0; i < 32; i += 4) {
        FS2_V k = v_set1(rk[i]);
        for (int s = 0; s < S; s++)
            x[s][0] = v_xor(x[s][0], v_lin(v_tau(v_xor4(x[s][1], x[s][2], x[s][3], k))));
        k = v_set1(rk[i + 1]);
        for (int s = 0; s < S; s++)
            x[s][1] = v_xor(x[s][1], v_lin(v_tau(v_xor4(x[s][2], x[s][3], x[s][0], k))));
        k = v_set1(rk[i + 2]);
        for (int s = 0; s < S; s++)
            x[s][2] = v_xor(x[s][2], v_lin(v_tau(v_xor4(x[s][3], x[s][0], x[s][1], k))));
        k = v_set1(rk[i + 3]);
        for (int s = 0; s < S; s++)
            x[s][3] = v_xor(x[s][3], v_lin(v_tau(v_xor4(x[s][0], x[s][1], x[s][2], k))));
    }
    for (int s = 0; s < S; s++) {
        FS2_V t = x[s][0];
        x[s][0] = x[s][3];
        x[s][3] = t;
        t = x[s][1];
        x[s][1] = x[s][2];
        x[s][2] = t;
    }
}

#define T_PASS (FS2_VN * FS2_VSETS)

/* The rounds on S sets, 1 <= S <= FS2_VSETS known at run time only (the
 * last pass of a call): a copy unrolled for each count. */
static FS2_VT void t_rounds_n(const uint32_t rk[32], FS2_V (*x)[4], int S)
{
    switch (S) {
    case 1: t_rounds(rk, x, 1); break;
#if FS2_VSETS >= 2
    case 2: t_rounds(rk, x, 2); break;
#endif
#if FS2_VSETS >= 3
    case 3: t_rounds(rk, x, 3); break;
#endif
#if FS2_VSETS >= 4
    case 4: t_rounds(rk, x, 4); break;
#endif
#if FS2_VSETS >= 5
#error "t_rounds_n: add the cases"
#endif
    default: break;
    }
}

/* The last pass of a call, n < T_PASS blocks: whole sets straight from
 * in (or made by v_ctr when ctr is not NULL), the partial one through a
 * buffer; out = E(in) ^ m (m NULL: no XOR). */
static FS2_VT void t_tail(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n,
                          const unsigned char *m, const unsigned char *ctr, uint32_t k)
{
    FS2_V x[FS2_VSETS][4];
    unsigned char buf[16 * FS2_VN];
    int S = (int)((n + FS2_VN - 1) / FS2_VN), full = (int)(n / FS2_VN);
    size_t part = n - (size_t)full * FS2_VN;
    for (int s = 0; s < S; s++) {
        if (ctr) {
            v_ctr(x[s], ctr, k + (uint32_t)(FS2_VN * s));
        } else if (s < full) {
            v_load(x[s], in + 16 * FS2_VN * s);
        } else {
            memset(buf, 0, sizeof buf);
            memcpy(buf, in + 16 * FS2_VN * s, 16 * part);
            v_load(x[s], buf);
        }
    }
    t_rounds_n(rk, x, S);
    for (int s = 0; s < full; s++)
        v_store_xor(out + 16 * FS2_VN * s, x[s], m ? m + 16 * FS2_VN * s : NULL);
    if (part) {
        v_store_xor(buf, x[full], NULL);
        const unsigned char *mm = m ? m + 16 * FS2_VN * full : NULL;
        for (size_t i = 0; i < 16 * part; i++)
            out[16 * FS2_VN * full + i] = (unsigned char)(buf[i] ^ (mm ? mm[i] : 0));
    }
    fs2_wipe(buf, sizeof buf);
    fs2_wipe(x, sizeof x);
}

/* n blocks through the cipher, each XORed after with the block at m (if
 * m is not NULL): whole passes, then the rest in one. */
static FS2_VT void t_crypt(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n,
                           const unsigned char *m)
{
    FS2_V x[FS2_VSETS][4];
    for (; n >= T_PASS; n -= T_PASS, in += 16 * T_PASS, out += 16 * T_PASS, m = m ? m + 16 * T_PASS : m) {
        for (int s = 0; s < FS2_VSETS; s++)
            v_load(x[s], in + 16 * FS2_VN * s);
        t_rounds(rk, x, FS2_VSETS);
        for (int s = 0; s < FS2_VSETS; s++)
            v_store_xor(out + 16 * FS2_VN * s, x[s], m ? m + 16 * FS2_VN * s : NULL);
    }
    if (n > 0)
        t_tail(rk, out, in, n, m, NULL, 0);
    fs2_wipe(x, sizeof x);
}

static FS2_VT void t_blocks(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n)
{
    t_crypt(rk, out, in, n, NULL);
}

static FS2_VT void t_ctr32(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n,
                           const unsigned char ctr[16])
{
    FS2_V x[FS2_VSETS][4];
    uint32_t k = 0;
    for (; n >= T_PASS; n -= T_PASS, in += 16 * T_PASS, out += 16 * T_PASS, k += T_PASS) {
        for (int s = 0; s < FS2_VSETS; s++)
            v_ctr(x[s], ctr, k + (uint32_t)(FS2_VN * s));
        t_rounds(rk, x, FS2_VSETS);
        for (int s = 0; s < FS2_VSETS; s++)
            v_store_xor(out + 16 * FS2_VN * s, x[s], in + 16 * FS2_VN * s);
    }
    if (n > 0)
        t_tail(rk, out, in, n, in, ctr, k);
    fs2_wipe(x, sizeof x);
}

static FS2_VT void t_cbc_dec(const uint32_t rkd[32], unsigned char *out, const unsigned char *in, size_t n,
                             unsigned char iv[16])
{
    /* c: the chaining value, then the pass's ciphertext (read before an
     * in-place pass writes over it) */
    unsigned char c[16 + 16 * T_PASS];
    while (n > 0) {
        size_t m = n < T_PASS ? n : T_PASS;
        memcpy(c, iv, 16);
        memcpy(c + 16, in, 16 * m);
        memcpy(iv, c + 16 * m, 16);
        t_crypt(rkd, out, c + 16, m, c);
        in += 16 * m, out += 16 * m, n -= m;
    }
}

/* L (GB/T 32907 6.2) on the low word of an XMM register (the others
 * ride along): B ^ (B ^ B<<<8 ^ B<<<16) <<< 2 ^ B<<<24; an includer with
 * shorter forms (AVX-512VL's rotations) defines FS2_X_LIN1 and x_lin1. */
#ifdef FS2_X_LIN1
#define t_lin1 x_lin1
#else
static FS2_VT inline __m128i t_lin1(__m128i b)
{
    const __m128i r8 = _mm_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14);
    const __m128i r16 = _mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
    const __m128i r24 = _mm_setr_epi8(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12);
    __m128i t = _mm_xor_si128(_mm_xor_si128(b, _mm_shuffle_epi8(b, r8)), _mm_shuffle_epi8(b, r16));
    t = _mm_or_si128(_mm_slli_epi32(t, 2), _mm_srli_epi32(t, 30));
    return _mm_xor_si128(_mm_xor_si128(b, t), _mm_shuffle_epi8(b, r24));
}
#endif

/* One block (the chains of single blocks: CBC encryption, CBC-MAC), each
 * word in the low lane of an XMM register, so that the round's latency
 * chain has no move between register files; the S-box is x_tau. */
static FS2_VT inline void t_one(const uint32_t rk[32], unsigned char out[16], const unsigned char in[16])
{
    __m128i x0 = _mm_cvtsi32_si128((int)fs2_load32_be(in)), x1 = _mm_cvtsi32_si128((int)fs2_load32_be(in + 4));
    __m128i x2 = _mm_cvtsi32_si128((int)fs2_load32_be(in + 8)), x3 = _mm_cvtsi32_si128((int)fs2_load32_be(in + 12));
#define T_ONE_ROUND(a, p, q, r, k) \
    a = _mm_xor_si128(             \
        a, t_lin1(x_tau(_mm_xor_si128(p, _mm_xor_si128(_mm_xor_si128(q, r), _mm_cvtsi32_si128((int)(k)))))))
    for (int i = 0; i < 32; i += 4) {
        T_ONE_ROUND(x0, x1, x2, x3, rk[i]);
        T_ONE_ROUND(x1, x2, x3, x0, rk[i + 1]);
        T_ONE_ROUND(x2, x3, x0, x1, rk[i + 2]);
        T_ONE_ROUND(x3, x0, x1, x2, rk[i + 3]);
    }
#undef T_ONE_ROUND
    fs2_store32_be(out, (uint32_t)_mm_cvtsi128_si32(x3));
    fs2_store32_be(out + 4, (uint32_t)_mm_cvtsi128_si32(x2));
    fs2_store32_be(out + 8, (uint32_t)_mm_cvtsi128_si32(x1));
    fs2_store32_be(out + 12, (uint32_t)_mm_cvtsi128_si32(x0));
}

static FS2_VT void t_cbc_enc(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n,
                             unsigned char iv[16])
{
    unsigned char x[16];
    for (size_t i = 0; i < n; i++) {
        for (int j = 0; j < 16; j++)
            x[j] = in[16 * i + j] ^ iv[j];
        t_one(rk, iv, x);
        memcpy(out + 16 * i, iv, 16);
    }
    fs2_wipe(x, sizeof x);
}

static FS2_VT void t_cbc_mac(const uint32_t rk[32], unsigned char mac[16], const unsigned char *in, size_t n)
{
    unsigned char x[16];
    for (size_t i = 0; i < n; i++) {
        for (int j = 0; j < 16; j++)
            x[j] = in[16 * i + j] ^ mac[j];
        t_one(rk, mac, x);
    }
    fs2_wipe(x, sizeof x);
}

static FS2_VT void t_xts(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n,
                         unsigned char t[16], int standard)
{
    unsigned char tw[16 * T_PASS], x[16 * T_PASS];
    /* the tweak as a number: little-endian (IEEE 1619) or big-endian with
     * x^0 in the top bit (GB/T 17964) */
    int ieee = standard == FS2_XTS_IEEE;
    uint64_t lo = ieee ? t_load64_le(t) : fs2_load64_be(t + 8), hi = ieee ? t_load64_le(t + 8) : fs2_load64_be(t);
    while (n > 0) {
        size_t m = n < T_PASS ? n : T_PASS;
        for (size_t i = 0; i < m; i++) {
            if (ieee) {
                t_store64_le(tw + 16 * i, lo);
                t_store64_le(tw + 16 * i + 8, hi);
                uint64_t c = hi >> 63;
                hi = (hi << 1) | (lo >> 63);
                lo = (lo << 1) ^ ((0 - c) & 0x87);
            } else {
                fs2_store64_be(tw + 16 * i, hi);
                fs2_store64_be(tw + 16 * i + 8, lo);
                uint64_t c = lo & 1;
                lo = (lo >> 1) | (hi << 63);
                hi = (hi >> 1) ^ ((0 - c) & 0xE100000000000000ULL);
            }
        }
        for (size_t i = 0; i < 16 * m; i++)
            x[i] = in[i] ^ tw[i];
        t_crypt(rk, out, x, m, tw);
        in += 16 * m, out += 16 * m, n -= m;
    }
    if (ieee) {
        t_store64_le(t, lo);
        t_store64_le(t + 8, hi);
    } else {
        fs2_store64_be(t, hi);
        fs2_store64_be(t + 8, lo);
    }
    fs2_wipe(tw, sizeof tw);
    fs2_wipe(x, sizeof x);
}

static FS2_VT void t_ghash(uint64_t xi[2], const uint64_t (*hpow)[2], const unsigned char *in, size_t n)
{
    __m128i y = _mm_loadu_si128((const __m128i *)xi);
    FS2_GH_BLOCKS(&y, hpow, in, n);
    _mm_storeu_si128((__m128i *)xi, y);
}

/* GCM's bulk: a pass of counter mode, and GHASH over that pass's
 * ciphertext (before an in-place decryption overwrites it). */
static FS2_VT void t_gcm(const fs2_sm4_key *key, unsigned char *out, const unsigned char *in, size_t n,
                         const unsigned char ctr[16], uint64_t xi[2], int enc)
{
    __m128i y = _mm_loadu_si128((const __m128i *)xi);
    FS2_V x[FS2_VSETS][4];
    uint32_t k = 0;
    for (; n >= T_PASS; n -= T_PASS, in += 16 * T_PASS, out += 16 * T_PASS, k += T_PASS) {
        for (int s = 0; s < FS2_VSETS; s++)
            v_ctr(x[s], ctr, k + (uint32_t)(FS2_VN * s));
        if (!enc)
            FS2_GH_BLOCKS(&y, key->hpow, in, T_PASS);
        t_rounds(key->rk, x, FS2_VSETS);
        for (int s = 0; s < FS2_VSETS; s++)
            v_store_xor(out + 16 * FS2_VN * s, x[s], in + 16 * FS2_VN * s);
        if (enc)
            FS2_GH_BLOCKS(&y, key->hpow, out, T_PASS);
    }
    _mm_storeu_si128((__m128i *)xi, y);
    fs2_wipe(x, sizeof x);
    if (n > 0) {
        unsigned char c[16];
        memcpy(c, ctr, 16);
        fs2_store32_be(c + 12, fs2_load32_be(ctr + 12) + k);
        if (!enc)
            t_ghash(xi, key->hpow, in, n);
        t_ctr32(key->rk, out, in, n, c);
        if (enc)
            t_ghash(xi, key->hpow, out, n);
    }
}

const fs2_sm4_ops FS2_VTABLE = {
    .name = FS2_VNAME,
    .cpu_needs = FS2_VNEEDS,
    .blocks = t_blocks,
    .ctr32 = t_ctr32,
    .cbc_enc = t_cbc_enc,
    .cbc_dec = t_cbc_dec,
    .cbc_mac = t_cbc_mac,
    .xts = t_xts,
    .ghash = t_ghash,
    .gcm = t_gcm,
};

#undef T_PASS
#undef t_lin1
